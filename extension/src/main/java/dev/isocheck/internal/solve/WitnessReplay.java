package dev.isocheck.internal.solve;

import dev.isocheck.internal.graph.UnreturnedRows;
import dev.isocheck.history.History;
import dev.isocheck.history.InitialState;
import dev.isocheck.history.KeyIndex;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.PredicateRead;
import dev.isocheck.history.Session;
import dev.isocheck.history.Transaction;
import dev.isocheck.history.Value;
import dev.isocheck.history.ValueTable;
import dev.isocheck.internal.predicate.ParsedWhere;
import dev.isocheck.internal.predicate.WherePredicate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntUnaryOperator;

/**
 * Replays a serial order of the committed transactions from the definitions of
 * {@code docs/semantics.md}, and says what, if anything, it fails to explain.
 *
 * <p>This is the engine's last line of defence: a {@link SatChecker} answer "satisfied" is only
 * given once its witness passes this replay, so that answer does not depend on the encoding being
 * complete (an unknown initial value that only several observations together show selected by a
 * predicate read that left the row out, for one, is not encoded). Every read, internal
 * ones included, is checked against the key's current value in the reader's state (its own writes
 * over the installed state); reads of an unknown initial value are merged per key and must stay
 * compatible; predicate reads must return exactly the keys their {@code where} selects, a row whose
 * truth is indeterminate going either way; session order and, when asked, real time must hold.
 *
 * <p>Cost: linear in the operations, plus for each predicate read the keys of its table, plus for
 * each present observation of an unknown initial value the distinct values written to its key.
 */
public final class WitnessReplay {

    private final History history;
    private final ValueTable values;
    private final Map<String, int[]> tableKeys = new HashMap<>();
    private final Map<String, ParsedWhere> parsed = new HashMap<>();
    private int[][] writtenValues;
    /** When given, predicate reads visit only the keys their clause may select in some version. */
    private final UnreturnedRows unreturned;

    /** A replayer for {@code history}; each predicate read visits every key of its table. */
    public WitnessReplay(History history) {
        this(history, null);
    }

    /**
     * A replayer for {@code history} whose predicate reads visit only the keys of their table that
     * {@code unreturned} says their clause may select in some version (and the reader's own
     * writes): the others cannot be selected in any state, so the replay is as exact and a range
     * clause over a large table costs the rows in its range instead of the whole table.
     *
     * @param unreturned the unreturned rows of {@code history}, or {@code null} to visit every key
     */
    public WitnessReplay(History history, UnreturnedRows unreturned) {
        if (unreturned != null && unreturned.history() != history) {
            throw new IllegalArgumentException("the unreturned rows are of another history");
        }
        this.history = history;
        this.values = history.values();
        this.unreturned = unreturned;
    }

    /**
     * Why {@code order} (transaction ids) does not explain the history serially, or empty when it
     * does.
     *
     * @param realTime whether the order must also respect real time (strict serializability)
     */
    public Optional<String> failure(List<String> order, boolean realTime) {
        int[] position = new int[history.size()];
        Arrays.fill(position, -1);
        int[] sequence = new int[order.size()];
        for (int p = 0; p < order.size(); p++) {
            Optional<Transaction> t = history.transaction(order.get(p));
            if (t.isEmpty() || !t.get().isCommitted() || position[t.get().index()] >= 0) {
                return Optional.of("the order names " + order.get(p) + ", which is not a committed transaction listed once");
            }
            position[t.get().index()] = p;
            sequence[p] = t.get().index();
        }
        if (order.size() != history.committedCount()) {
            return Optional.of("the order leaves out committed transactions");
        }
        for (Session session : history.sessions()) {
            int last = -1;
            for (int t : session.transactions()) {
                if (position[t] >= 0) {
                    if (position[t] < last) {
                        return Optional.of(history.transaction(t).id() + " comes before an earlier transaction of its session");
                    }
                    last = position[t];
                }
            }
        }
        if (realTime) {
            long earliestEndAfter = Long.MAX_VALUE;
            for (int p = sequence.length - 1; p >= 0; p--) {
                Transaction t = history.transaction(sequence[p]);
                if (t.startTime() != Transaction.NO_TIME && earliestEndAfter < t.startTime()) {
                    return Optional.of(t.id() + " is placed after a transaction that ended before it started");
                }
                if (t.endTime() != Transaction.NO_TIME) {
                    earliestEndAfter = Math.min(earliestEndAfter, t.endTime());
                }
            }
        }
        return replay(sequence);
    }

