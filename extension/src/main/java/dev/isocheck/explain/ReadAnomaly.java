package dev.isocheck.explain;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.isocheck.AnomalyType;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A non-cycle anomaly: one read that no committed, installed write explains (G1a aborted read, G1b
 * intermediate read, thin air), that contradicts its own transaction (INT), or that disagrees with
 * another read of the same unknown initial value.
 *
 * @param type        the anomaly
 * @param read        the read that shows it
 * @param related     the other operations involved, each with its role
 * @param explanation why no write explains the read, in words
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ReadAnomaly(AnomalyType type, OperationRef read, List<Related> related, String explanation) {

    /** Validates and copies. */
    public ReadAnomaly {
        Objects.requireNonNull(type, "type is null");
        Objects.requireNonNull(read, "read is null");
        related = List.copyOf(related);
        Objects.requireNonNull(explanation, "explanation is null");
    }

    /**
     * An operation involved in a non-cycle anomaly, and its role.
     *
     * @param operation the operation
     * @param role      what it is to the read, e.g. {@code write of an aborted transaction}
     */
    public record Related(OperationRef operation, String role) {
        /** Validates. */
        public Related {
            Objects.requireNonNull(operation, "operation is null");
            Objects.requireNonNull(role, "role is null");
        }
    }
}
