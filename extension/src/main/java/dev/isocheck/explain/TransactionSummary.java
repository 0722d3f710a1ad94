package dev.isocheck.explain;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.isocheck.history.SqlStatement;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.apiguardian.api.API;

/**
 * A transaction as reports show it next to a cycle: its session, times and operations, and for a
 * recorded transaction its thread and the SQL statements behind the operations, so that a reader
 * needs nothing but the report.
 *
 * @param id         the transaction's id
 * @param session    the session's name; none when the transaction was recorded without one
 * @param committed  whether it committed
 * @param start      when it started, if recorded
 * @param end        when its end was acknowledged, if recorded
 * @param operations its operations in program order
 * @param thread     the thread that ran it, if recorded
 * @param statements the statements the application sent in it, in order (each operation's
 *                   {@link OperationRef#statement()} is an index into them); never {@code null}
 *                   but potentially empty
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record TransactionSummary(String id, Optional<String> session, boolean committed, OptionalLong start, OptionalLong end,
        List<OperationRef> operations, Optional<String> thread, List<SqlStatement> statements) {

    /** Validates and copies. */
    public TransactionSummary {
        Objects.requireNonNull(id, "id is null");
        Objects.requireNonNull(session, "session is null");
        Objects.requireNonNull(start, "start is null");
        Objects.requireNonNull(end, "end is null");
        operations = List.copyOf(operations);
        Objects.requireNonNull(thread, "thread is null");
        statements = List.copyOf(statements);
    }

    /** A transaction recorded without provenance: no thread, no statements. */
    public TransactionSummary(String id, Optional<String> session, boolean committed, OptionalLong start, OptionalLong end,
            List<OperationRef> operations) {
        this(id, session, committed, start, end, operations, Optional.empty(), List.of());
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