    private Optional<String> replay(int[] sequence) {
        int keys = history.keys().size();
        int[] state = new int[keys];
        for (int k = 0; k < keys; k++) {
            state[k] = history.initialState().valueOf(k);
        }
        Knowledge knowledge = new Knowledge(keys);
        int[] ownStamp = new int[keys];
        int[] own = new int[keys];
        for (int p = 0; p < sequence.length; p++) {
            Transaction t = history.transaction(sequence[p]);
            String wrong = explain(t, k -> state[k], p + 1, ownStamp, own, knowledge);
            if (wrong != null) {
                return Optional.of(wrong);
            }
            for (int i = 0; i < t.size(); i++) {
                if (t.kind(i) == OpKind.WRITE) {
                    state[t.key(i)] = t.value(i);
                }
            }
        }
        return knowledge.finalFailure();
    }

    /**
     * Why {@code commitOrder} (transaction ids) is not a snapshot-isolation commit order of the
     * history, or empty when it is: each transaction needs a snapshot, a prefix of the order before
     * it that holds its session predecessors and every earlier-committed writer of a key it also
     * writes, from which (plus its own writes) all its reads are explained. The latest such prefix
     * is taken (it serves the fewest reads from unknown initial values).
     */
    public Optional<String> snapshotFailure(List<String> commitOrder) {
        return snapshotFailure(commitOrder, true, null);
    }

    /**
     * Why {@code commitOrder} (transaction ids) is not a prefix-consistency commit order of the
     * history, or empty when it is: as {@link #snapshotFailure(List)} without the rule on writers of
     * a common key, so that each transaction's snapshot need only hold its session predecessors.
     */
    public Optional<String> prefixFailure(List<String> commitOrder) {
        return snapshotFailure(commitOrder, false, null);
    }

    /**
     * As {@link #prefixFailure(List)}, with each transaction's snapshot given: transaction
     * {@code commitOrder.get(i)} reads the state after the first {@code snapshotLengths.get(i)}
     * transactions of the order. One replay per transaction instead of a search for its snapshot.
     */
    public Optional<String> prefixFailure(List<String> commitOrder, List<Integer> snapshotLengths) {
        if (snapshotLengths.size() != commitOrder.size()) {
            return Optional.of("the snapshots given are not one per transaction of the order");
        }
        return snapshotFailure(commitOrder, false, snapshotLengths.stream().mapToInt(Integer::intValue).toArray());
    }

    private Optional<String> snapshotFailure(List<String> commitOrder, boolean conflicts, int[] snapshots) {
        int[] position = new int[history.size()];
        Arrays.fill(position, -1);
        int[] sequence = new int[commitOrder.size()];
        for (int p = 0; p < commitOrder.size(); p++) {
            Optional<Transaction> t = history.transaction(commitOrder.get(p));
            if (t.isEmpty() || !t.get().isCommitted() || position[t.get().index()] >= 0) {
                return Optional.of("the order names " + commitOrder.get(p) + ", which is not a committed transaction listed once");
            }
            position[t.get().index()] = p;
            sequence[p] = t.get().index();
        }
        if (commitOrder.size() != history.committedCount()) {
            return Optional.of("the order leaves out committed transactions");
        }
        int keys = history.keys().size();
        // Per key, the installed versions in commit order: positions and values.
        int[][] versionAt = new int[keys][];
        int[][] versionValue = new int[keys][];
        int[] count = new int[keys];
        int[] lastWriterAt = new int[keys];
        Arrays.fill(lastWriterAt, -1);
        for (int p = 0; p < sequence.length; p++) {
            Transaction t = history.transaction(sequence[p]);
            for (int i = 0; i < t.size(); i++) {
                if (t.kind(i) == OpKind.WRITE && t.isFinalWrite(i)) {
                    count[t.key(i)]++;
                }
            }
        }
        for (int k = 0; k < keys; k++) {
            versionAt[k] = new int[count[k]];
            versionValue[k] = new int[count[k]];
            count[k] = 0;
        }
        int[] lowest = new int[sequence.length];
        int[] sessionLast = new int[history.sessions().size()];
        Arrays.fill(sessionLast, -1);
        for (int p = 0; p < sequence.length; p++) {
            Transaction t = history.transaction(sequence[p]);
            int bound = sessionLast[t.session()] + 1;
            for (int i = 0; i < t.size(); i++) {
                if (t.kind(i) == OpKind.WRITE && t.isFinalWrite(i)) {
                    int k = t.key(i);
                    if (conflicts) {
                        bound = Math.max(bound, lastWriterAt[k] + 1);
                    }
                    versionAt[k][count[k]] = p;
                    versionValue[k][count[k]++] = t.value(i);
                    lastWriterAt[k] = p;
                }
            }
            lowest[p] = bound;
            sessionLast[t.session()] = Math.max(sessionLast[t.session()], p);
        }
        for (Session session : history.sessions()) {
            int last = -1;
            for (int t : session.transactions()) {
                if (position[t] >= 0) {
                    if (position[t] < last) {
                        return Optional.of(history.transaction(t).id() + " commits before an earlier transaction of its session");
                    }
                    last = position[t];
                }
            }
        }
        Knowledge knowledge = new Knowledge(keys);
        int[] ownStamp = new int[keys];
        int[] own = new int[keys];
        int mark = 0;
        for (int p = 0; p < sequence.length; p++) {
            Transaction t = history.transaction(sequence[p]);
            String wrong = "no snapshot";
            int highest = snapshots == null ? p : Math.min(p, snapshots[p]);
            int last = snapshots == null ? lowest[p] : Math.max(lowest[p], snapshots[p]);
            for (int snapshot = highest; snapshot >= last && wrong != null; snapshot--) {
                int prefix = snapshot;
                knowledge.mark();
                wrong = explain(t, k -> valueBefore(versionAt[k], versionValue[k], prefix, k), ++mark, ownStamp, own, knowledge);
                if (wrong != null) {
                    knowledge.rollback();
                }
            }
            if (wrong != null) {
                return Optional.of(t.id() + " has no snapshot in this commit order that explains its reads (for the latest: "
                        + wrong + ")");
            }
        }
        return knowledge.finalFailure();
    }

