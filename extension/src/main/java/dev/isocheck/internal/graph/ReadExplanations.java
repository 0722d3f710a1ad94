package dev.isocheck.internal.graph;

import dev.isocheck.history.History;
import dev.isocheck.history.InitialState;
import dev.isocheck.history.KeyIndex;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.PredicateRead;
import dev.isocheck.history.Transaction;
import dev.isocheck.history.Value;
import dev.isocheck.history.ValueTable;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * What can explain each value that a committed transaction observed from the database.
 *
 * <p>An <em>observation</em> is an external item read of a committed transaction (its first access
 * of the key, see {@link Transaction#isExternalRead(int)}) or a row returned by one of its
 * predicate reads, unless the transaction wrote that row's key earlier (then the row is checked
 * like an internal read). Observations are numbered densely from 0 in history order: by
 * transaction index, then operation, then returned row.
 *
 * <p>The <em>explanations</em> of an observation (see {@code docs/semantics.md}) are the committed
 * <em>final</em> writes of other transactions whose value the observation is consistent with,
 * given here as the writers' transaction indexes ({@link #writers(int)}), and the initial state
 * when it can explain the observation ({@link #initialStateExplains(int)}). For the unknown initial
 * value of a key: an absent observation and a row (object) observation always can; any other
 * present one only when no write of that key, by any transaction (the reader, aborted ones and
 * overwritten writes included), is consistent with it, unless the history declares that unknown
 * initial values may be any value ({@link dev.isocheck.history.UnknownInitialValues#ANY}): then
 * every observation of the key can.
 *
 * <p>Built in time linear in the history for exact matches (an open-addressing hash of (key,
 * value id) to writers, with no allocation per operation). An object observation is compared with
 * other written rows of its key only when that key's written rows do not all have exactly the
 * observation's columns (a partial-row read); for a key with many versions, through a per-key
 * index of written rows by column value, built on first use.
 * Immutable once built; the tables are plain arrays, so the search can walk them cheaply.
 */
public final class ReadExplanations {

    /** A write that a commit installs: committed, and its transaction's last write of the key. */
    static final byte INSTALLED = 0;
    /** A write of a committed transaction that the same transaction overwrote. */
    static final byte OVERWRITTEN = 1;
    /** A write of an aborted transaction. */
    static final byte ABORTED = 2;

    static final int AFTER_OWN_WRITE = 0;
    static final int AFTER_OWN_READ = 1;

    private static final int NO_SHAPE = -1;
    private static final int MIXED_SHAPES = -2;
    private static final int NOT_COMPUTED = Integer.MIN_VALUE;
    /** Up to this many distinct values of a key, a partial-row read compares with each. */
    private static final int SCAN_LIMIT = 8;
    private static final int[] NO_GROUPS = new int[0];

    private final History history;
    private final ValueTable values;

    // Every write of the history, grouped by (key, value id); within a group in transaction order.
    private final KeyValueIndex groups;
    private final int[] groupKey;
    private final int[] groupValue;
    private final int[] groupStart;
    private final long[] writeRefs;
    private final byte[] writeStates;
    private final int[] keyGroupStart;
    private final int[] keyGroups;
    private final int[] keyShape;
    private final int[] valueShape;
    private final Map<Set<String>, Integer> shapes = new HashMap<>();
    private final Map<Integer, Map<String, Map<Value, IntList>>> columnIndexes = new HashMap<>();

    // Observations, column-wise.
    private final IntList obsTransaction = new IntList(1024);
    private final IntList obsOperation = new IntList(1024);
    private final IntList obsRow = new IntList(1024);
    private final IntList obsKey = new IntList(1024);
    private final IntList obsValue = new IntList(1024);
    // Per observation, its writers are candidates[from, to) less the entry at skip (the reader's
    // own write of the value, when the list is its group's, shared by every exact observation of
    // the group: a hot key read thousands of times keeps one list per value, not one per read).
    private final IntList candidateFrom = new IntList(1024);
    private final IntList candidateTo = new IntList(1024);
    private final IntList candidateSkip = new IntList(1024);
    private int[] groupListFrom;
    private int[] groupListTo;
    private final IntList candidates = new IntList(1024);
    private final BitSet initialExplains = new BitSet();
    private final int[] transactionStart;

    // Internal reads that break INT, in history order.
    private final IntList violationTransaction = new IntList(4);
    private final IntList violationOperation = new IntList(4);
    private final IntList violationRow = new IntList(4);
    private final IntList violationKind = new IntList(4);
    private final IntList violationEarlier = new IntList(4);

    private ReadExplanations(History history) {
        this.history = history;
        this.values = history.values();
        int keyCount = history.keys().size();

        int writeTotal = 0;
        for (Transaction t : history.transactions()) {
            for (int i = 0; i < t.size(); i++) {
                writeTotal += t.kind(i) == OpKind.WRITE ? 1 : 0;
            }
        }
        groups = new KeyValueIndex(writeTotal);
        int[] writeGroup = new int[writeTotal];
        int[] keyOfGroup = new int[writeTotal];
        int[] valueOfGroup = new int[writeTotal];
        int[] sizes = new int[writeTotal + 1];
        int w = 0;
        for (Transaction t : history.transactions()) {
            for (int i = 0; i < t.size(); i++) {
                if (t.kind(i) == OpKind.WRITE) {
                    int before = groups.size();
                    int g = groups.intern(t.key(i), t.value(i));
                    if (g == before) {
                        keyOfGroup[g] = t.key(i);
                        valueOfGroup[g] = t.value(i);
                    }
                    writeGroup[w++] = g;
                    sizes[g + 1]++;
                }
            }
        }
        int groupCount = groups.size();
        groupKey = Arrays.copyOf(keyOfGroup, groupCount);
        groupValue = Arrays.copyOf(valueOfGroup, groupCount);
        groupStart = new int[groupCount + 1];
        for (int g = 0; g < groupCount; g++) {
            groupStart[g + 1] = groupStart[g] + sizes[g + 1];
        }
        writeRefs = new long[writeTotal];
        writeStates = new byte[writeTotal];
        int[] fill = Arrays.copyOf(groupStart, groupCount);
        int[] lastWrite = new int[keyCount];
        w = 0;
        for (Transaction t : history.transactions()) {
            // Only the keys this transaction writes are read back below, so stale entries of
            // earlier transactions never matter.
            for (int i = 0; i < t.size(); i++) {
                if (t.kind(i) == OpKind.WRITE) {
                    lastWrite[t.key(i)] = i;
                }
            }
            for (int i = 0; i < t.size(); i++) {
                if (t.kind(i) == OpKind.WRITE) {
                    int at = fill[writeGroup[w++]]++;
                    writeRefs[at] = KeyIndex.ref(t.index(), i);
                    writeStates[at] = !t.isCommitted() ? ABORTED : lastWrite[t.key(i)] == i ? INSTALLED : OVERWRITTEN;
                }
            }
        }

        keyGroupStart = new int[keyCount + 1];
        for (int g = 0; g < groupCount; g++) {
            keyGroupStart[groupKey[g] + 1]++;
        }
        for (int k = 0; k < keyCount; k++) {
            keyGroupStart[k + 1] += keyGroupStart[k];
        }
        keyGroups = new int[groupCount];
        int[] keyFill = Arrays.copyOf(keyGroupStart, keyCount);
        for (int g = 0; g < groupCount; g++) {
            keyGroups[keyFill[groupKey[g]]++] = g;
        }

        valueShape = new int[values.size()];
        Arrays.fill(valueShape, NOT_COMPUTED);
        keyShape = new int[keyCount];
        Arrays.fill(keyShape, NO_SHAPE);
        for (int g = 0; g < groupCount; g++) {
            int shape = shapeOf(groupValue[g]);
            if (shape >= 0) {
                int k = groupKey[g];
                keyShape[k] = keyShape[k] == NO_SHAPE || keyShape[k] == shape ? shape : MIXED_SHAPES;
            }
        }

        transactionStart = new int[history.size() + 1];
        scanObservations(keyCount);
    }

    /**
     * Finds the observations of every committed transaction of {@code history} and their
     * explanations.
     *
     * @return never {@code null}
     */
    public static ReadExplanations of(History history) {
        return new ReadExplanations(history);
    }

    private void scanObservations(int keyCount) {
        // Per-key scratch for the transaction being scanned, valid where stamp == its index + 1,
        // so that nothing is cleared or allocated per transaction.
        int[] stamp = new int[keyCount];
        int[] ownWrite = new int[keyCount];
        int[] readHead = new int[keyCount];
        int[] itemRead = new int[keyCount];
        IntList nodeValue = new IntList(64);
        IntList nodeNext = new IntList(64);
        groupListFrom = new int[groups.size()];
        groupListTo = new int[groups.size()];
        Arrays.fill(groupListFrom, -1);
        for (Transaction t : history.transactions()) {
            transactionStart[t.index()] = obsTransaction.size();
            if (!t.isCommitted()) {
                continue;
            }
            int mark = t.index() + 1;
            int nodeBase = nodeValue.size();
            for (int i = 0; i < t.size(); i++) {
                OpKind kind = t.kind(i);
                if (kind == OpKind.PREDICATE) {
                    PredicateRead p = t.predicate(i);
                    for (int r = 0; r < p.rowCount(); r++) {
                        int k = p.rowKey(r);
                        if (stamp[k] != mark) {
                            stamp[k] = mark;
                            ownWrite[k] = -1;
                            readHead[k] = -1;
                        }
                        if (ownWrite[k] >= 0) {
                            checkAgainstOwnWrite(t, i, r, p.rowValue(r), ownWrite[k]);
                        } else {
                            // A returned row is a read of its key like any other: a read of
                            // another version before or after it is a non-repeatable read.
                            read(t, i, r, k, p.rowValue(r), true, readHead, nodeValue, nodeNext);
                        }
                    }
                    continue;
                }
                int k = t.key(i);
                int v = t.value(i);
                if (stamp[k] != mark) {
                    stamp[k] = mark;
                    ownWrite[k] = -1;
                    readHead[k] = -1;
                }
                if (kind == OpKind.WRITE) {
                    ownWrite[k] = v;
                } else if (ownWrite[k] >= 0) {
                    checkAgainstOwnWrite(t, i, -1, v, ownWrite[k]);
                } else {
                    // A repeated item read is not observed again: the first one's version is the
                    // one every later read of the key must see.
                    boolean first = itemRead[k] != mark;
                    itemRead[k] = mark;
                    read(t, i, -1, k, v, first, readHead, nodeValue, nodeNext);
                }
            }
            nodeValue.truncate(nodeBase);
            nodeNext.truncate(nodeBase);
        }
        transactionStart[history.size()] = obsTransaction.size();
    }

    /**
     * A read (an item read, or a predicate read's row) of a key the transaction has not written,
     * observed where {@code observed} says (every returned row; an item read only when it is the
     * first item read of the key). Every distinct value read of the key, of either kind, is kept
     * in a list: a read incompatible with one of them is {@link #AFTER_OWN_READ}.
     */
    private void read(Transaction t, int op, int row, int k, int v, boolean observed, int[] readHead, IntList nodeValue,
            IntList nodeNext) {
        if (observed) {
            observe(t, op, row, k, v);
        }
        if (readHead[k] < 0) {
            readHead[k] = nodeValue.size();
            nodeValue.add(v);
            nodeNext.add(-1);
            return;
        }
        boolean seen = false;
        int conflict = -1;
        int last = -1;
        for (int n = readHead[k]; n >= 0; n = nodeNext.get(n)) {
            int earlier = nodeValue.get(n);
            seen |= earlier == v;
            if (conflict < 0 && earlier != v && !ValueRelations.compatible(values.get(v), values.get(earlier))) {
                conflict = earlier;
            }
            last = n;
        }
        if (conflict >= 0) {
            violation(t, op, row, AFTER_OWN_READ, conflict);
        }
        if (!seen) {
            nodeNext.set(last, nodeValue.size());
            nodeValue.add(v);
            nodeNext.add(-1);
        }
    }

    private void checkAgainstOwnWrite(Transaction t, int op, int row, int observed, int written) {
        if (observed != written && !values.get(observed).isConsistentWith(values.get(written))) {
            violation(t, op, row, AFTER_OWN_WRITE, written);
        }
    }

    private void violation(Transaction t, int op, int row, int kind, int earlier) {
        violationTransaction.add(t.index());
        violationOperation.add(op);
        violationRow.add(row);
        violationKind.add(kind);
        violationEarlier.add(earlier);
    }

    private void observe(Transaction reader, int op, int row, int key, int observed) {
        int index = obsTransaction.size();
        obsTransaction.add(reader.index());
        obsOperation.add(op);
        obsRow.add(row);
        obsKey.add(key);
        obsValue.add(observed);
        int exact = groups.get(key, observed);
        boolean anyWrite = exact >= 0;
        Value value = values.get(observed);
        boolean scan = needsScan(key, observed, value);
        if (exact >= 0 && !scan) {
            shareGroupList(exact, reader.index());
        } else {
            anyWrite |= ownList(reader, key, exact, value, scan);
        }
        int initial = history.initialState().valueOf(key);
        boolean explains;
        if (initial == InitialState.UNKNOWN) {
            // A row observation names only the columns it selected; the initial row may share them
            // with a written row, so only a non-row value is ruled out by a write of it, and only
            // when unknown initial values are unwritten: otherwise the initial value may be any.
            explains = observed == ValueTable.ABSENT || value.isObject() || !anyWrite
                    || history.initialState().mayBeAnyValue(key);
        } else {
            explains = observed == initial || value.isConsistentWith(values.get(initial));
        }
        if (explains) {
            initialExplains.set(index);
        }
    }

    /** The observation's writers are its group's list, shared, less the reader's own write. */
    private void shareGroupList(int group, int reader) {
        if (groupListFrom[group] < 0) {
            groupListFrom[group] = candidates.size();
            addInstalled(group, -1);
            groupListTo[group] = candidates.size();
        }
        int from = groupListFrom[group];
        int to = groupListTo[group];
        candidateFrom.add(from);
        candidateTo.add(to);
        int at = candidates.binarySearch(from, to, reader);
        candidateSkip.add(at >= 0 ? at : -1);
    }

    /**
     * The observation's writers in a list of its own: it matches the written rows of several
     * groups. Returns whether a group besides {@code exact} has a write consistent with it.
     */
    private boolean ownList(Transaction reader, int key, int exact, Value value, boolean scan) {
        int from = candidates.size();
        if (exact >= 0) {
            addInstalled(exact, reader.index());
        }
        if (!scan) {
            candidateFrom.add(from);
            candidateTo.add(candidates.size());
            candidateSkip.add(-1);
            return false;
        }
        int[] among = candidateGroups(key, value);
        int count = among == null ? keyGroupStart[key + 1] - keyGroupStart[key] : among.length;
        boolean scanned = false;
        for (int at = 0; at < count; at++) {
            int g = among == null ? keyGroups[keyGroupStart[key] + at] : among[at];
            if (g != exact && value.isConsistentWith(values.get(groupValue[g]))) {
                scanned = true;
                addInstalled(g, reader.index());
            }
        }
        if (scanned) {
            candidates.sort(from, candidates.size());
        }
        candidateFrom.add(from);
        candidateTo.add(candidates.size());
        candidateSkip.add(-1);
        return scanned;
    }

    private boolean needsScan(int key, int observed, Value value) {
        if (!value.isObject() || keyShape[key] == NO_SHAPE) {
            return false;
        }
        // When every row written to the key has exactly the observed columns, consistency is
        // equality, and the exact lookup found everything.
        return keyShape[key] == MIXED_SHAPES || shapeOf(observed) != keyShape[key];
    }

    /**
     * The groups of {@code key} whose rows have the observed value in one of the observed non-null
     * columns (a superset of the consistent ones), or {@code null} for all of the key's groups. Indexed per key on first use, so that
     * partial-row reads of a key with many versions do not compare with every version.
     */
    private int[] candidateGroups(int key, Value observed) {
        int groupsOfKey = keyGroupStart[key + 1] - keyGroupStart[key];
        if (groupsOfKey <= SCAN_LIMIT || observed.fields().isEmpty()) {
            return null;
        }
        Map<String, Map<Value, IntList>> byColumn = columnIndexes.computeIfAbsent(key, k -> indexColumns(k));
        // The most selective observed column: a row id column matches every version of the key.
        // A null observed column selects nothing: it is consistent with rows that lack the column.
        IntList best = null;
        for (Map.Entry<String, Value> column : observed.fields().entrySet()) {
            if (column.getValue().isAbsent()) {
                continue;
            }
            IntList groups = byColumn.getOrDefault(column.getKey(), Map.of()).get(column.getValue());
            if (groups == null) {
                return NO_GROUPS;
            }
            if (best == null || groups.size() < best.size()) {
                best = groups;
            }
        }
        return best == null ? null : best.toArray();
    }

    private Map<String, Map<Value, IntList>> indexColumns(int key) {
        Map<String, Map<Value, IntList>> byColumn = new HashMap<>();
        for (int at = keyGroupStart[key]; at < keyGroupStart[key + 1]; at++) {
            int g = keyGroups[at];
            for (Map.Entry<String, Value> column : values.get(groupValue[g]).fields().entrySet()) {
                byColumn.computeIfAbsent(column.getKey(), c -> new HashMap<>())
                        .computeIfAbsent(column.getValue(), v -> new IntList(2)).add(g);
            }
        }
        return byColumn;
    }

    private void addInstalled(int group, int reader) {
        for (int at = groupStart[group]; at < groupStart[group + 1]; at++) {
            if (writeStates[at] == INSTALLED) {
                int writer = KeyIndex.transactionOf(writeRefs[at]);
                if (writer != reader) {
                    candidates.add(writer);
                }
            }
        }
    }

    private int shapeOf(int valueId) {
        int shape = valueShape[valueId];
        if (shape == NOT_COMPUTED) {
            Value value = values.get(valueId);
            shape = value.isObject() ? shapes.computeIfAbsent(value.fields().keySet(), s -> shapes.size()) : NO_SHAPE;
            valueShape[valueId] = shape;
        }
        return shape;
    }

    /** The history these explanations are of. */
    public History history() {
        return history;
    }

    /** How many observations there are. */
    public int size() {
        return obsTransaction.size();
    }

    /** The index of the first observation of transaction {@code transaction} (none for aborted ones). */
    public int firstOf(int transaction) {
        return transactionStart[transaction];
    }

    /** One past the index of the last observation of transaction {@code transaction}. */
    public int endOf(int transaction) {
        return transactionStart[transaction + 1];
    }

    /** The index of the transaction that made observation {@code obs}. */
    public int transaction(int obs) {
        return obsTransaction.get(obs);
    }

    /** The operation (an item read or a predicate read) of observation {@code obs}. */
    public int operation(int obs) {
        return obsOperation.get(obs);
    }

    /** The returned row of a predicate read that observation {@code obs} is, or {@code -1} for an item read. */
    public int row(int obs) {
        return obsRow.get(obs);
    }

    /** The key id observed. */
    public int key(int obs) {
        return obsKey.get(obs);
    }

    /** The value id observed. */
    public int value(int obs) {
        return obsValue.get(obs);
    }

    /** How many committed final writes of other transactions explain observation {@code obs}. */
    public int writerCount(int obs) {
        return candidateTo.get(obs) - candidateFrom.get(obs) - (candidateSkip.get(obs) >= 0 ? 1 : 0);
    }

    /**
     * The {@code i}-th writer explaining observation {@code obs}: a transaction index, whose last
     * write of {@link #key(int) the key} the observation is consistent with. Writers are listed in
     * ascending index order, each once.
     */
    public int writer(int obs, int i) {
        int at = candidateFrom.get(obs) + i;
        int skip = candidateSkip.get(obs);
        return candidates.get(skip >= 0 && at >= skip ? at + 1 : at);
    }

    /**
     * Where observation {@code obs}'s writers lie in the list of writers that the observations of
     * one key and value share: positions {@code writerListStart(obs) .. writerListEnd(obs) - 1} of
     * {@link #listedWriter}, less {@link #writerListSkip} (the reader's own write); the
     * {@code i}-th of them is {@link #writer(int, int) writer(obs, i)}. For walking the writers of
     * many reads of one duplicated value once, rather than once per read.
     */
    public int writerListStart(int obs) {
        return candidateFrom.get(obs);
    }

    /** The end (exclusive) of observation {@code obs}'s writers in the shared list; see {@link #writerListStart}. */
    public int writerListEnd(int obs) {
        return candidateTo.get(obs);
    }

    /** The position of the shared list that observation {@code obs} leaves out (its own write), or {@code -1}. */
    public int writerListSkip(int obs) {
        return candidateSkip.get(obs);
    }

    /** The transaction at {@code position} of the shared lists of writers; see {@link #writerListStart}. */
    public int listedWriter(int position) {
        return candidates.get(position);
    }

    /** The writers explaining observation {@code obs}, ascending: a fresh copy. */
    public int[] writers(int obs) {
        int[] out = new int[writerCount(obs)];
        for (int i = 0; i < out.length; i++) {
            out[i] = writer(obs, i);
        }
        return out;
    }

    /** Whether the initial state of the key can explain observation {@code obs}. */
    public boolean initialStateExplains(int obs) {
        return initialExplains.get(obs);
    }

    /**
     * Whether exactly one thing explains observation {@code obs}: one writer, and not the initial
     * state. Its write-read edge is then certain ({@link KnownGraph} adds it).
     */
    public boolean hasOneExplanation(int obs) {
        return writerCount(obs) == 1 && !initialStateExplains(obs);
    }

    /** Whether anything explains observation {@code obs}; an unexplained one is an anomaly. */
    public boolean isExplained(int obs) {
        return writerCount(obs) > 0 || initialStateExplains(obs);
    }

    /**
     * Every write of the observed key, by any transaction, whose value observation {@code obs} is
     * consistent with, as positions for {@link #writeRef(int)} and {@link #writeState(int)}, in
     * group then transaction order. For reporting: this allocates. A non-row observation is
     * consistent only with an equal value, found by the exact (key, value) lookup; a row
     * observation compares with the key's written values that the per-key column index leaves
     * (all of them for a key with few values), so that many unexplained reads of a heavily written
     * key do not each scan every value written to it.
     */
    int[] consistentWrites(int obs) {
        int key = key(obs);
        int observed = value(obs);
        Value value = values.get(observed);
        IntList out = new IntList(4);
        if (!value.isObject()) {
            int g = groups.get(key, observed);
            if (g >= 0) {
                for (int pos = groupStart[g]; pos < groupStart[g + 1]; pos++) {
                    out.add(pos);
                }
            }
            return out.toArray();
        }
        int[] among = candidateGroups(key, value);
        int count = among == null ? keyGroupStart[key + 1] - keyGroupStart[key] : among.length;
        for (int at = 0; at < count; at++) {
            int g = among == null ? keyGroups[keyGroupStart[key] + at] : among[at];
            if (value.isConsistentWith(values.get(groupValue[g]))) {
                for (int pos = groupStart[g]; pos < groupStart[g + 1]; pos++) {
                    out.add(pos);
                }
            }
        }
        return out.toArray();
    }

    /** The write at a position from {@link #consistentWrites(int)}, as a {@link KeyIndex} reference. */
    long writeRef(int position) {
        return writeRefs[position];
    }

    /** {@link #INSTALLED}, {@link #OVERWRITTEN} or {@link #ABORTED}. */
    byte writeState(int position) {
        return writeStates[position];
    }

    int violationCount() {
        return violationTransaction.size();
    }

    int violationTransaction(int i) {
        return violationTransaction.get(i);
    }

    int violationOperation(int i) {
        return violationOperation.get(i);
    }

    int violationRow(int i) {
        return violationRow.get(i);
    }

    /** {@link #AFTER_OWN_WRITE} or {@link #AFTER_OWN_READ}. */
    int violationKind(int i) {
        return violationKind.get(i);
    }

    /** The value id the transaction wrote or read before, which the violating read contradicts. */
    int violationEarlier(int i) {
        return violationEarlier.get(i);
    }
}
