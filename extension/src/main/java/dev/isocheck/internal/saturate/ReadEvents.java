package dev.isocheck.internal.saturate;

import dev.isocheck.AnomalyType;
import dev.isocheck.history.History;
import dev.isocheck.history.InitialState;
import dev.isocheck.history.KeyIndex;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.PredicateRead;
import dev.isocheck.history.Session;
import dev.isocheck.history.Transaction;
import dev.isocheck.history.Value;
import dev.isocheck.history.ValueTable;
import dev.isocheck.internal.graph.ReadAnomalies;
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
 * A history as the weak levels see it: the committed transactions, numbered {@code 0..n-1} in
 * file order, with the virtual initial transaction {@link #initial()} {@code = n} that writes every
 * key before them; session order; and the <em>read events</em>, each with its candidate writers.
 *
 * <p>A read event is an item read of a committed transaction that no earlier write of the same
 * transaction to its key precedes, or a row a predicate read returned under the same condition.
 * Unlike {@code ReadExplanations}, a repeated read of a key is an event of its own: read committed
 * lets two reads of one key in one transaction see different writes. Reads after the transaction's
 * own write, and a predicate read against its own writes, are checked by the screening
 * ({@link #screened}). Rows a predicate read did not return are not modelled at these levels
 * (fewer constraints: a pass says so in its caveats, a violation never rests on them).
 *
 * <p>Candidates follow {@code docs/semantics.md}: the committed final writes of other transactions
 * whose value the observation is consistent with (and, for a predicate row, whose value the clause
 * may select), and the initial state when it can explain the observation. Events are in history
 * order: by transaction, then operation, then returned row.
 */
public final class ReadEvents {

    private final History history;
    private final Transaction[] committed;
    private final int[] numberOf;
    private final int[] sessionPredecessor;
    private final int[] eventTransaction;
    private final int[] eventOperation;
    private final int[] eventRow;
    private final int[] eventKey;
    private final int[] eventValue;
    private final int[][] candidates;
    private final int[] firstEvent;
    private final boolean predicateReads;
    private final int[][] writtenKeys;

    private ReadEvents(History history) {
        this.history = history;
        this.committed = history.transactions().stream().filter(Transaction::isCommitted).toArray(Transaction[]::new);
        int n = committed.length;
        this.numberOf = new int[history.size()];
        Arrays.fill(numberOf, -1);
        for (int i = 0; i < n; i++) {
            numberOf[committed[i].index()] = i;
        }
        this.writtenKeys = new int[n][];
        this.sessionPredecessor = new int[n];
        Arrays.fill(sessionPredecessor, -1);
        for (Session session : history.sessions()) {
            int previous = -1;
            for (int s = 0; s < session.size(); s++) {
                int number = numberOf[session.transaction(s)];
                if (number >= 0) {
                    sessionPredecessor[number] = previous;
                    previous = number;
                }
            }
        }
        Writers writers = new Writers();
        Map<String, Optional<WherePredicate>> parsed = new HashMap<>();
        List<int[]> events = new ArrayList<>();
        List<int[]> candidateLists = new ArrayList<>();
        this.firstEvent = new int[n + 1];
        boolean predicates = false;
        for (int t = 0; t < n; t++) {
            firstEvent[t] = events.size();
            Transaction tx = committed[t];
            Set<Integer> written = new HashSet<>();
            for (int op = 0; op < tx.size(); op++) {
                switch (tx.kind(op)) {
                    case WRITE -> written.add(tx.key(op));
                    case READ -> {
                        if (!written.contains(tx.key(op))) {
                            events.add(new int[] {t, op, -1, tx.key(op), tx.value(op)});
                            candidateLists.add(writers.candidates(t, tx.key(op), tx.value(op), null));
                        }
                    }
                    case PREDICATE -> {
                        predicates = true;
                        PredicateRead read = tx.predicate(op);
                        WherePredicate where = parsed.computeIfAbsent(read.where(),
                                text -> Optional.ofNullable(WherePredicate.parse(text) instanceof WherePredicate w ? w : null))
                                .orElse(null);
                        for (int row = 0; row < read.rowCount(); row++) {
                            if (!written.contains(read.rowKey(row))) {
                                events.add(new int[] {t, op, row, read.rowKey(row), read.rowValue(row)});
                                candidateLists.add(writers.candidates(t, read.rowKey(row), read.rowValue(row), where));
                            }
                        }
                    }
                }
            }
        }
        firstEvent[n] = events.size();
        this.predicateReads = predicates;
        int e = events.size();
        eventTransaction = new int[e];
        eventOperation = new int[e];
        eventRow = new int[e];
        eventKey = new int[e];
        eventValue = new int[e];
        for (int i = 0; i < e; i++) {
            int[] event = events.get(i);
            eventTransaction[i] = event[0];
            eventOperation[i] = event[1];
            eventRow[i] = event[2];
            eventKey[i] = event[3];
            eventValue[i] = event[4];
        }
        this.candidates = candidateLists.toArray(int[][]::new);
    }

    /** The read events of {@code history}'s committed transactions with their candidates. */
    public static ReadEvents of(History history) {
        return new ReadEvents(history);
    }

    /**
     * The first anomaly the screening finds that {@code level} forbids (aborted and intermediate
     * reads, values from thin air, conflicting initial values, a read contradicting the
     * transaction's own write), or none. A read contradicting an earlier <em>read</em> of its
     * transaction is no anomaly at read committed (a non-repeatable read); at the stronger levels
     * the axioms themselves forbid it, but it is reported here as the screening names it.
     */
    public Optional<ReadAnomalies.Finding> screened(WeakLevel level) {
        for (ReadAnomalies.Finding finding : ReadAnomalies.findings(history)) {
            if (level == WeakLevel.READ_COMMITTED && finding.anomaly().type() == AnomalyType.INTERNAL
                    && isRead(finding.related())) {
                continue;
            }
            return Optional.of(finding);
        }
        return Optional.empty();
    }

    private boolean isRead(List<ReadAnomalies.Place> related) {
        for (ReadAnomalies.Place place : related) {
            if (history.transaction(place.transaction()).kind(place.operation()) != OpKind.WRITE) {
                return true;
            }
        }
        return false;
    }

    /** The history. */
    public History history() {
        return history;
    }

    /** How many committed transactions there are; also the number of the initial transaction. */
    public int size() {
        return committed.length;
    }

    /** The number standing for the initial state, a writer of every key before all transactions. */
    public int initial() {
        return committed.length;
    }

    /** Committed transaction number {@code t}. */
    public Transaction transaction(int t) {
        return committed[t];
    }

    /** The number of the history's transaction {@code index}, or {@code -1} if it is not committed. */
    public int numberOf(int index) {
        return numberOf[index];
    }

    /** The committed transaction before {@code t} in its session, or {@code -1}. */
    public int sessionPredecessor(int t) {
        return sessionPredecessor[t];
    }

    /** The distinct keys committed transaction {@code t} writes, in the order of its first write of each: do not modify. */
    public int[] writtenKeys(int t) {
        int[] keys = writtenKeys[t];
        if (keys == null) {
            Transaction tx = committed[t];
            int[] found = new int[tx.size()];
            int count = 0;
            for (int op = 0; op < tx.size(); op++) {
                if (tx.kind(op) == OpKind.WRITE) {
                    int key = tx.key(op);
                    boolean seen = false;
                    for (int i = 0; i < count && !seen; i++) {
                        seen = found[i] == key;
                    }
                    if (!seen) {
                        found[count++] = key;
                    }
                }
            }
            keys = Arrays.copyOf(found, count);
            writtenKeys[t] = keys;
        }
        return keys;
    }

    /** Whether committed transaction {@code t} writes {@code key}; the initial transaction writes every key. */
    public boolean writes(int t, int key) {
        return t == committed.length || committed[t].writes(key);
    }

    /** Whether some committed transaction has a predicate read (whose unreturned rows these levels do not model). */
    public boolean hasPredicateReads() {
        return predicateReads;
    }

    /** How many read events there are. */
    public int eventCount() {
        return eventTransaction.length;
    }

    /** The first event of transaction {@code t}; {@code firstEvent(t + 1)} is one past its last. */
    public int firstEvent(int t) {
        return firstEvent[t];
    }

    /** The transaction (number) that made event {@code e}. */
    public int transactionOf(int e) {
        return eventTransaction[e];
    }

    /** The operation (an item read or a predicate read) of event {@code e}. */
    public int operation(int e) {
        return eventOperation[e];
    }

    /** The returned row of a predicate read that event {@code e} is, or {@code -1}. */
    public int row(int e) {
        return eventRow[e];
    }

    /** The key event {@code e} read. */
    public int key(int e) {
        return eventKey[e];
    }

    /** The value id event {@code e} observed. */
    public int value(int e) {
        return eventValue[e];
    }

    /** The candidate writers of event {@code e}, ascending ({@link #initial()} last when the initial state is one): do not modify. */
    public int[] candidates(int e) {
        return candidates[e];
    }

    /** The key's name. */
    public String keyName(int key) {
        return history.keys().name(key);
    }

    /** A transaction number's id, {@code init} for the initial transaction. */
    public String id(int t) {
        return t == committed.length ? "the initial state" : committed[t].id();
    }

    /**
     * Whether the observations of events that read {@code key}'s initial value can all be of one
     * value: always for a listed key (each observation is consistent with it), else they must be
     * compatible (for rows, one row can show them all).
     */
    public boolean initialObservationsAgree(int key, List<Integer> events) {
        if (history.initialState().isKnown(key) || events.size() < 2) {
            return true;
        }
        ValueTable values = history.values();
        Value merged = values.get(eventValue[events.get(0)]);
        for (int i = 1; i < events.size(); i++) {
            Optional<Value> next = merged.combinedWith(values.get(eventValue[events.get(i)]));
            if (next.isEmpty()) {
                return false;
            }
            merged = next.get();
        }
        return true;
    }

    /** Per key, the committed final writes and every value written, for the candidates. */
    private final class Writers {

        private final ValueTable values = history.values();
        private final Map<Integer, Map<Integer, List<Integer>>> installedByValue = new HashMap<>();
        private final Map<Integer, List<Integer>> installed = new HashMap<>();
        private final Map<Integer, Set<Integer>> everWritten = new HashMap<>();
        /** Per key, the columns every installed row written to it has, when they all have the same ones; else absent. */
        private final Map<Integer, Set<String>> uniformColumns = new HashMap<>();

        private void index(int key) {
            if (installed.containsKey(key)) {
                return;
            }
            KeyIndex index = history.index();
            Map<Integer, List<Integer>> byValue = new HashMap<>();
            List<Integer> all = new ArrayList<>();
            Set<Integer> ever = new HashSet<>();
            for (int i = 0; i < index.writeCount(key); i++) {
                long ref = index.write(key, i);
                Transaction t = history.transaction(KeyIndex.transactionOf(ref));
                int op = KeyIndex.operationOf(ref);
                ever.add(t.value(op));
                int number = numberOf[t.index()];
                if (number >= 0 && t.isFinalWrite(op)) {
                    byValue.computeIfAbsent(t.value(op), v -> new ArrayList<>()).add(number);
                    all.add(number);
                }
            }
            installedByValue.put(key, byValue);
            installed.put(key, all);
            Set<String> columns = null;
            boolean uniform = true;
            // Only rows can be consistent with a row read: deletes and other values do not count.
            for (int value : byValue.keySet()) {
                Value written = values.get(value);
                if (!written.isObject()) {
                    continue;
                }
                Set<String> these = written.fields().keySet();
                if (columns != null && !columns.equals(these)) {
                    uniform = false;
                    break;
                }
                columns = these;
            }
            if (uniform && columns != null) {
                uniformColumns.put(key, columns);
            }
            everWritten.put(key, ever);
        }

        /** Per key, per sorted list of columns read: installed writers by their values in those columns. */
        private final Map<Integer, Map<List<String>, Map<List<Value>, List<Integer>>>> projections = new HashMap<>();

        /**
         * The installed writers of {@code key} whose row the partial row {@code observed} is
         * consistent with: the same value in every column it read, a column it read as null
         * being missing from the row too. Indexed per set of columns read, so each key's versions
         * are scanned once per shape of read rather than once per read.
         */
        private List<Integer> partialRowWriters(int key, Value observed) {
            List<String> columns = observed.fields().keySet().stream().sorted().toList();
            Map<List<Value>, List<Integer>> byProjection = projections.computeIfAbsent(key, k -> new HashMap<>())
                    .computeIfAbsent(columns, c -> {
                        Map<List<Value>, List<Integer>> index = new HashMap<>();
                        for (Map.Entry<Integer, List<Integer>> entry : installedByValue.get(key).entrySet()) {
                            Value written = values.get(entry.getKey());
                            if (written.isObject()) {
                                index.computeIfAbsent(project(written, c), p -> new ArrayList<>()).addAll(entry.getValue());
                            }
                        }
                        return index;
                    });
            List<Integer> found = byProjection.getOrDefault(project(observed, columns), List.of());
            List<Integer> consistent = new ArrayList<>(found.size());
            for (int w : found) {
                // The projection is an index, the definition decides.
                if (observed.isConsistentWith(values.get(committed[w].finalValue(key)))) {
                    consistent.add(w);
                }
            }
            return consistent;
        }

        private static List<Value> project(Value row, List<String> columns) {
            List<Value> projection = new ArrayList<>(columns.size());
            for (String column : columns) {
                projection.add(row.field(column).orElse(Value.ABSENT));
            }
            return projection;
        }

        int[] candidates(int reader, int key, int value, WherePredicate where) {
            index(key);
            Value observed = values.get(value);
            List<Integer> writers;
            // A row read of exactly the columns every installed row of its key has is consistent
            // with equal rows only: the hash lookup, rather than a scan of every version.
            if (observed.isObject() && !observed.fields().keySet().equals(uniformColumns.get(key))) {
                writers = partialRowWriters(key, observed);
            } else {
                writers = installedByValue.get(key).getOrDefault(value, List.of());
            }
            List<Integer> result = new ArrayList<>(writers.size() + 1);
            for (int w : writers) {
                if (w != reader && (where == null || where.evaluate(values.get(committed[w].finalValue(key))).maybeTrue())) {
                    result.add(w);
                }
            }
            if (initialExplains(key, observed, where)) {
                result.add(committed.length);
            }
            return result.stream().mapToInt(Integer::intValue).sorted().toArray();
        }

        private boolean initialExplains(int key, Value observed, WherePredicate where) {
            InitialState initial = history.initialState();
            if (initial.isKnown(key)) {
                int value = initial.valueOf(key);
                Value start = values.get(value);
                return observed.isConsistentWith(start) && (where == null || where.evaluate(start).maybeTrue());
            }
            if (observed.isAbsent() || observed.isObject() || initial.mayBeAnyValue(key)) {
                return true;
            }
            // A value that is no row is consistent with an equal value only (one id).
            return !everWritten.get(key).contains(values.idOf(observed));
        }
    }
}
