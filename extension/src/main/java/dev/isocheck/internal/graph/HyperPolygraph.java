package dev.isocheck.internal.graph;

import dev.isocheck.history.History;
import dev.isocheck.history.InitialState;
import dev.isocheck.history.KeyIndex;
import dev.isocheck.internal.predicate.ParsedWhere;
import dev.isocheck.internal.predicate.WherePredicate;
import dev.isocheck.history.Transaction;
import dev.isocheck.history.ValueTable;
import java.util.Arrays;

/**
 * The uncertainty left over the {@link KnownGraph} (VeriStrong's hyper-polygraph): which write each
 * observation read from, and in which order the writers of each key installed their versions.
 *
 * <ul>
 *   <li><b>WR constraints.</b> Every observation has its candidate writers: the nodes of the
 *       committed final writes that explain it ({@link ReadExplanations}), and {@link KnownGraph#INITIAL}
 *       when the initial state can (for every observation of a key the history does not list,
 *       when it declares {@code "unknown": "any"}). Exactly one of them served it. With duplicate
 *       values or a readable initial state there are several; with one, the write-read edge is
 *       known.</li>
 *   <li><b>WW constraints.</b> The writers of a key are the committed transactions that write it
 *       (their last write is installed). Each pair is ordered one way or the other; T⊥, the writer
 *       of every initial value, always comes first and needs no choice.</li>
 *   <li><b>RW derivation.</b> When observation {@code o} of key {@code x} by {@code r} reads from
 *       {@code w}, and {@code w}'s version of {@code x} precedes {@code w'}'s, then {@code r} must
 *       precede {@code w'}, unless {@code w' == r}: a read-modify-write does not anti-depend on
 *       itself. From T⊥, this holds for every writer of {@code x}.</li>
 *   <li><b>Unreturned rows.</b> A row a committed predicate read did not return, of a key one of
 *       whose versions the clause selects, is an observation too ({@link UnreturnedRows}), from
 *       {@link #itemObservationCount()} on: its candidates are the versions the clause does not
 *       select, and the RW derivation is the same (the last version before the reader is not
 *       selected). A returned row's candidates are only versions the clause may select.</li>
 *   <li><b>Unknown initial values.</b> Observations served by one key's unknown initial value must
 *       be compatible with each other ({@code docs/semantics.md}). Observations of such a key that
 *       T⊥ can explain are grouped by observed value ({@link #initialGroupCount()}), and the pairs
 *       of groups that no single value is consistent with are listed
 *       ({@link #incompatibleInitialGroups()}).</li>
 * </ul>
 *
 * <p>With these rules, in any acyclic choice each observation's chosen writer is the last writer
 * of its key before the reader, so a graph with more than one writer chosen for a read is cyclic:
 * encoding a WR constraint as "at least one" is enough. Real-time order belongs to the known graph
 * and only for strict levels; a lost update with duplicate values stays a choice here, never a
 * verdict.
 */
public final class HyperPolygraph {

    private final KnownGraph known;
    private final ReadExplanations explanations;
    private final UnreturnedRows unreturned;
    private final int items;
    /** By observation: how many candidates. */
    private final int[] candidateCount;
    /**
     * By observation: where its candidates start in {@link #candidates}, or {@code -1} when they
     * are its explanations' writers as they stand (T⊥ first when {@link #initialFirst}): the reads
     * of a duplicated value then share their key's list of its writers, held once by the
     * explanations, instead of a copy each (146 million candidates at 100k transactions on hot
     * rows, where each read of a value has every writer of that value).
     */
    private final int[] candidateStart;
    private final java.util.BitSet initialFirst = new java.util.BitSet();
    private final int[] candidates;
    private final int[] writerStart;
    private final int[] writers;
    private final int[] keyObservationStart;
    private final int[] keyObservations;
    private final int[] initialGroupStart;
    private final int[] initialGroupObservations;
    private final int[] incompatibleGroups;

