package dev.isocheck.explain;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.isocheck.history.OpKind;
import dev.isocheck.history.Value;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import org.apiguardian.api.API;

/**
 * One operation of the history that an explanation points at: which transaction, which operation
 * (counted from 0 in program order), and for a predicate read the row it returned.
 *
 * @param transaction the transaction's id
 * @param index       the operation's position in the transaction, from 0
 * @param row         the returned row of a predicate read, from 0, or {@code -1}
 * @param kind        read, write, or predicate read
 * @param key         the key read or written (for a predicate read, the row's key, or none for the
 *                    read as a whole)
 * @param value       the value read or written, or none for a predicate read as a whole
 * @param text        the operation in words, e.g. {@code read x = 0}
 * @param statement   the index of the statement that did it among its transaction's
 *                    {@link TransactionSummary#statements()}, if known
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record OperationRef(String transaction, int index, int row, OpKind kind, Optional<String> key,
        Optional<Value> value, String text, OptionalInt statement) {

    /** Validates. */
    public OperationRef {
        Objects.requireNonNull(transaction, "transaction is null");
        Objects.requireNonNull(kind, "kind is null");
        Objects.requireNonNull(key, "key is null");
        Objects.requireNonNull(value, "value is null");
        Objects.requireNonNull(text, "text is null");
        Objects.requireNonNull(statement, "statement is null");
    }

    /** An operation whose statement is not known. */
    public OperationRef(String transaction, int index, int row, OpKind kind, Optional<String> key, Optional<Value> value,
            String text) {
        this(transaction, index, row, kind, key, value, text, OptionalInt.empty());
    }

    @Override
    public String toString() {
        return transaction + "[" + index + (row >= 0 ? "." + row : "") + "] " + text;
    }
}
