package dev.isocheck.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.apiguardian.api.API;

/**
 * One transaction: its id, session, outcome, optional start and end times, and its operations in
 * program order.
 *
 * <p>Operations are stored column-wise ({@link #kind(int)}, {@link #key(int)}, {@link #value(int)})
 * so that a history of millions of operations stays compact; keys and values are ids in the
 * history's {@link KeyTable} and {@link ValueTable}. For a {@link OpKind#PREDICATE} operation
 * {@link #key(int)} is {@code -1} and {@link #predicate(int)} holds the read.
 *
 * <p>A recorded transaction also says where it came from: the {@link #thread()} that ran it and
 * the {@link #statements()} the application sent, each operation pointing at the statement that
 * produced it ({@link #statementOf(int)}). Checking ignores both; explanations show them.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class Transaction {

    /** The value of {@link #startTime()} and {@link #endTime()} when no time was recorded. */
    public static final long NO_TIME = Long.MIN_VALUE;

    private static final OpKind[] KINDS = OpKind.values();

    private final int index;
    private final String id;
    private final boolean numericId;
    private final int session;
    private final Status status;
    private final long start;
    private final long end;
    private final byte[] kinds;
    private final int[] keys;
    private final int[] values;
    private final PredicateRead[] predicates;
    private final Origin origin;
    private final KeyTable keyTable;
    private final ValueTable valueTable;

    Transaction(int index, String id, boolean numericId, int session, Status status, long start, long end,
            byte[] kinds, int[] keys, int[] values, PredicateRead[] predicates, Origin origin, KeyTable keyTable,
            ValueTable valueTable) {
        this.index = index;
        this.id = id;
        this.numericId = numericId;
        this.session = session;
        this.status = status;
        this.start = start;
        this.end = end;
        this.kinds = kinds;
        this.keys = keys;
        this.values = values;
        this.predicates = predicates;
        this.origin = origin;
        this.keyTable = keyTable;
        this.valueTable = valueTable;
    }

    /** The dense index of this transaction in its history (file order). */
    public int index() {
        return index;
    }

    /** The transaction's id as recorded. */
    public String id() {
        return id;
    }

    /** Whether the id was recorded as an integer (so that writers can give it back as one). */
    public boolean hasNumericId() {
        return numericId;
    }

    /** The index of the transaction's session in {@link History#sessions()}. */
    public int session() {
        return session;
    }

    /** How the transaction ended. */
    public Status status() {
        return status;
    }

    /** Whether the transaction committed. */
    public boolean isCommitted() {
        return status == Status.COMMITTED;
    }

    /** When the transaction's first operation was sent, or empty. */
    public OptionalLong start() {
        return start == NO_TIME ? OptionalLong.empty() : OptionalLong.of(start);
    }

    /** When the transaction's commit or abort was acknowledged, or empty. */
    public OptionalLong end() {
        return end == NO_TIME ? OptionalLong.empty() : OptionalLong.of(end);
    }

    /** The start time, or {@link #NO_TIME}; for loops that must not allocate. */
    public long startTime() {
        return start;
    }

    /** The end time, or {@link #NO_TIME}; for loops that must not allocate. */
    public long endTime() {
        return end;
    }

    /** How many operations the transaction performed. */
    public int size() {
        return kinds.length;
    }

    /** The kind of the {@code i}-th operation. */
    public OpKind kind(int i) {
        return KINDS[kinds[i]];
    }

    /** The key id of the {@code i}-th operation, {@code -1} for a predicate read. */
    public int key(int i) {
        return keys[i];
    }

    /** The value id read or written by the {@code i}-th operation; meaningless for a predicate read. */
    public int value(int i) {
        return values[i];
    }

    /**
     * The predicate read at operation {@code i}.
     *
     * @throws IllegalArgumentException if operation {@code i} is not a predicate read
     */
    public PredicateRead predicate(int i) {
        if (kinds[i] != OpKind.PREDICATE.ordinal()) {
            throw new IllegalArgumentException("operation " + i + " of " + id + " is a " + kind(i) + ", not a predicate read");
        }
        return predicates[values[i]];
    }

    /** The thread that ran the transaction, when recorded. */
    public Optional<String> thread() {
        return Optional.ofNullable(origin.thread);
    }

    /**
     * The statements the application sent in this transaction, in order.
     *
     * @return never {@code null}; empty when the history does not record statements
     */
    public List<SqlStatement> statements() {
        return origin.statements;
    }

    /** The index in {@link #statements()} of the statement that produced operation {@code i}, if known. */
    public OptionalInt statementOf(int i) {
        int statement = origin.statementOf.length == 0 ? -1 : origin.statementOf[i];
        return statement < 0 ? OptionalInt.empty() : OptionalInt.of(statement);
    }

    /** Whether the transaction has any predicate read. */
    public boolean hasPredicateReads() {
        return predicates.length > 0;
    }

    /**
     * Whether operation {@code i}, a write, is the transaction's last write of its key: the one a
     * commit installs.
     */
    public boolean isFinalWrite(int i) {
        if (kinds[i] != OpKind.WRITE.ordinal()) {
            return false;
        }
        for (int j = i + 1; j < kinds.length; j++) {
            if (kinds[j] == OpKind.WRITE.ordinal() && keys[j] == keys[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * The value id of this transaction's last write of {@code key}: the one a commit installs.
     *
     * @throws IllegalStateException if the transaction never writes {@code key}
     */
    public int finalValue(int key) {
        for (int i = kinds.length - 1; i >= 0; i--) {
            if (kinds[i] == OpKind.WRITE.ordinal() && keys[i] == key) {
                return values[i];
            }
        }
        throw new IllegalStateException(id + " never writes key " + key);
    }

    /**
     * Whether the read at operation {@code i} is external: no earlier operation of this
     * transaction read or wrote the same key, so the database, not the transaction itself,
     * supplied the value.
     */
    public boolean isExternalRead(int i) {
        int key = keys[i];
        for (int j = 0; j < i; j++) {
            if (keys[j] == key && kinds[j] != OpKind.PREDICATE.ordinal()) {
                return false;
            }
        }
        return true;
    }

    /** Whether the transaction writes nothing (it only reads, or does nothing). */
    public boolean isReadOnly() {
        for (byte kind : kinds) {
            if (kind == OpKind.WRITE.ordinal()) {
                return false;
            }
        }
        return true;
    }

    /** Whether the transaction writes {@code key} at all. */
    public boolean writes(int key) {
        for (int j = 0; j < kinds.length; j++) {
            if (kinds[j] == OpKind.WRITE.ordinal() && keys[j] == key) {
                return true;
            }
        }
        return false;
    }

    /**
     * This transaction as transaction {@code newIndex} of session {@code newSession} of a restricted
     * history, with the operations {@code filter} keeps ({@link History#restrictedTo}).
     */
    Transaction restricted(int newIndex, int newSession, History.OperationFilter filter) {
        return restricted(newIndex, newSession, filter, id);
    }

    /** As {@link #restricted(int, int, History.OperationFilter)}, under the id {@code newId}. */
    Transaction restricted(int newIndex, int newSession, History.OperationFilter filter, String newId) {
        int n = 0;
        boolean[] keep = new boolean[kinds.length];
        for (int i = 0; i < kinds.length; i++) {
            keep[i] = filter.keeps(this, i);
            n += keep[i] ? 1 : 0;
        }
        byte[] newKinds = new byte[n];
        int[] newKeys = new int[n];
        int[] newValues = new int[n];
        int[] newStatementOf = origin.statementOf.length == 0 ? origin.statementOf : new int[n];
        java.util.List<PredicateRead> newPredicates = new java.util.ArrayList<>();
        for (int i = 0, j = 0; i < kinds.length; i++) {
            if (!keep[i]) {
                continue;
            }
            newKinds[j] = kinds[i];
            newKeys[j] = keys[i];
            newValues[j] = values[i];
            if (newStatementOf.length > 0) {
                newStatementOf[j] = origin.statementOf[i];
            }
            if (kinds[i] == OpKind.PREDICATE.ordinal()) {
                // A predicate operation's value is its index among the transaction's predicate reads.
                newValues[j] = newPredicates.size();
                newPredicates.add(predicates[values[i]]);
            }
            j++;
        }
        return new Transaction(newIndex, newId, newId.equals(id) && numericId, newSession, status, start, end, newKinds,
                newKeys, newValues,
                newPredicates.toArray(PredicateRead[]::new), new Origin(origin.thread, origin.statements, newStatementOf),
                keyTable, valueTable);
    }

    /** This transaction without its start and end times. */
    Transaction withoutTimes() {
        return new Transaction(index, id, numericId, session, status, NO_TIME, NO_TIME, kinds, keys, values, predicates, origin,
                keyTable, valueTable);
    }

    /** A one-line description of operation {@code i}, such as {@code w(x, 2)} or {@code r(y, null)}. */
    public String describe(int i) {
        return switch (kind(i)) {
            case READ -> "r(" + keyTable.name(keys[i]) + ", " + valueTable.get(values[i]) + ")";
            case WRITE -> "w(" + keyTable.name(keys[i]) + ", " + valueTable.get(values[i]) + ")";
            case PREDICATE -> predicates[values[i]].toString();
        };
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder(id).append(status == Status.ABORTED ? " (aborted)" : "").append(": ");
        for (int i = 0; i < kinds.length; i++) {
            out.append(i == 0 ? "" : " ").append(describe(i));
        }
        return out.toString();
    }

    /**
     * Where a transaction came from: its thread (or {@code null}), its statements, and for each
     * operation the index of its statement ({@code -1} for none; an empty array when no operation
     * has one).
     */
    record Origin(String thread, List<SqlStatement> statements, int[] statementOf) {

        static final Origin NONE = new Origin(null, List.of(), new int[0]);
    }
}