    private HyperPolygraph(KnownGraph known, ReadExplanations explanations, UnreturnedRows unreturned, ReadPins pins) {
        this.known = known;
        this.explanations = explanations;
        this.unreturned = unreturned;
        History history = known.history();
        items = explanations.size();
        int observations = items + unreturned.size();
        candidateStart = new int[observations];
        candidateCount = new int[observations];
        IntList candidateList = new IntList(observations + 16);
        for (int o = 0; o < items; o++) {
            WherePredicate clause = rowClause(history, explanations, o);
            int key = explanations.key(o);
            // A pinned read keeps only its pinned source (none if that is not a candidate).
            int pin = pins.sourceOf(explanations.transaction(o), explanations.operation(o), key);
            if (clause == null && pin == ReadPins.NONE) {
                candidateStart[o] = -1;
                boolean initial = explanations.initialStateExplains(o);
                initialFirst.set(o, initial);
                candidateCount[o] = explanations.writerCount(o) + (initial ? 1 : 0);
                continue;
            }
            candidateStart[o] = candidateList.size();
            if (explanations.initialStateExplains(o) && (pin == ReadPins.NONE || pin == ReadPins.INITIAL)
                    && mayBeSelected(clause, history, history.initialState().valueOf(key))) {
                candidateList.add(KnownGraph.INITIAL);
            }
            for (int i = 0; i < explanations.writerCount(o); i++) {
                int writer = explanations.writer(o, i);
                if ((pin == ReadPins.NONE || pin == writer)
                        && (clause == null || mayBeSelected(clause, history, history.transaction(writer).finalValue(key)))) {
                    candidateList.add(known.node(writer));
                }
            }
            candidateCount[o] = candidateList.size() - candidateStart[o];
        }
        for (int r = 0; r < unreturned.size(); r++) {
            int pin = pins.sourceOf(unreturned.transaction(r), unreturned.operation(r), unreturned.key(r));
            candidateStart[items + r] = candidateList.size();
            for (int i = 0; i < unreturned.candidateCount(r); i++) {
                int c = unreturned.candidate(r, i);
                if (pin != ReadPins.NONE && pin != (c == UnreturnedRows.INITIAL ? ReadPins.INITIAL : c)) {
                    continue;
                }
                candidateList.add(c == UnreturnedRows.INITIAL ? KnownGraph.INITIAL : known.node(c));
            }
            candidateCount[items + r] = candidateList.size() - candidateStart[items + r];
        }
        candidates = candidateList.toArray();

        int keys = history.keys().size();
        KeyIndex index = history.index();
        writerStart = new int[keys + 1];
        IntList writerList = new IntList(1024);
        for (int k = 0; k < keys; k++) {
            int last = -1;
            for (int i = 0; i < index.writeCount(k); i++) {
                int t = KeyIndex.transactionOf(index.write(k, i));
                // Writes are listed in transaction order, so repeated writes of one transaction are adjacent.
                if (t != last && history.transaction(t).isCommitted()) {
                    writerList.add(known.node(t));
                }
                last = t;
            }
            writerStart[k + 1] = writerList.size();
        }
        writers = writerList.toArray();

        keyObservationStart = new int[keys + 1];
        for (int o = 0; o < observations; o++) {
            keyObservationStart[key(o) + 1]++;
        }
        for (int k = 0; k < keys; k++) {
            keyObservationStart[k + 1] += keyObservationStart[k];
        }
        keyObservations = new int[observations];
        int[] fill = Arrays.copyOf(keyObservationStart, keys);
        for (int o = 0; o < observations; o++) {
            keyObservations[fill[key(o)]++] = o;
        }

        IntList groupStart = new IntList(16);
        IntList groupObservations = new IntList(16);
        IntList incompatible = new IntList(16);
        groupStart.add(0);
        InitialState initial = history.initialState();
        ValueTable values = history.values();
        for (int k = 0; k < keys; k++) {
            if (initial.isKnown(k)) {
                continue;
            }
            int[] keyObs = Arrays.copyOfRange(keyObservations, keyObservationStart[k], keyObservationStart[k + 1]);
            int[] byValue = Arrays.stream(keyObs).filter(o -> o < items && candidateCount(o) > 0 && candidate(o, 0) == KnownGraph.INITIAL)
                    .boxed().sorted((a, b) -> Integer.compare(explanations.value(a), explanations.value(b)))
                    .mapToInt(Integer::intValue).toArray();
            int firstGroup = groupStart.size() - 1;
            for (int i = 0; i < byValue.length; i++) {
                if (i > 0 && explanations.value(byValue[i]) != explanations.value(byValue[i - 1])) {
                    groupStart.add(groupObservations.size());
                }
                groupObservations.add(byValue[i]);
            }
            if (byValue.length > 0) {
                groupStart.add(groupObservations.size());
            }
            int groupEnd = groupStart.size() - 1;
            for (int g = firstGroup; g < groupEnd; g++) {
                for (int h = g + 1; h < groupEnd; h++) {
                    int a = explanations.value(groupObservations.get(groupStart.get(g)));
                    int b = explanations.value(groupObservations.get(groupStart.get(h)));
                    if (!ValueRelations.compatible(values.get(a), values.get(b))) {
                        incompatible.add(g);
                        incompatible.add(h);
                    }
                }
            }
            // An unreturned row the initial value may be: a group of its own, which cannot share
            // T⊥ with an observation showing a value the read would have selected. A value that
            // only several observations together show to be selected is not excluded here (the
            // witness replay catches it, and the answer is then "unknown", never a false alarm).
            for (int o : keyObs) {
                if (o < items || candidateCount(o) == 0 || candidate(o, 0) != KnownGraph.INITIAL) {
                    continue;
                }
                int group = groupStart.size() - 1;
                groupObservations.add(o);
                groupStart.add(groupObservations.size());
                for (int g = firstGroup; g < groupEnd; g++) {
                    int value = explanations.value(groupObservations.get(groupStart.get(g)));
                    if (unreturned.initialSelects(o - items, values.get(value))) {
                        incompatible.add(g);
                        incompatible.add(group);
                    }
                }
            }
        }
        initialGroupStart = groupStart.toArray();
        initialGroupObservations = groupObservations.toArray();
        incompatibleGroups = incompatible.toArray();
    }