    /** The value of {@code key} after the first {@code prefix} transactions of the commit order. */
    private int valueBefore(int[] at, int[] value, int prefix, int key) {
        int lo = 0;
        int hi = at.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (at[mid] < prefix) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo == 0 ? history.initialState().valueOf(key) : value[lo - 1];
    }

    /** Why {@code t}, run on {@code state} plus its own writes, does not explain its reads; {@code null} if it does. */
    private String explain(Transaction t, IntUnaryOperator state, int mark, int[] ownStamp, int[] own, Knowledge knowledge) {
        for (int i = 0; i < t.size(); i++) {
            OpKind kind = t.kind(i);
            if (kind == OpKind.WRITE) {
                ownStamp[t.key(i)] = mark;
                own[t.key(i)] = t.value(i);
            } else if (kind == OpKind.READ) {
                int k = t.key(i);
                int current = ownStamp[k] == mark ? own[k] : state.applyAsInt(k);
                if (!observes(k, t.value(i), current, knowledge)) {
                    return t.id() + "'s " + t.describe(i) + " is not what the order gives it";
                }
            } else {
                String wrong = predicateRead(t, t.predicate(i), state, ownStamp, own, mark, knowledge);
                if (wrong != null) {
                    return t.id() + "'s " + t.describe(i) + ": " + wrong;
                }
            }
        }
        return null;
    }

    private boolean observes(int key, int observed, int current, Knowledge knowledge) {
        if (current == InitialState.UNKNOWN) {
            return observesInitial(key, observed, knowledge);
        }
        return observed == current || values.get(observed).isConsistentWith(values.get(current));
    }

    private boolean observesInitial(int key, int observed, Knowledge knowledge) {
        Value value = values.get(observed);
        // A row shows only the columns read, which the initial row may share with a written row
        // (docs/semantics.md): only a non-row value is ruled out by a write of it, and only when
        // unknown initial values are unwritten.
        if (!value.isAbsent() && !value.isObject() && !history.initialState().mayBeAnyValue(key)) {
            for (int written : writtenValues(key)) {
                if (value.isConsistentWith(values.get(written))) {
                    return false;
                }
            }
        }
        Value before = knowledge.get(key);
        Value merged = before == null ? value : before.combinedWith(value).orElse(null);
        if (merged == null) {
            return false;
        }
        knowledge.put(key, merged);
        return true;
    }

