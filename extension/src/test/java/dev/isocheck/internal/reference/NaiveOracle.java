package dev.isocheck.internal.reference;

import dev.isocheck.IsolationLevel;
import dev.isocheck.history.History;
import dev.isocheck.history.InitialState;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.PredicateRead;
import dev.isocheck.history.Session;
import dev.isocheck.history.Transaction;
import dev.isocheck.history.UnknownInitialValues;
import dev.isocheck.history.Value;
import dev.isocheck.internal.predicate.ParsedWhere;
import dev.isocheck.internal.predicate.WherePredicate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A second, deliberately naive oracle for serializability, strict serializability and snapshot
 * isolation, written from {@code docs/semantics.md} without looking at how
 * {@link ReferenceChecker} is built, so that the two can be tested against each other.
 *
 * <p>{@link ReferenceChecker} is what every fast engine is differentially tested against; a bug in
 * it would be copied into every engine's expectations. This class answers the same question with a
 * different structure, so that a mistake in one is unlikely to be repeated in the other:
 * <ul>
 *   <li>It enumerates <em>every</em> permutation of the committed transactions (and, for snapshot
 *       isolation, every assignment of snapshot lengths) up front and only then throws away the
 *       candidates that break session order, real time or first-committer-wins. The reference
 *       instead places transactions one by one and backtracks.</li>
 *   <li>Each candidate is replayed from scratch on a {@code Map} from key <em>name</em> to
 *       materialised {@link Value}; the reference works on interned ids in arrays.</li>
 *   <li>Reads of a key's unknown initial value are not decided while replaying: the replay only
 *       writes down obligations (every observation of that value, every predicate read that did not
 *       return the key), and the obligations of the whole candidate are validated at the end. The
 *       reference merges what it learns incrementally and checks as it goes.</li>
 * </ul>
 * It shares with the reference only the model, {@link Value#isConsistentWith} and the
 * {@code where} evaluator ({@link WherePredicate}), which have their own tests.
 *
 * <p>Exponential on purpose: it refuses histories of more than {@value #MAX_SERIAL_COMMITTED}
 * committed transactions for the serial levels and {@value #MAX_SNAPSHOT_COMMITTED} for snapshot
 * isolation.
 */
final class NaiveOracle {

    /** The most committed transactions for serializable and strict serializable: 8! orders. */
    static final int MAX_SERIAL_COMMITTED = 8;

    /** The most committed transactions for snapshot isolation: 5! orders times 5! snapshot choices. */
    static final int MAX_SNAPSHOT_COMMITTED = 5;

    private NaiveOracle() {
    }

    /**
     * Whether {@code history} satisfies {@code level} by the definitions of {@code docs/semantics.md}.
     *
     * @throws IllegalArgumentException if the history has too many committed transactions for
     *     this oracle at this level
     */
    static boolean satisfies(History history, IsolationLevel level) {
        int limit = level == IsolationLevel.SNAPSHOT_ISOLATION ? MAX_SNAPSHOT_COMMITTED : MAX_SERIAL_COMMITTED;
        if (history.committedCount() > limit) {
            throw new IllegalArgumentException("the naive oracle decides " + level + " for at most " + limit
                    + " committed transactions, not " + history.committedCount());
        }
        Model model = new Model(history);
        if (level == IsolationLevel.SNAPSHOT_ISOLATION) {
            return model.snapshotIsolation();
        }
        return model.serial(level == IsolationLevel.STRICT_SERIALIZABLE);
    }

    /** One operation of a committed transaction, with key names and values materialised. */
    private static final class Step {
        final OpKind kind;
        final String key;
        final Value value;
        final String table;
        /** The compiled clause, or {@code null} when the evaluator does not support it. */
        final WherePredicate where;
        final Map<String, Value> returned;

        Step(OpKind kind, String key, Value value, String table, WherePredicate where, Map<String, Value> returned) {
            this.kind = kind;
            this.key = key;
            this.value = value;
            this.table = table;
            this.where = where;
            this.returned = returned;
        }
    }

    /** A committed transaction as the oracle sees it. */
    private static final class Txn {
        final String id;
        final long start;
        final long end;
        final List<Step> steps = new ArrayList<>();
        /** Per key written, the last value written: what committing installs. */
        final Map<String, Value> installs = new LinkedHashMap<>();

        Txn(Transaction t) {
            this.id = t.id();
            this.start = t.startTime();
            this.end = t.endTime();
        }
    }

    /**
     * What the reads of one candidate say about unknown initial values, validated only once the
     * whole candidate has been replayed.
     */
    private static final class Obligations {
        /** Per key, every value observed where the key still held its unknown initial value. */
        final Map<String, List<Value>> observed = new TreeMap<>();
        /** Per key, every predicate that did not return it while it held its unknown initial value. */
        final Map<String, List<WherePredicate>> notReturnedBy = new TreeMap<>();
    }

    /** The history, materialised by name, and the search over candidates. */
    private static final class Model {

        private final List<Txn> txns = new ArrayList<>();
        private final List<String> allKeys = new ArrayList<>();
        /** Keys whose initial value is known (possibly absent); the others are missing from the map. */
        private final Map<String, Value> initial = new HashMap<>();
        /** Per key, every value written to it by any transaction, aborted ones included. */
        private final Map<String, List<Value>> everWritten = new HashMap<>();
        /** Whether an unknown initial value may be any value ({@code "unknown": "any"}), even a written one. */
        private final boolean initialMayBeAny;
        /** {@code sessionBefore[a][b]}: a before b in session order (committed transactions only). */
        private final boolean[][] sessionBefore;
        /** {@code realTimeBefore[a][b]}: {@code end(a) < start(b)}, both recorded. */
        private final boolean[][] realTimeBefore;
        /** {@code writeConflict[a][b]}: a and b write some common key. */
        private final boolean[][] writeConflict;

        Model(History history) {
            initialMayBeAny = history.initialState().unknownValues() == UnknownInitialValues.ANY;
            for (int k = 0; k < history.keys().size(); k++) {
                String name = history.keys().name(k);
                allKeys.add(name);
                int v = history.initialState().valueOf(k);
                if (v != InitialState.UNKNOWN) {
                    initial.put(name, history.values().get(v));
                }
            }
            Map<Integer, Integer> number = new HashMap<>();
            for (Transaction t : history.transactions()) {
                for (int i = 0; i < t.size(); i++) {
                    if (t.kind(i) == OpKind.WRITE) {
                        everWritten.computeIfAbsent(history.keys().name(t.key(i)), k -> new ArrayList<>())
                                .add(history.values().get(t.value(i)));
                    }
                }
                if (t.isCommitted()) {
                    number.put(t.index(), txns.size());
                    txns.add(materialise(history, t));
                }
            }
            int n = txns.size();
            sessionBefore = new boolean[n][n];
            for (Session session : history.sessions()) {
                List<Integer> committedInOrder = new ArrayList<>();
                for (int s = 0; s < session.size(); s++) {
                    Integer c = number.get(session.transaction(s));
                    if (c != null) {
                        committedInOrder.add(c);
                    }
                }
                for (int i = 0; i < committedInOrder.size(); i++) {
                    for (int j = i + 1; j < committedInOrder.size(); j++) {
                        sessionBefore[committedInOrder.get(i)][committedInOrder.get(j)] = true;
                    }
                }
            }
            realTimeBefore = new boolean[n][n];
            writeConflict = new boolean[n][n];
            for (int a = 0; a < n; a++) {
                for (int b = 0; b < n; b++) {
                    Txn ta = txns.get(a);
                    Txn tb = txns.get(b);
                    realTimeBefore[a][b] = ta.end != Transaction.NO_TIME && tb.start != Transaction.NO_TIME
                            && ta.end < tb.start;
                    if (a != b) {
                        for (String key : ta.installs.keySet()) {
                            writeConflict[a][b] |= tb.installs.containsKey(key);
                        }
                    }
                }
            }
        }

        private static Txn materialise(History history, Transaction t) {
            Txn txn = new Txn(t);
            for (int i = 0; i < t.size(); i++) {
                OpKind kind = t.kind(i);
                if (kind == OpKind.PREDICATE) {
                    PredicateRead read = t.predicate(i);
                    ParsedWhere parsed = WherePredicate.parse(read.where());
                    Map<String, Value> returned = new LinkedHashMap<>();
                    for (Map.Entry<String, Value> row : read.rows()) {
                        returned.put(row.getKey(), row.getValue());
                    }
                    txn.steps.add(new Step(kind, null, null, read.table(),
                            parsed instanceof WherePredicate supported ? supported : null, returned));
                } else {
                    String key = history.keys().name(t.key(i));
                    Value value = history.values().get(t.value(i));
                    txn.steps.add(new Step(kind, key, value, null, null, null));
                    if (kind == OpKind.WRITE) {
                        txn.installs.put(key, value);
                    }
                }
            }
            return txn;
        }

        /** Serializable (or strict): some permutation that respects the orders replays everything. */
        boolean serial(boolean strict) {
            int n = txns.size();
            for (int[] order : allPermutations(n)) {
                if (!respects(order, sessionBefore) || (strict && !respects(order, realTimeBefore))) {
                    continue;
                }
                Obligations obligations = new Obligations();
                Map<String, Value> state = new HashMap<>(initial);
                boolean replayed = true;
                for (int p = 0; p < n && replayed; p++) {
                    Txn t = txns.get(order[p]);
                    replayed = replay(t, state, obligations);
                    state.putAll(t.installs);
                }
                if (replayed && validate(obligations)) {
                    return true;
                }
            }
            return false;
        }

        /**
         * Snapshot isolation: some commit order and some snapshot (a prefix length {@code 0..i} for
         * the transaction at position {@code i}) such that snapshots hold session predecessors,
         * first-committer-wins holds, and each transaction's reads are served by its snapshot.
         */
        boolean snapshotIsolation() {
            int n = txns.size();
            List<int[]> snapshotChoices = allSnapshotLengths(n);
            for (int[] order : allPermutations(n)) {
                List<Map<String, Value>> prefixStates = new ArrayList<>();
                Map<String, Value> state = new HashMap<>(initial);
                prefixStates.add(new HashMap<>(state));
                for (int p = 0; p < n; p++) {
                    state.putAll(txns.get(order[p]).installs);
                    prefixStates.add(new HashMap<>(state));
                }
                for (int[] snapshot : snapshotChoices) {
                    if (!snapshotsAllowed(order, snapshot)) {
                        continue;
                    }
                    Obligations obligations = new Obligations();
                    boolean replayed = true;
                    for (int p = 0; p < n && replayed; p++) {
                        replayed = replay(txns.get(order[p]), prefixStates.get(snapshot[p]), obligations);
                    }
                    if (replayed && validate(obligations)) {
                        return true;
                    }
                }
            }
            return false;
        }

        /** Session predecessors are in the snapshot; an earlier-committed writer of a common key too. */
        private boolean snapshotsAllowed(int[] order, int[] snapshot) {
            for (int pb = 0; pb < order.length; pb++) {
                for (int pa = 0; pa < order.length; pa++) {
                    int a = order[pa];
                    int b = order[pb];
                    boolean inSnapshot = pa < snapshot[pb];
                    if (sessionBefore[a][b] && !inSnapshot) {
                        return false;
                    }
                    if (pa < pb && writeConflict[a][b] && !inSnapshot) {
                        return false;
                    }
                }
            }
            return true;
        }

        /** Whether {@code order} puts a before b for every pair {@code before[a][b]}. */
        private static boolean respects(int[] order, boolean[][] before) {
            for (int i = 0; i < order.length; i++) {
                for (int j = i + 1; j < order.length; j++) {
                    if (before[order[j]][order[i]]) {
                        return false;
                    }
                }
            }
            return true;
        }

        /**
         * Runs {@code t} on {@code snapshot} (not modified) plus its own writes. Reads of a known
         * value are decided here; reads of an unknown initial value become obligations.
         */
        private boolean replay(Txn t, Map<String, Value> snapshot, Obligations obligations) {
            Map<String, Value> own = new HashMap<>();
            for (Step step : t.steps) {
                if (step.kind == OpKind.WRITE) {
                    own.put(step.key, step.value);
                } else if (step.kind == OpKind.READ) {
                    if (!read(step.key, step.value, own, snapshot, obligations)) {
                        return false;
                    }
                } else if (!predicateRead(step, own, snapshot, obligations)) {
                    return false;
                }
            }
            return true;
        }

        /** The key's value for the reader, or {@code null} while it holds its unknown initial value. */
        private static Value current(String key, Map<String, Value> own, Map<String, Value> snapshot) {
            return own.containsKey(key) ? own.get(key) : snapshot.get(key);
        }

        private static boolean read(String key, Value observed, Map<String, Value> own, Map<String, Value> snapshot,
                Obligations obligations) {
            Value current = current(key, own, snapshot);
            if (current == null) {
                obligations.observed.computeIfAbsent(key, k -> new ArrayList<>()).add(observed);
                return true;
            }
            return observed.isConsistentWith(current);
        }

        private boolean predicateRead(Step step, Map<String, Value> own, Map<String, Value> snapshot,
                Obligations obligations) {
            for (Map.Entry<String, Value> row : step.returned.entrySet()) {
                if (!read(row.getKey(), row.getValue(), own, snapshot, obligations)) {
                    return false;
                }
                Value current = current(row.getKey(), own, snapshot);
                // Returned, so the row must be present and possibly selected (TRUE or INDETERMINATE).
                if (step.where != null && current != null && !step.where.evaluate(current).maybeTrue()) {
                    return false;
                }
            }
            if (step.where == null) {
                // Unmodelled: the rows not returned say nothing.
                return true;
            }
            String prefix = step.table + "/";
            for (String key : allKeys) {
                if (!key.startsWith(prefix) || step.returned.containsKey(key)) {
                    continue;
                }
                Value current = current(key, own, snapshot);
                if (current == null) {
                    obligations.notReturnedBy.computeIfAbsent(key, k -> new ArrayList<>()).add(step.where);
                } else if (step.where.evaluate(current).isTrue()) {
                    return false;
                }
            }
            return true;
        }

        /**
         * The rules of {@code docs/semantics.md} for unknown initial values, over everything the
         * candidate observed: a present non-row observation is consistent with no value anyone wrote
         * to the key (a row shows only the columns read, which the initial row may share), unless
         * the history says an unknown initial value may be any value; all observations are pairwise compatible; and a predicate that did not return the key
         * would not have been TRUE on what the observations show, when they show every field it names.
         */
        private boolean validate(Obligations obligations) {
            for (Map.Entry<String, List<Value>> entry : obligations.observed.entrySet()) {
                List<Value> seen = entry.getValue();
                List<Value> written = everWritten.getOrDefault(entry.getKey(), List.of());
                for (Value observation : seen) {
                    if (observation.isAbsent() || observation.isObject() || initialMayBeAny) {
                        continue;
                    }
                    for (Value w : written) {
                        if (observation.isConsistentWith(w)) {
                            return false;
                        }
                    }
                }
                for (int i = 0; i < seen.size(); i++) {
                    for (int j = i + 1; j < seen.size(); j++) {
                        if (!compatible(seen.get(i), seen.get(j))) {
                            return false;
                        }
                    }
                }
            }
            for (Map.Entry<String, List<WherePredicate>> entry : obligations.notReturnedBy.entrySet()) {
                List<Value> seen = obligations.observed.getOrDefault(entry.getKey(), List.of());
                if (seen.isEmpty() || seen.get(0).isAbsent() || !seen.get(0).isObject()) {
                    // Not known to be a present row: absent satisfies nothing, a non-object is indeterminate.
                    continue;
                }
                Map<String, Value> fields = new TreeMap<>();
                for (Value observation : seen) {
                    fields.putAll(observation.fields());
                }
                Value known = Value.of(fields);
                for (WherePredicate where : entry.getValue()) {
                    if (where.namesOnlyFieldsOf(known) && where.evaluate(known).isTrue()) {
                        return false;
                    }
                }
            }
            return true;
        }

        /** One value can be consistent with both: both absent, equal non-objects, or objects that agree on shared fields. */
        private static boolean compatible(Value a, Value b) {
            if (a.isObject() && b.isObject()) {
                for (Map.Entry<String, Value> field : a.fields().entrySet()) {
                    Value other = b.fields().get(field.getKey());
                    if (other != null && !other.equals(field.getValue())) {
                        return false;
                    }
                }
                return true;
            }
            return a.equals(b);
        }

        /** Every permutation of {@code 0..n-1}, in lexicographic order. */
        private static List<int[]> allPermutations(int n) {
            List<int[]> all = new ArrayList<>();
            int[] p = new int[n];
            for (int i = 0; i < n; i++) {
                p[i] = i;
            }
            while (true) {
                all.add(p.clone());
                int i = n - 2;
                while (i >= 0 && p[i] >= p[i + 1]) {
                    i--;
                }
                if (i < 0) {
                    return all;
                }
                int j = n - 1;
                while (p[j] <= p[i]) {
                    j--;
                }
                swap(p, i, j);
                for (int lo = i + 1, hi = n - 1; lo < hi; lo++, hi--) {
                    swap(p, lo, hi);
                }
            }
        }

        /** Every vector {@code s} with {@code 0 <= s[i] <= i}: a snapshot length per commit position. */
        private static List<int[]> allSnapshotLengths(int n) {
            List<int[]> all = new ArrayList<>();
            int[] s = new int[n];
            while (true) {
                all.add(s.clone());
                int i = n - 1;
                while (i >= 0 && s[i] == i) {
                    s[i] = 0;
                    i--;
                }
                if (i < 0) {
                    return all;
                }
                s[i]++;
            }
        }

        private static void swap(int[] a, int i, int j) {
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }
}