    /**
     * The hyper-polygraph over {@code known}, whose observations {@code explanations} lists.
     *
     * @throws UnreturnedRows.TooManyException when predicate reads leave out more rows than the engine holds
     *
     * @return never {@code null}
     */
    public static HyperPolygraph of(KnownGraph known, ReadExplanations explanations) {
        return of(known, explanations, ReadPins.none());
    }

    /**
     * The hyper-polygraph over {@code known} in which each pinned item read has only its pinned
     * source as a candidate ({@link ReadPins}): its models are the explanations where the pins
     * hold. A pinned read whose source is not among its candidates has none, and the history is
     * then violated under the pins.
     *
     * @throws UnreturnedRows.TooManyException when predicate reads leave out more rows than the engine holds
     */
    public static HyperPolygraph of(KnownGraph known, ReadExplanations explanations, ReadPins pins) {
        if (explanations.history() != known.history()) {
            throw new IllegalArgumentException("the explanations are of another history");
        }
        return new HyperPolygraph(known, explanations, UnreturnedRows.of(explanations), pins);
    }

    /** The known graph this polygraph constrains further. */
    public KnownGraph known() {
        return known;
    }

    /** The observations, with their operations and values. */
    public ReadExplanations explanations() {
        return explanations;
    }

    /** The rows predicate reads left out that constrain the order: observations from {@link #itemObservationCount()} on. */
    public UnreturnedRows unreturnedRows() {
        return unreturned;
    }

    /** How many observations (WR constraints, single-candidate ones included), unreturned rows included. */
    public int observationCount() {
        return candidateCount.length;
    }

    /** How many observations are the {@link ReadExplanations}' (same numbers); unreturned rows follow. */
    public int itemObservationCount() {
        return items;
    }

    /** The index of the transaction that made observation {@code o}. */
    public int transaction(int o) {
        return o < items ? explanations.transaction(o) : unreturned.transaction(o - items);
    }

    /** The node of the transaction that made observation {@code o}. */
    public int reader(int o) {
        return known.node(transaction(o));
    }

    /** The key observation {@code o} is of. */
    public int key(int o) {
        return o < items ? explanations.key(o) : unreturned.key(o - items);
    }

    /**
     * Whether the {@link KnownGraph} already has observation {@code o}'s write-read edge (one writer
     * explains it, the initial state does not); other observations left with one candidate get
     * theirs from pruning.
     */
    public boolean servedInKnownGraph(int o) {
        return o < items && explanations.hasOneExplanation(o);
    }