    private String predicateRead(Transaction reader, PredicateRead read, IntUnaryOperator state, int[] ownStamp, int[] own,
            int mark, Knowledge knowledge) {
        ParsedWhere clause = parsed.computeIfAbsent(read.where(), WherePredicate::parse);
        WherePredicate where = clause instanceof WherePredicate supported ? supported : null;
        for (int row = 0; row < read.rowCount(); row++) {
            int key = read.rowKey(row);
            int current = ownStamp[key] == mark ? own[key] : state.applyAsInt(key);
            if (!observes(key, read.rowValue(row), current, knowledge)) {
                return "the row " + history.keys().name(key) + " is not what the order gives it";
            }
            if (where != null && current != InitialState.UNKNOWN && !where.evaluate(values.get(current)).maybeTrue()) {
                return "it returns " + history.keys().name(key) + ", which the order gives a value it does not select";
            }
        }
        if (where == null) {
            return null;
        }
        int[] keys = unreturned == null ? tableKeys.computeIfAbsent(read.table(), history.keys()::keysOfTable)
                : withOwnWrites(unreturned.keysItMaySelect(read.table(), where), reader, read, ownStamp, mark);
        for (int key : keys) {
            if (read.valueReturnedFor(key) >= 0) {
                continue;
            }
            int current = ownStamp[key] == mark ? own[key] : state.applyAsInt(key);
            if (current == InitialState.UNKNOWN) {
                knowledge.defer(new Deferred(key, where, reader.id()));
            } else if (where.evaluate(values.get(current)).isTrue()) {
                return "it leaves out " + history.keys().name(key) + ", which the order gives a value it selects";
            }
        }
        return null;
    }

    /** {@code keys} plus the keys of the read's table the reader has written so far (its own versions are in no index). */
    private int[] withOwnWrites(int[] keys, Transaction reader, PredicateRead read, int[] ownStamp, int mark) {
        int[] out = keys;
        for (int i = 0; i < reader.size(); i++) {
            if (reader.kind(i) == OpKind.WRITE && ownStamp[reader.key(i)] == mark
                    && read.covers(reader.key(i))) {
                out = Arrays.copyOf(out, out.length + 1);
                out[out.length - 1] = reader.key(i);
            }
        }
        // A key twice is checked twice, to the same effect.
        return out;
    }

    private int[] writtenValues(int key) {
        if (writtenValues == null) {
            KeyIndex index = history.index();
            writtenValues = new int[history.keys().size()][];
            for (int k = 0; k < writtenValues.length; k++) {
                int[] written = new int[index.writeCount(k)];
                for (int i = 0; i < written.length; i++) {
                    long ref = index.write(k, i);
                    written[i] = history.transaction(KeyIndex.transactionOf(ref)).value(KeyIndex.operationOf(ref));
                }
                writtenValues[k] = Arrays.stream(written).distinct().toArray();
            }
        }
        return writtenValues[key];
    }

    /**
     * What the reads so far say about unknown initial values (merged observations per key, and
     * predicate reads that left such keys out), with a mark to roll back a tentative snapshot.
     */
    private final class Knowledge {
        private final Value[] merged;
        private final List<Deferred> deferred = new ArrayList<>();
        private final List<Integer> undoKeys = new ArrayList<>();
        private final List<Value> undoValues = new ArrayList<>();
        private int deferredMark;

        Knowledge(int keys) {
            merged = new Value[keys];
        }

        Value get(int key) {
            return merged[key];
        }

        void put(int key, Value value) {
            undoKeys.add(key);
            undoValues.add(merged[key]);
            merged[key] = value;
        }

        void defer(Deferred d) {
            deferred.add(d);
        }

        void mark() {
            undoKeys.clear();
            undoValues.clear();
            deferredMark = deferred.size();
        }

        void rollback() {
            for (int i = undoKeys.size() - 1; i >= 0; i--) {
                merged[undoKeys.get(i)] = undoValues.get(i);
            }
            deferred.subList(deferredMark, deferred.size()).clear();
        }

        /**
         * Non-selections of unknown initial values are judged on everything learnt about those
         * values, so the answer does not depend on which read came first.
         */
        Optional<String> finalFailure() {
            for (Deferred d : deferred) {
                Value known = merged[d.key];
                if (known != null && d.where.certainlySelects(known)) {
                    return Optional.of(d.reader + "'s predicate read " + d.where + " leaves out " + history.keys().name(d.key)
                            + ", whose initial value it selects");
                }
            }
            return Optional.empty();
        }
    }

    /** A predicate read that left out a key still holding its unknown initial value. */
    private record Deferred(int key, WherePredicate where, String reader) {
    }
}
