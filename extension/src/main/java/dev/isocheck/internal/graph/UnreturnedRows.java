package dev.isocheck.internal.graph;

import dev.isocheck.history.History;
import dev.isocheck.history.InitialState;
import dev.isocheck.history.KeyIndex;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.PredicateRead;
import dev.isocheck.history.Transaction;
import dev.isocheck.history.Value;
import dev.isocheck.history.ValueTable;
import dev.isocheck.internal.predicate.ParsedWhere;
import dev.isocheck.internal.predicate.WherePredicate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The rows each predicate read did not return, where that absence constrains the order (Vbox's
 * predicate constraints, its "unknown θ-reads"): for a committed transaction {@code t}, a predicate
 * read of it and a key {@code k} of the read's table that the read did not return, the version of
 * {@code k} the read saw (the last one installed before {@code t}) must not satisfy the read's
 * {@code where}.
 *
 * <p>Each such <em>unreturned row</em> is modelled exactly like an item read whose candidate writers
 * are the versions that can be left out: the committed writers of {@code k} other than {@code t}
 * whose installed value is not certainly selected ({@link dev.isocheck.internal.predicate.Truth#isTrue()} is
 * false: FALSE, UNKNOWN or INDETERMINATE), and the initial state unless its known value is
 * selected (an unknown initial value can be one the read leaves out unless an observation it
 * explains shows it selected, see {@link #initialSelects(int, Value)}; several observations that
 * only together show it selected are not combined, which can only let an invalid order through to
 * the witness replay). The engine then derives, as for any
 * read, a read-write edge from {@code t} to every writer installed after the chosen one. Vbox
 * encodes instead "the chosen non-selected writer precedes {@code t}, and every <em>selected</em>
 * writer after it follows {@code t}"; in a total order both say that the last version before
 * {@code t} is not selected (the last writer before {@code t} is such a writer, and choosing it
 * meets either form), so the two admit the same orders and this one reuses the item-read
 * machinery: pruning, chains, the SAT encoding, snapshot isolation's snapshots.
 *
 * <p>Only rows that could have been selected are listed: a key none of whose versions (other than
 * {@code t}'s own) satisfies the clause constrains nothing and is skipped, which is what keeps the
 * count near the number of rows a range could cover rather than reads × table size. Rows of a key
 * the transaction wrote before the read are its own writes, checked by the screening
 * ({@link ReadAnomalies}), not here. A read whose {@code where} is unsupported is
 * <em>unmodelled</em> ({@link #unmodelled()}): its returned rows still count as item reads, its
 * other keys add nothing, so it can never cause a false alarm.
 */
public final class UnreturnedRows {

    /** In {@link #candidates(int)}: the initial state. */
    public static final int INITIAL = -1;

    /**
     * The most candidates all unreturned rows together may have (each an int here and in every
     * later stage): beyond it the history is too dense for this encoding (a table whose rows have
     * been rewritten dozens of times, read by thousands of ranges), and building it would exhaust
     * the heap rather than answer.
     */
    public static final int CANDIDATE_LIMIT = 20_000_000;

    /** Thrown when the unreturned rows would exceed {@link #CANDIDATE_LIMIT}; the engine answers Unknown. */
    public static final class TooManyException extends RuntimeException {
        TooManyException(String message) {
            super(message);
        }
    }

    private final History history;
    private final int[] transaction;
    private final int[] operation;
    private final int[] key;
    private final int[] candidateStart;
    private final int[] candidates;
    private final WherePredicate[] where;
    private final int[] selectedStart;
    private final int[] selected;
    private final List<PredicateReadRef> unmodelled;
    private final ReadExplanations explanations;
    private final Map<String, int[]> tableKeys = new HashMap<>();
    private final Map<String, ColumnIndex> indexes = new HashMap<>();
    private Versions versions;
    private Map<Integer, List<Value>> initialObservations;

    /**
     * A predicate read, by transaction index and operation index.
     *
     * @param transaction the reader's index in its history
     * @param operation   the predicate read's index in the transaction
     */
    public record PredicateReadRef(int transaction, int operation) {
    }

    private UnreturnedRows(ReadExplanations explanations, int candidateLimit) {
        this.explanations = explanations;
        this.history = explanations.history();
        History history = this.history;
        IntList transactions = new IntList(64);
        IntList operations = new IntList(64);
        IntList keys = new IntList(64);
        IntList starts = new IntList(64);
        IntList candidateList = new IntList(256);
        IntList selectedStarts = new IntList(64);
        IntList selectedList = new IntList(64);
        selectedStarts.add(0);
        List<WherePredicate> wheres = new ArrayList<>();
        List<PredicateReadRef> refused = new ArrayList<>();
        ValueTable values = history.values();
        InitialState initial = history.initialState();
        starts.add(0);
        Set<Integer> ownWritten = new HashSet<>();
        for (Transaction t : history.transactions()) {
            if (!t.isCommitted() || !t.hasPredicateReads()) {
                continue;
            }
            ownWritten.clear();
            for (int op = 0; op < t.size(); op++) {
                if (t.kind(op) == OpKind.WRITE) {
                    ownWritten.add(t.key(op));
                }
                if (t.kind(op) != OpKind.PREDICATE) {
                    continue;
                }
                PredicateRead read = t.predicate(op);
                ParsedWhere parsed = WherePredicate.parse(read.where());
                if (!(parsed instanceof WherePredicate clause)) {
                    refused.add(new PredicateReadRef(t.index(), op));
                    continue;
                }
                ensureVersions();
                // Versions whose number in the range's column lies outside it are certainly not
                // selected: no need to evaluate the clause on them.
                Optional<WherePredicate.ColumnRange> range = clause.selectiveRange();
                ColumnIndex index = range.isPresent() ? indexFor(read.table(), range.get()) : null;
                int[] table = index == null ? tableKeys(read.table()) : index.keysWithin(range.get().low(), range.get().high());
                for (int k : table) {
                    if (ownWritten.contains(k) || read.valueReturnedFor(k) >= 0) {
                        continue;
                    }
                    int from = candidateList.size();
                    int selectedFrom = selectedList.size();
                    int initialValue = initial.valueOf(k);
                    if (initialValue != InitialState.UNKNOWN && clause.evaluate(values.get(initialValue)).isTrue()) {
                        selectedList.add(INITIAL);
                    } else {
                        candidateList.add(INITIAL);
                        // An unknown initial value is one the read may leave out, unless an
                        // observation it explains shows it selected: then the row constrains.
                        if (initialValue == InitialState.UNKNOWN
                                && initialObservations.getOrDefault(k, List.of()).stream().anyMatch(clause::certainlySelects)) {
                            selectedList.add(INITIAL);
                        }
                    }
                    for (int i = versions.start(k); i < versions.start(k + 1); i++) {
                        int writer = versions.writer(i);
                        if (writer == t.index()) {
                            continue;
                        }
                        if ((index == null || index.mayBeWithin(versions.value(i), range.get()))
                                && clause.evaluate(values.get(versions.value(i))).isTrue()) {
                            selectedList.add(writer);
                        } else {
                            candidateList.add(writer);
                        }
                    }
                    if (selectedList.size() == selectedFrom) {
                        // No version is selected: the row constrains nothing.
                        candidateList.truncate(from);
                        continue;
                    }
                    selectedStarts.add(selectedList.size());
                    if (candidateList.size() > candidateLimit) {
                        throw new TooManyException("the rows predicate reads left out have more than " + candidateLimit
                                + " candidate versions (reached at " + t.id() + "'s predicate read of " + read.table() + ")");
                    }
                    transactions.add(t.index());
                    operations.add(op);
                    keys.add(k);
                    starts.add(candidateList.size());
                    wheres.add(clause);
                }
            }
        }
        transaction = transactions.toArray();
        operation = operations.toArray();
        key = keys.toArray();
        candidateStart = starts.toArray();
        candidates = candidateList.toArray();
        selectedStart = selectedStarts.toArray();
        selected = selectedList.toArray();
        where = wheres.toArray(new WherePredicate[0]);
        unmodelled = List.copyOf(refused);
    }

    /**
     * The unreturned rows that constrain the order of the history {@code explanations} are of.
     *
     * @return never {@code null}
     */
    public static UnreturnedRows of(ReadExplanations explanations) {
        return new UnreturnedRows(explanations, CANDIDATE_LIMIT);
    }

    /** As {@link #of(ReadExplanations)} with another bound on the candidates, for tests. */
    static UnreturnedRows of(ReadExplanations explanations, int candidateLimit) {
        return new UnreturnedRows(explanations, candidateLimit);
    }

    /**
     * The keys of {@code table} that {@code clause} may select in some version: every key of the
     * table but those none of whose versions (installed writes, a known initial value, observations
     * of an unknown one) holds a number in the clause's {@link WherePredicate#selectiveRange()
     * selective range}, ascending. A key left out cannot be selected in any state an order gives
     * (a transaction's own overwritten writes aside: callers check those themselves), so a check
     * of what a predicate read left out need visit only these. Not thread-safe (indexes are built
     * on first use).
     */
    public int[] keysItMaySelect(String table, WherePredicate clause) {
        Optional<WherePredicate.ColumnRange> range = clause.selectiveRange();
        if (range.isEmpty()) {
            return tableKeys(table);
        }
        WherePredicate.ColumnRange r = range.get();
        return indexFor(table, r).keysWithin(r.low(), r.high());
    }

    /** Every key of {@code table}, ascending. */
    private int[] tableKeys(String table) {
        return tableKeys.computeIfAbsent(table, history.keys()::keysOfTable);
    }

    /** The index of {@code table}'s versions on the column of {@code range}, built on first use. */
    private ColumnIndex indexFor(String table, WherePredicate.ColumnRange range) {
        ensureVersions();
        return indexes.computeIfAbsent(table + "\u0000" + range.column(),
                x -> ColumnIndex.of(history, tableKeys(table), versions, initialObservations, range.column()));
    }

    private void ensureVersions() {
        if (versions == null) {
            versions = new Versions(history);
            initialObservations = initialObservations(explanations);
        }
    }

    /** Per key with an unknown initial value, the distinct values of the observations the initial state can explain. */
    private static Map<Integer, List<Value>> initialObservations(ReadExplanations explanations) {
        History history = explanations.history();
        Map<Integer, List<Value>> seen = new HashMap<>();
        for (int o = 0; o < explanations.size(); o++) {
            int k = explanations.key(o);
            if (explanations.initialStateExplains(o) && !history.initialState().isKnown(k)) {
                List<Value> values = seen.computeIfAbsent(k, x -> new ArrayList<>(2));
                Value value = history.values().get(explanations.value(o));
                if (!values.contains(value)) {
                    values.add(value);
                }
            }
        }
        return seen;
    }

    /** The history these rows are of. */
    public History history() {
        return history;
    }

    /** How many unreturned rows constrain the order. */
    public int size() {
        return key.length;
    }

    /** The index of the transaction whose predicate read left row {@code r} out. */
    public int transaction(int r) {
        return transaction[r];
    }

    /** The operation (a predicate read) of {@link #transaction(int)} that left row {@code r} out. */
    public int operation(int r) {
        return operation[r];
    }

    /** The key of row {@code r}. */
    public int key(int r) {
        return key[r];
    }

    /**
     * The versions the read may have seen for row {@code r}: committed writers' transaction indexes
     * in history order, preceded by {@link #INITIAL} when the initial state can be one. Empty when
     * every version satisfies the clause: the read should have returned the row in any order.
     */
    public int[] candidates(int r) {
        return Arrays.copyOfRange(candidates, candidateStart[r], candidateStart[r + 1]);
    }

    /** How many candidates row {@code r} has. */
    public int candidateCount(int r) {
        return candidateStart[r + 1] - candidateStart[r];
    }

    /** The {@code i}-th candidate of row {@code r} (see {@link #candidates(int)}). */
    public int candidate(int r, int i) {
        return candidates[candidateStart[r] + i];
    }

    /**
     * The versions of row {@code r} the read's clause selects, which it therefore did not see:
     * committed writers' transaction indexes (the reader excluded), preceded by {@link #INITIAL}
     * when the initial value is one (known, or shown by an observation). Never empty.
     */
    public int[] selected(int r) {
        return Arrays.copyOfRange(selected, selectedStart[r], selectedStart[r + 1]);
    }

    /**
     * The committed predicate reads whose {@code where} the engine cannot evaluate: their returned
     * rows are item reads, their other keys constrain nothing.
     *
     * @return never {@code null}; unmodifiable
     */
    public List<PredicateReadRef> unmodelled() {
        return unmodelled;
    }

    /**
     * Whether an unknown initial value known to be consistent with {@code observed} (an observation
     * of it) would certainly be selected by row {@code r}'s clause: then the initial state cannot
     * be the version that read left out while it also served that observation. Conservative, as the
     * reference checker's rule ({@link WherePredicate#certainlySelects}): only when every column the
     * clause names is a field of the observation and the clause is TRUE on it.
     */
    public boolean initialSelects(int r, Value observed) {
        return where[r].certainlySelects(observed);
    }

    /** A short description of row {@code r}, such as {@code T3's predicate read of doctors where on_call (not returning doctors/4)}. */
    public String describe(int r) {
        Transaction t = history.transaction(transaction[r]);
        PredicateRead read = t.predicate(operation[r]);
        return t.id() + "'s predicate read of " + read.table() + " where " + read.where() + " (which did not return "
                + history.keys().name(key[r]) + ")";
    }

    /** Each key's installed versions: committed final writes, by transaction, in history order. */
    private static final class Versions {
        private final int[] start;
        private final int[] writer;
        private final int[] value;

        Versions(History history) {
            int keys = history.keys().size();
            KeyIndex index = history.index();
            start = new int[keys + 1];
            IntList writers = new IntList(1024);
            IntList values = new IntList(1024);
            for (int k = 0; k < keys; k++) {
                for (int i = 0; i < index.writeCount(k); i++) {
                    long ref = index.write(k, i);
                    Transaction t = history.transaction(KeyIndex.transactionOf(ref));
                    int op = KeyIndex.operationOf(ref);
                    if (t.isCommitted() && t.isFinalWrite(op)) {
                        writers.add(t.index());
                        values.add(t.value(op));
                    }
                }
                start[k + 1] = writers.size();
            }
            writer = writers.toArray();
            value = values.toArray();
        }

        int start(int k) {
            return start[k];
        }

        int writer(int i) {
            return writer[i];
        }

        int value(int i) {
            return value[i];
        }
    }

    /**
     * The numbers one column holds in any version of a table's keys (installed writes, known
     * initial values, and observations of unknown initial values), sorted, so that a range clause
     * visits only the keys it could select instead of the whole table. Fields are matched by name
     * in lower case, a superset of the rows a clause's column reads.
     */
    private static final class ColumnIndex {
        private final double[] numbers;
        private final int[] keys;
        private final int keySpace;
        /** Per value id: its one number in the column, or NaN when it has none or several, or was not indexed. */
        private final double[] numberOfValue;

        private ColumnIndex(double[] numbers, int[] keys, int keySpace, double[] numberOfValue) {
            this.numbers = numbers;
            this.keys = keys;
            this.keySpace = keySpace;
            this.numberOfValue = numberOfValue;
        }

        /**
         * False only when value {@code id} has exactly one field of the column, a number outside
         * {@code range}: then the clause is not TRUE on it (the range holds every row it makes TRUE).
         */
        boolean mayBeWithin(int id, WherePredicate.ColumnRange range) {
            double n = numberOfValue[id];
            return Double.isNaN(n) || (n >= range.low() && n <= range.high());
        }

        static ColumnIndex of(History history, int[] table, Versions versions, Map<Integer, List<Value>> initialSeen,
                String column) {
            List<double[]> entries = new ArrayList<>();
            InitialState initial = history.initialState();
            double[] numberOfValue = new double[history.values().size()];
            Arrays.fill(numberOfValue, Double.NaN);
            for (int k : table) {
                int initialValue = initial.valueOf(k);
                if (initialValue != InitialState.UNKNOWN) {
                    add(entries, history.values().get(initialValue), column, k);
                }
                for (Value seen : initialSeen.getOrDefault(k, List.of())) {
                    add(entries, seen, column, k);
                }
                for (int i = versions.start(k); i < versions.start(k + 1); i++) {
                    int id = versions.value(i);
                    Value value = history.values().get(id);
                    add(entries, value, column, k);
                    numberOfValue[id] = onlyNumber(value, column);
                }
            }
            entries.sort((a, b) -> Double.compare(a[0], b[0]));
            double[] numbers = new double[entries.size()];
            int[] keys = new int[entries.size()];
            for (int i = 0; i < numbers.length; i++) {
                numbers[i] = entries.get(i)[0];
                keys[i] = (int) entries.get(i)[1];
            }
            return new ColumnIndex(numbers, keys, history.keys().size(), numberOfValue);
        }

        /** The number of the one field of {@code value} named {@code column} ignoring case, or NaN. */
        private static double onlyNumber(Value value, String column) {
            if (!value.isObject()) {
                return Double.NaN;
            }
            double found = Double.NaN;
            int matches = 0;
            for (Map.Entry<String, Value> field : value.fields().entrySet()) {
                if (field.getKey().toLowerCase(java.util.Locale.ROOT).equals(column)) {
                    matches++;
                    found = field.getValue().isNumber() ? field.getValue().asDecimal().orElseThrow().doubleValue() : Double.NaN;
                }
            }
            return matches == 1 ? found : Double.NaN;
        }

        private static void add(List<double[]> entries, Value value, String column, int key) {
            if (!value.isObject()) {
                return;
            }
            for (Map.Entry<String, Value> field : value.fields().entrySet()) {
                if (field.getValue().isNumber() && field.getKey().toLowerCase(java.util.Locale.ROOT).equals(column)) {
                    entries.add(new double[] {field.getValue().asDecimal().orElseThrow().doubleValue(), key});
                }
            }
        }

        /** The keys with a number in {@code [low, high]}, ascending, each once. */
        int[] keysWithin(double low, double high) {
            int from = lowerBound(low);
            java.util.BitSet found = new java.util.BitSet(keySpace);
            for (int i = from; i < numbers.length && numbers[i] <= high; i++) {
                found.set(keys[i]);
            }
            return found.stream().toArray();
        }

        private int lowerBound(double low) {
            int lo = 0;
            int hi = numbers.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (numbers[mid] < low) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }
    }
}
