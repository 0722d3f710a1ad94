package dev.isocheck.internal.engine;

import dev.isocheck.IsolationLevel;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.InitialState;
import dev.isocheck.history.KeyTable;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.PredicateRead;
import dev.isocheck.history.Session;
import dev.isocheck.history.Transaction;
import dev.isocheck.history.Value;
import dev.isocheck.history.ValueTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A history split into <em>independent parts</em>: groups of transactions that share no key and no
 * session with any other group, each rebuilt as a {@link History} of its own (same transaction
 * ids, sessions, times, and the initial values of its keys), so that each can be checked alone.
 *
 * <p>The groups are the connected components of the relation "transaction touches key" (a key it
 * reads, writes, or that a predicate read returned) together with "transaction belongs to
 * session". Aborted transactions stay with the keys they touch and their session: their writes
 * decide which observations an unknown initial value can explain ({@code docs/semantics.md}).
 *
 * <p><b>Why the parts decide the whole, at serializability and snapshot isolation.</b> Every
 * constraint of these levels is local to a key or a session: session order joins transactions of
 * one session, and a read is explained by the writes and the initial value of its own key (the
 * writes and observations that decide what an unknown initial value can be are those of the key).
 * The initial state (T⊥) is shared, but only as a source: it precedes everything and installs a
 * value per key, which each part keeps for its own keys. So an order of the whole restricted to a
 * part is valid for the part, and valid orders of the parts concatenated, part after part, are
 * valid for the whole: a transaction's keys are written only by its own part, whose transactions
 * keep their relative order. For snapshot isolation the same holds of commit orders, a snapshot
 * being extended by every transaction of the earlier parts (they write none of its keys and
 * conflict with none of its writes).
 *
 * <p><b>Not decomposed.</b>
 * <ul>
 *   <li>Strict serializability: real-time order relates transactions of different parts, so a
 *       concatenation of the parts' orders would in general break it, and the parts' orders would
 *       have to be interleaved by real time instead. That merge is not built.</li>
 *   <li>Histories where a committed transaction reads by predicate: a predicate read ranges over
 *       every key of its table that appears anywhere in the history, so the keys it did not
 *       return tie it to transactions it shares no key with.</li>
 * </ul>
 * Then (and when everything is connected) there is a single part, the history itself, at no cost
 * beyond one pass over the operations.
 *
 * <p><b>Bundling.</b> Histories often split into many tiny components (a transaction per key, say).
 * Consecutive components, in the order of their first transaction, are bundled into one part until
 * it holds {@link #DEFAULT_BUNDLE_OPERATIONS} operations: the bundle shares nothing with the other
 * parts either, and one history of a thousand transactions is cheaper to build and check than a
 * thousand histories of one. And when one part would hold nearly the whole history, splitting
 * off the rest would gain less than rebuilding that part costs, so the history is left whole.
 */
public final class Decomposition {

    /** Components are bundled into parts of at least this many operations (see the class comment). */
    public static final int DEFAULT_BUNDLE_OPERATIONS = 2_000;

    /**
     * When the largest part would hold more than this share of the operations, the history is left
     * whole: rebuilding that part costs about what its check would save by running the rest beside it.
     */
    private static final double LARGEST_PART_SHARE = 0.9;

    private final History whole;
    private final List<History> parts;
    private final int components;

    private Decomposition(History whole, List<History> parts, int components) {
        this.whole = whole;
        this.parts = Collections.unmodifiableList(parts);
        this.components = components;
    }

    /**
     * Whether histories are decomposed at {@code level}: serializability and snapshot isolation,
     * not strict serializability (see the class comment).
     */
    public static boolean allows(IsolationLevel level) {
        return level == IsolationLevel.SERIALIZABLE || level == IsolationLevel.SNAPSHOT_ISOLATION;
    }

    /** Splits {@code history} for a check at {@code level}, bundling tiny components. */
    public static Decomposition of(History history, IsolationLevel level) {
        return of(history, level, DEFAULT_BUNDLE_OPERATIONS);
    }

    /**
     * Splits {@code history} for a check at {@code level}, bundling consecutive components into parts
     * of at least {@code bundleOperations} operations; {@code 0} or {@code 1} gives one part per
     * component, and keeps even a part that holds nearly the whole history apart (for tests).
     *
     * @throws IllegalArgumentException if {@code bundleOperations} is negative
     */
    public static Decomposition of(History history, IsolationLevel level, int bundleOperations) {
        Objects.requireNonNull(history, "history is null");
        Objects.requireNonNull(level, "level is null");
        if (bundleOperations < 0) {
            throw new IllegalArgumentException("bundleOperations must not be negative: " + bundleOperations);
        }
        int n = history.size();
        if (n < 2 || !allows(level) || history.hasCommittedPredicateReads()) {
            return new Decomposition(history, List.of(history), n == 0 ? 0 : 1);
        }
        int[] component = components(history);
        int componentCount = 0;
        for (int c : component) {
            componentCount = Math.max(componentCount, c + 1);
        }
        if (componentCount < 2) {
            return new Decomposition(history, List.of(history), 1);
        }
        // Bundle consecutive components; components are numbered by their first transaction.
        long[] operations = new long[componentCount];
        for (int t = 0; t < n; t++) {
            operations[component[t]] += history.transaction(t).size();
        }
        int[] partOfComponent = new int[componentCount];
        int partCount = 0;
        long filling = 0;
        long largest = 0;
        for (int c = 0; c < componentCount; c++) {
            if (c > 0 && (bundleOperations <= 1 || filling >= bundleOperations)) {
                partCount++;
                filling = 0;
            }
            partOfComponent[c] = partCount;
            filling += operations[c];
            largest = Math.max(largest, filling);
        }
        partCount++;
        long total = history.operationCount();
        if (partCount < 2 || (bundleOperations > 1 && largest > LARGEST_PART_SHARE * total)) {
            return new Decomposition(history, List.of(history), componentCount);
        }
        int[] partOf = new int[n];
        for (int t = 0; t < n; t++) {
            partOf[t] = partOfComponent[component[t]];
        }
        return new Decomposition(history, rebuild(history, partOf, partCount), componentCount);
    }

    /** The history decomposed. */
    public History whole() {
        return whole;
    }

    /**
     * The parts, in the order of their first transaction in the whole; the whole itself when it
     * was not decomposed.
     *
     * @return never empty; unmodifiable
     */
    public List<History> parts() {
        return parts;
    }

    /** Whether the history was split into two or more parts. */
    public boolean isSplit() {
        return parts.size() > 1;
    }

    /**
     * How many connected components the history has (before bundling); {@code 1} when it was not
     * looked at (a level or predicate reads that forbid decomposing), {@code 0} for an empty history.
     */
    public int componentCount() {
        return components;
    }

    /**
     * The component of each transaction, numbered densely in the order of the components' first
     * transactions: union–find over transactions, joining each transaction with the first one to
     * touch each of its keys and with its session predecessor. Linear in the operations.
     */
    private static int[] components(History history) {
        int n = history.size();
        int[] parent = new int[n];
        for (int t = 0; t < n; t++) {
            parent[t] = t;
        }
        int[] firstToucher = new int[history.keys().size()];
        Arrays.fill(firstToucher, -1);
        for (int t = 0; t < n; t++) {
            Transaction tx = history.transaction(t);
            for (int i = 0; i < tx.size(); i++) {
                if (tx.kind(i) == OpKind.PREDICATE) {
                    // Only aborted transactions get here (committed predicate reads forbid splitting):
                    // the keys of their rows are keys of the history all the same.
                    PredicateRead read = tx.predicate(i);
                    for (int r = 0; r < read.rowCount(); r++) {
                        touch(parent, firstToucher, read.rowKey(r), t);
                    }
                } else {
                    touch(parent, firstToucher, tx.key(i), t);
                }
            }
        }
        for (Session session : history.sessions()) {
            for (int i = 1; i < session.size(); i++) {
                union(parent, session.transaction(i - 1), session.transaction(i));
            }
        }
        int[] number = new int[n];
        Arrays.fill(number, -1);
        int[] component = new int[n];
        int next = 0;
        for (int t = 0; t < n; t++) {
            int root = find(parent, t);
            if (number[root] < 0) {
                number[root] = next++;
            }
            component[t] = number[root];
        }
        return component;
    }

    private static void touch(int[] parent, int[] firstToucher, int key, int t) {
        if (firstToucher[key] < 0) {
            firstToucher[key] = t;
        } else {
            union(parent, firstToucher[key], t);
        }
    }

    private static int find(int[] parent, int x) {
        while (parent[x] != x) {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        return x;
    }

    private static void union(int[] parent, int a, int b) {
        int ra = find(parent, a);
        int rb = find(parent, b);
        if (ra != rb) {
            // The smaller index becomes the root; any choice is correct, this one is deterministic.
            if (ra < rb) {
                parent[rb] = ra;
            } else {
                parent[ra] = rb;
            }
        }
    }

    /**
     * One history per part through the public {@link HistoryBuilder}: transactions in the whole's
     * order (so each session keeps its order), with their ids, sessions, outcomes, times and
     * operations, and the initial state of the part's keys (with what an unknown one may be).
     */
    private static List<History> rebuild(History history, int[] partOf, int partCount) {
        KeyTable keys = history.keys();
        ValueTable values = history.values();
        InitialState initial = history.initialState();
        HistoryBuilder[] builders = new HistoryBuilder[partCount];
        for (int p = 0; p < partCount; p++) {
            builders[p] = History.builder().initialStateComplete(initial.isComplete())
                    .unknownInitialValues(initial.unknownValues());
        }
        int[] keyPart = new int[keys.size()];
        Arrays.fill(keyPart, -1);
        for (int t = 0; t < history.size(); t++) {
            Transaction tx = history.transaction(t);
            int p = partOf[t];
            HistoryBuilder.TransactionBuilder b = builders[p].transaction(
                    tx.hasNumericId() ? (Object) Long.parseLong(tx.id()) : tx.id());
            Session session = history.sessionOf(tx);
            if (!session.isImplicit()) {
                b.session(session.name());
            }
            b.status(tx.status());
            long start = tx.startTime();
            long end = tx.endTime();
            if (start != Transaction.NO_TIME && end != Transaction.NO_TIME) {
                b.times(start, end);
            } else if (start != Transaction.NO_TIME) {
                b.start(start);
            } else if (end != Transaction.NO_TIME) {
                b.end(end);
            }
            for (int i = 0; i < tx.size(); i++) {
                switch (tx.kind(i)) {
                    case READ -> {
                        b.read(keys.name(tx.key(i)), values.get(tx.value(i)));
                        keyPart[tx.key(i)] = p;
                    }
                    case WRITE -> {
                        b.write(keys.name(tx.key(i)), values.get(tx.value(i)));
                        keyPart[tx.key(i)] = p;
                    }
                    case PREDICATE -> {
                        PredicateRead read = tx.predicate(i);
                        Map<String, Value> rows = new LinkedHashMap<>();
                        for (int r = 0; r < read.rowCount(); r++) {
                            rows.put(keys.name(read.rowKey(r)), values.get(read.rowValue(r)));
                            keyPart[read.rowKey(r)] = p;
                        }
                        b.predicate(read.table(), read.where(), rows);
                    }
                }
            }
        }
        // A key belongs to one part; keys no transaction touches matter to no part.
        for (int k = 0; k < keys.size(); k++) {
            // In a complete initial state an unlisted key is absent already.
            if (keyPart[k] >= 0 && initial.isKnown(k) && !(initial.isComplete() && initial.valueOf(k) == ValueTable.ABSENT)) {
                builders[keyPart[k]].initialValue(keys.name(k), values.get(initial.valueOf(k)));
            }
        }
        List<History> parts = new ArrayList<>(partCount);
        for (HistoryBuilder builder : builders) {
            parts.add(builder.build());
        }
        return parts;
    }
}