    /** How many nodes may have served observation {@code o}; zero means nothing explains it. */
    public int candidateCount(int o) {
        return candidateCount[o];
    }

    /** The {@code i}-th candidate writer node of observation {@code o}; {@link KnownGraph#INITIAL} comes first when present. */
    public int candidate(int o, int i) {
        int start = candidateStart[o];
        if (start >= 0) {
            return candidates[start + i];
        }
        if (initialFirst.get(o)) {
            if (i == 0) {
                return KnownGraph.INITIAL;
            }
            i--;
        }
        return known.node(explanations.writer(o, i));
    }

    /**
     * Whether observation {@code o}'s candidates are its explanations' writers as listed
     * ({@link ReadExplanations#writerListStart}), after T⊥ when {@link #initialFirst} says so: the
     * list that the reads of one duplicated value share.
     */
    public boolean hasListedCandidates(int o) {
        return candidateStart[o] < 0;
    }

    /** For an observation with {@link #hasListedCandidates listed candidates}: whether T⊥ is its first. */
    public boolean initialFirst(int o) {
        return initialFirst.get(o);
    }

    /** The first observation nothing explains, or {@code -1}. */
    public int firstUnexplained() {
        for (int o = 0; o < observationCount(); o++) {
            if (candidateCount(o) == 0) {
                return o;
            }
        }
        return -1;
    }

    /** How many keys. */
    public int keyCount() {
        return writerStart.length - 1;
    }

    /** How many committed transactions write {@code key} (T⊥ not counted). */
    public int writerCount(int key) {
        return writerStart[key + 1] - writerStart[key];
    }

    /** The {@code i}-th committed writer node of {@code key}, in history order. */
    public int writer(int key, int i) {
        return writers[writerStart[key] + i];
    }

    /** How many observations are of {@code key}. */
    public int observationCount(int key) {
        return keyObservationStart[key + 1] - keyObservationStart[key];
    }

    /** The {@code i}-th observation of {@code key}. */
    public int observationOf(int key, int i) {
        return keyObservations[keyObservationStart[key] + i];
    }

    /** How many groups of equal observations T⊥ can explain, over keys with an unknown initial value. */
    public int initialGroupCount() {
        return initialGroupStart.length - 1;
    }

    /** The observations of group {@code g}: one key, one observed value, all explainable by T⊥. */
    public int[] initialGroup(int g) {
        return Arrays.copyOfRange(initialGroupObservations, initialGroupStart[g], initialGroupStart[g + 1]);
    }

    /**
     * Pairs of groups (flattened: {@code g0, h0, g1, h1, ...}) of the same key whose values no single
     * initial value is consistent with: T⊥ cannot serve an observation of each.
     */
    public int[] incompatibleInitialGroups() {
        return incompatibleGroups.clone();
    }

    /** A short description of observation {@code o}, such as {@code T3's r(x, 2)}. */
    public String describe(int o) {
        if (o >= items) {
            return unreturned.describe(o - items);
        }
        Transaction t = known.history().transaction(explanations.transaction(o));
        return t.id() + "'s " + t.describe(explanations.operation(o))
                + (explanations.row(o) >= 0 ? " (row " + known.history().keys().name(explanations.key(o)) + ")" : "");
    }

    /**
     * The clause that limits which versions observation {@code o} can be: for a returned row of a
     * predicate read, its {@code where}; {@code null} for an item read, or a clause that cannot be
     * evaluated (every candidate is kept).
     */
    private static WherePredicate rowClause(History history, ReadExplanations explanations, int o) {
        if (explanations.row(o) < 0) {
            return null;
        }
        Transaction reader = history.transaction(explanations.transaction(o));
        ParsedWhere parsed = WherePredicate.parse(reader.predicate(explanations.operation(o)).where());
        return parsed instanceof WherePredicate where ? where : null;
    }

    /**
     * Whether a returned row can be the version holding value id {@code value}: only one its
     * {@code clause} may select (not certainly FALSE or UNKNOWN on it), as the reference checker
     * requires; an unknown initial value, or no clause ({@link #rowClause}), may be any.
     */
    private static boolean mayBeSelected(WherePredicate clause, History history, int value) {
        return clause == null || value == InitialState.UNKNOWN || clause.evaluate(history.values().get(value)).maybeTrue();
    }
}
