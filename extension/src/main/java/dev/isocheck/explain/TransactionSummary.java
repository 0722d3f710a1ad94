package dev.isocheck.explain;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.apiguardian.api.API;

/**
 * A transaction as reports show it next to a cycle: its session, times and operations, so that a
 * reader needs nothing but the report.
 *
 * @param id         the transaction's id
 * @param session    the session's name; none when the transaction was recorded without one
 * @param committed  whether it committed
 * @param start      when it started, if recorded
 * @param end        when its end was acknowledged, if recorded
 * @param operations its operations in program order
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record TransactionSummary(String id, Optional<String> session, boolean committed, OptionalLong start, OptionalLong end,
        List<OperationRef> operations) {

    /** Validates and copies. */
    public TransactionSummary {
        Objects.requireNonNull(id, "id is null");
        Objects.requireNonNull(session, "session is null");
        Objects.requireNonNull(start, "start is null");
        Objects.requireNonNull(end, "end is null");
        operations = List.copyOf(operations);
    }

    /** The recorded times as {@code start..end}, with {@code ?} for a missing one; empty if neither. */
    public String times() {
        if (start.isEmpty() && end.isEmpty()) {
            return "";
        }
        return (start.isPresent() ? Long.toString(start.getAsLong()) : "?") + ".."
                + (end.isPresent() ? Long.toString(end.getAsLong()) : "?");
    }
}
