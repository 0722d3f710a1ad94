package dev.isocheck.explain;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * One edge of an anomaly cycle: why {@link #from()} must precede {@link #to()} (for an
 * anti-dependency: why {@code from} did not see {@code to}'s write), with the operations that
 * show it.
 *
 * @param from           the id of the transaction the edge leaves
 * @param to             the id of the transaction it enters
 * @param type           the kind of dependency
 * @param key            the key it concerns; none for session and real-time order
 * @param fromOperations the operations of {@code from} behind it (a write for {@code ww} and
 *                       {@code wr}, a read for {@code rw}); never {@code null} but potentially empty
 * @param toOperations   the operations of {@code to} behind it (a read for {@code wr}, a write for
 *                       {@code ww} and {@code rw}); never {@code null} but potentially empty
 * @param assumed        whether the edge holds only under the assumptions of its case (an order of
 *                       writes, or which write a read saw), rather than in every explanation
 * @param reason         the justification in words, naming keys and values
 * @param unreturnedRow  when the edge rests on a row a predicate read did not return (a
 *                       {@code wr} edge into that read, or a {@code predicate-rw} edge out of it):
 *                       the read, the key, what it saw and what it missed; else empty
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record Dependency(String from, String to, DependencyType type, Optional<String> key,
        List<OperationRef> fromOperations, List<OperationRef> toOperations, boolean assumed, String reason,
        Optional<UnreturnedRow> unreturnedRow) {

    /** Validates and copies. */
    public Dependency {
        Objects.requireNonNull(from, "from is null");
        Objects.requireNonNull(to, "to is null");
        Objects.requireNonNull(type, "type is null");
        Objects.requireNonNull(key, "key is null");
        fromOperations = List.copyOf(fromOperations);
        toOperations = List.copyOf(toOperations);
        Objects.requireNonNull(reason, "reason is null");
        Objects.requireNonNull(unreturnedRow, "unreturnedRow is null");
    }

    /** An edge that rests on no row a predicate read left out: the constructor before {@link #unreturnedRow()}. */
    public Dependency(String from, String to, DependencyType type, Optional<String> key, List<OperationRef> fromOperations,
            List<OperationRef> toOperations, boolean assumed, String reason) {
        this(from, to, type, key, fromOperations, toOperations, assumed, reason, Optional.empty());
    }

    /** The edge as in diagrams: {@code T1 -rw x-> T2}. */
    public String arrow() {
        return from + " -" + type.shortName() + key.map(k -> " " + k).orElse("") + "-> " + to;
    }

    @Override
    public String toString() {
        return arrow() + ": " + reason;
    }
}
