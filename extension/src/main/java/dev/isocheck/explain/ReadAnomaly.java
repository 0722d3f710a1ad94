package dev.isocheck.explain;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.isocheck.AnomalyType;
import dev.isocheck.history.OpKind;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
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
     * The name a developer knows this anomaly by, where it has one besides Adya's and Elle's:
     * <ul>
     *   <li><em>non-repeatable read</em> (a fuzzy read): an internal inconsistency between two of
     *       the transaction's reads of a row, item reads or rows predicate reads returned, which
     *       saw two versions (Hermitage's OTV at READ COMMITTED). A phantom (a predicate read
     *       returning a row an earlier one did not) is not screened: it shows as a cycle with a
     *       predicate anti-dependency;</li>
     *   <li><em>dirty read</em>: a read of a write its transaction aborted (G1a) or overwrote
     *       before committing (G1b).</li>
     * </ul>
     * An internal inconsistency with the transaction's own write has none.
     */
    public Optional<String> familiarName() {
        return switch (type) {
            case INTERNAL -> {
                if (related.isEmpty() || related.stream().anyMatch(r -> r.operation().kind() == OpKind.WRITE)) {
                    yield Optional.empty();
                }
                yield Optional.of("non-repeatable read");
            }
            case G1A, G1B -> Optional.of("dirty read");
            default -> Optional.empty();
        };
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
