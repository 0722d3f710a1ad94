package dev.isocheck.internal.explain;

import dev.isocheck.explain.Assumption;
import dev.isocheck.explain.DependencyType;
import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.graph.ReadExplanations;
import dev.isocheck.internal.graph.ValueRelations;
import dev.isocheck.history.History;
import dev.isocheck.history.InitialState;
import dev.isocheck.history.KeyIndex;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.PredicateRead;
import dev.isocheck.history.Session;
import dev.isocheck.history.Transaction;
import dev.isocheck.internal.predicate.ParsedWhere;
import dev.isocheck.internal.predicate.WherePredicate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The choices a black-box history leaves open, restricted to a small set of committed transactions
 * (the nodes): for each key, the order in which the nodes' versions were installed; for each
 * observation of a node, which write it saw. An <em>explanation</em> fixes every choice; the
 * dependencies it implies are the edges of Adya's serialization graph, in their transitive form
 * (Cerone and Gotsman): {@code ww} between any two versions in order, {@code rw} from a read to
 * every version after the one it saw.
 *
 * <p><b>Why restricting to the nodes is sound.</b> Every explanation of the whole history projects
 * onto one of these (the nodes' versions in the order the whole one has; each observation's source,
 * with every write by a transaction outside the nodes merged into one {@link #OUTSIDE} choice). An
 * edge is derived only from facts the projection keeps, and a read whose source is outside derives
 * no anti-dependency (its version's place among the nodes' is unknown). So a cycle present in every
 * explanation here is present in every explanation of the whole history. The converse does not
 * hold: the space also contains explanations the whole history rules out (through transactions left
 * out, unknown initial values that must be one value beyond what {@link InitialValueFacts} derives,
 * or what a predicate read must have returned), so an explainer may fail to find a cycle, never
 * find a wrong one. The initial state is dropped from a read's sources only where
 * {@link InitialValueFacts} shows, from the whole history, that the initial value is not what it saw.
 *
 * <p>Observations: the item reads and the rows predicate reads returned that
 * {@link ReadExplanations} lists (the sources are its explanations), and, for each predicate read
 * with a supported {@code where}, each key of its table it did not return (and had not written
 * itself): it saw some version that does not satisfy the predicate (the initial one, unless known to
 * satisfy it; or a committed transaction's last write that does not). Anti-dependencies from those
 * are {@link DependencyType#PREDICATE_READ_WRITE}.
 */
final class ExplanationSpace {

    /** A source: the initial state. */
    static final int INITIAL = -1;
    /** A source: some committed transaction outside the nodes. */
    static final int OUTSIDE = -2;
    /** {@link Observation#row()} of a key a predicate read did not return. */
    static final int UNRETURNED = -2;

    /**
     * One observation of a node.
     *
     * @param reader     the local node that observed
     * @param key        the local key
     * @param operation  the operation index in the reader
     * @param row        the returned row of a predicate read, {@code -1} for an item read, or
     *                   {@link #UNRETURNED}
     * @param value      the value id observed, or {@code -1} for an unreturned key
     * @param candidates the possible sources: local nodes, {@link #INITIAL}, {@link #OUTSIDE}
     * @param pinned     whether its one candidate is a case's assumption rather than the history's
     */
    record Observation(int reader, int key, int operation, int row, int value, int[] candidates, boolean pinned) {
        boolean isUnreturned() {
            return row == UNRETURNED;
        }
    }

    private final History history;
    private final IsolationLevel level;
    private final int[] nodes;
    private final int[] localOf;
    private final int[] keyIds;
    private final int[] installers;
    private final int[][] finalWrite;
    private final List<Observation> observations;
    /** Per observation, what it rests on when only unwritten unknown initial values rule out the initial state ({@link UnwrittenPremises}). */
    private final List<Optional<Assumption.UnwrittenInitialValue>> premises;
    /** Per observation, why the initial value cannot be its source when only other reads rule it out ({@link InitialValueFacts}). */
    private final List<Optional<String>> notInitial;
    private final int[] sessionAfter;
    private final int[] realTimeAfter;
    private final List<String> contradictions;
    /**
     * Per observation that the initial state may explain, the others of its key that cannot have
     * seen the initial value too ({@link #settle}); empty for most.
     */
    private final int[][] initialConflicts;

    private ExplanationSpace(History history, IsolationLevel level, int[] nodes, Map<Integer, Integer> pins) {
        this.history = history;
        this.level = level;
        this.nodes = nodes;
        this.localOf = new int[history.size()];
        Arrays.fill(localOf, -1);
        for (int i = 0; i < nodes.length; i++) {
            localOf[nodes[i]] = i;
        }
        ReadExplanations explanations = ReadExplanations.of(history);
        Map<Integer, Integer> localKeys = new LinkedHashMap<>();
        List<Observation> found = new ArrayList<>();
        List<Optional<Assumption.UnwrittenInitialValue>> rests = new ArrayList<>();
        List<String> impossible = new ArrayList<>();
        List<Optional<String>> notInitial = new ArrayList<>();
        InitialValueFacts initialFacts = InitialValueFacts.of(history, explanations);
        // Pins of keys predicate reads left out (numbered after the observations, PinnableReads).
        Map<List<Integer>, Integer> unreturnedPins = new java.util.HashMap<>();
        if (pins.keySet().stream().anyMatch(id -> id >= explanations.size())) {
            PinnableReads reads = PinnableReads.of(explanations);
            pins.forEach((id, source) -> {
                if (id >= explanations.size() && id < reads.size()) {
                    unreturnedPins.put(List.of(reads.transaction(id), reads.operation(id), reads.key(id)), source);
                }
            });
        }
        for (int node = 0; node < nodes.length; node++) {
            Transaction t = history.transaction(nodes[node]);
            for (int obs = explanations.firstOf(t.index()); obs < explanations.endOf(t.index()); obs++) {
                boolean initial = explanations.initialStateExplains(obs);
                Optional<String> ruledOut = Optional.empty();
                if (initial && explanations.writerCount(obs) > 0) {
                    // The initial value is one value: what other reads fixed of it may rule it out here.
                    ruledOut = initialFacts.rulesOut(explanations.key(obs), history.values().get(explanations.value(obs)), t,
                            other -> localOf[other] >= 0);
                }
                int[] candidates = candidates(explanations.writers(obs), initial && ruledOut.isEmpty());
                Integer pinned = pins.get(obs);
                boolean applied = pinned != null && (pinned == INITIAL || localOf[pinned] >= 0);
                if (applied) {
                    // The case assumes this source; a pin whose writer is not a node assumes
                    // nothing here (dropping it only widens the space).
                    candidates = new int[] {pinned == INITIAL ? INITIAL : localOf[pinned]};
                    ruledOut = Optional.empty();
                }
                if (candidates.length == 0) {
                    // Cannot happen (a writer is a node or outside); keep the initial state rather than nothing.
                    candidates = candidates(explanations.writers(obs), initial);
                    ruledOut = Optional.empty();
                }
                notInitial.add(ruledOut);
                int key = localKeys.computeIfAbsent(explanations.key(obs), k -> localKeys.size());
                found.add(new Observation(node, key, explanations.operation(obs), explanations.row(obs),
                        explanations.value(obs), candidates, applied));
                rests.add(explanations.initialStateExplains(obs) ? Optional.empty()
                        : UnwrittenPremises.of(history, t, explanations.operation(obs), explanations.row(obs)));
            }
            for (int op = 0; op < t.size(); op++) {
                if (t.kind(op) == OpKind.PREDICATE) {
                    unreturned(node, t, op, localKeys, found, impossible, initialFacts, rests, notInitial, localOf,
                            unreturnedPins);
                }
            }
            while (rests.size() < found.size()) {
                // A row a predicate read did not return may always have been the unknown initial one.
                rests.add(Optional.empty());
                notInitial.add(Optional.empty());
            }
            for (int op = 0; op < t.size(); op++) {
                if (t.kind(op) == OpKind.WRITE) {
                    localKeys.computeIfAbsent(t.key(op), k -> localKeys.size());
                }
            }
        }
        this.keyIds = localKeys.keySet().stream().mapToInt(Integer::intValue).toArray();
        this.installers = new int[keyIds.length];
        this.finalWrite = new int[keyIds.length][nodes.length];
        for (int[] row : finalWrite) {
            Arrays.fill(row, -1);
        }
        for (int node = 0; node < nodes.length; node++) {
            Transaction t = history.transaction(nodes[node]);
            for (int op = 0; op < t.size(); op++) {
                if (t.isFinalWrite(op)) {
                    int key = localKeys.get(t.key(op));
                    installers[key] |= 1 << node;
                    finalWrite[key][node] = op;
                }
            }
        }
        this.observations = List.copyOf(found);
        this.premises = List.copyOf(rests);
        this.notInitial = List.copyOf(notInitial);
        this.contradictions = List.copyOf(impossible);
        this.initialConflicts = initialConflicts();
        this.sessionAfter = new int[nodes.length];
        this.realTimeAfter = new int[nodes.length];
        for (Session session : history.sessions()) {
            int earlier = 0;
            for (int s = 0; s < session.size(); s++) {
                int node = localOf[session.transaction(s)];
                if (node >= 0) {
                    for (int e = 0; e < nodes.length; e++) {
                        if ((earlier & (1 << e)) != 0) {
                            sessionAfter[e] |= 1 << node;
                        }
                    }
                    earlier |= 1 << node;
                }
            }
        }
        if (level == IsolationLevel.STRICT_SERIALIZABLE) {
            for (int a = 0; a < nodes.length; a++) {
                for (int b = 0; b < nodes.length; b++) {
                    Transaction ta = history.transaction(nodes[a]);
                    Transaction tb = history.transaction(nodes[b]);
                    if (ta.endTime() != Transaction.NO_TIME && tb.startTime() != Transaction.NO_TIME
                            && ta.endTime() < tb.startTime()) {
                        realTimeAfter[a] |= 1 << b;
                    }
                }
            }
        }
    }

    /**
     * The space of the committed transactions among {@code transactions} (history indexes).
     *
     * @throws IllegalArgumentException if there are more than 30 of them (the search keeps sets of
     *                                  nodes in {@code int} masks)
     */
    static ExplanationSpace of(History history, IsolationLevel level, int[] transactions) {
        return of(history, level, transactions, Map.of());
    }

    /**
     * The space of the committed transactions among {@code transactions} in which each pinned
     * observation saw its pinned source: the explanations of one case of a case analysis over
     * reads' sources ({@link SourceCases}). A proof over it holds wherever the case's assumptions
     * do.
     *
     * @param pins per read of {@link PinnableReads} (an observation of {@link ReadExplanations}, by
     *             its number there, or a key a predicate read left out, numbered after them), the
     *             source assumed: a transaction index or {@link #INITIAL}; a pin whose reader or
     *             writer is not among the nodes is ignored
     * @throws IllegalArgumentException if there are more than 30 transactions
     */
    static ExplanationSpace of(History history, IsolationLevel level, int[] transactions, Map<Integer, Integer> pins) {
        int[] nodes = Arrays.stream(transactions).filter(t -> history.transaction(t).isCommitted()).sorted().distinct().toArray();
        if (nodes.length > 30) {
            throw new IllegalArgumentException("at most 30 transactions: " + nodes.length);
        }
        return new ExplanationSpace(history, level, nodes, pins);
    }

    private int[] candidates(int[] writers, boolean initial) {
        int[] out = new int[writers.length + 2];
        int n = 0;
        if (initial) {
            out[n++] = INITIAL;
        }
        boolean outside = false;
        for (int w : writers) {
            if (localOf[w] >= 0) {
                out[n++] = localOf[w];
            } else {
                outside = true;
            }
        }
        if (outside) {
            out[n++] = OUTSIDE;
        }
        return Arrays.copyOf(out, n);
    }

    /**
     * The keys of the predicate read at {@code op} that it did not return: each is an observation
     * of a version that does not satisfy the predicate. A key none of whose versions can be such is
     * a contradiction no cycle shows; it is recorded in words.
     */
    private void unreturned(int node, Transaction t, int op, Map<Integer, Integer> localKeys, List<Observation> found,
            List<String> impossible, InitialValueFacts initialFacts, List<Optional<Assumption.UnwrittenInitialValue>> rests,
            List<Optional<String>> notInitial, int[] localOf, Map<List<Integer>, Integer> pins) {
        PredicateRead read = t.predicate(op);
        ParsedWhere parsed = WherePredicate.parse(read.where());
        if (!(parsed instanceof WherePredicate where)) {
            return;
        }
        for (int key : history.keys().keysOfTable(read.table())) {
            if (read.valueReturnedFor(key) >= 0 || writesBefore(t, op, key)) {
                continue;
            }
            int initialValue = history.initialState().valueOf(key);
            boolean initial = initialValue == InitialState.UNKNOWN
                    || !where.evaluate(history.values().get(initialValue)).isTrue();
            // An unknown initial value that other reads fixed, and that the predicate selects, is not
            // the version this read left out.
            Optional<String> ruledOut = initialValue == InitialState.UNKNOWN
                    ? initialFacts.rulesOutUnreturned(key, where, other -> localOf[other] >= 0) : Optional.empty();
            initial &= ruledOut.isEmpty();
            List<Integer> writers = new ArrayList<>();
            boolean anyInstaller = false;
            KeyIndex index = history.index();
            for (int i = 0; i < index.writeCount(key); i++) {
                long ref = index.write(key, i);
                Transaction w = history.transaction(KeyIndex.transactionOf(ref));
                if (w.index() == t.index() || !w.isCommitted() || !w.isFinalWrite(KeyIndex.operationOf(ref))) {
                    continue;
                }
                anyInstaller |= localOf[w.index()] >= 0;
                if (!where.evaluate(history.values().get(w.value(KeyIndex.operationOf(ref)))).isTrue()) {
                    writers.add(w.index());
                }
            }
            if (!initial && writers.isEmpty()) {
                impossible.add(t.id() + "'s read of " + read.table() + " where " + read.where() + " did not return "
                        + history.keys().name(key) + ", but every version of " + history.keys().name(key)
                        + " satisfies the predicate" + ruledOut.map(r -> " (" + r + ")").orElse(""));
                continue;
            }
            if (!anyInstaller) {
                // No node installs the key: no anti-dependency can come of it, and a write-read edge
                // only from a node's version, which then is an installer.
                continue;
            }
            int[] candidates = candidates(writers.stream().mapToInt(Integer::intValue).toArray(), initial);
            Integer pinned = pins.get(List.of(t.index(), op, key));
            boolean applied = pinned != null && (pinned == INITIAL || localOf[pinned] >= 0);
            if (applied) {
                // As for a pinned item read: the case assumes this version; one by a transaction
                // that is not a node assumes nothing here.
                candidates = new int[] {pinned == INITIAL ? INITIAL : localOf[pinned]};
                ruledOut = Optional.empty();
            }
            int local = localKeys.computeIfAbsent(key, k -> localKeys.size());
            found.add(new Observation(node, local, op, UNRETURNED, -1, candidates, applied));
            // A row a predicate read did not return may have been the unknown initial one, unless ruled out.
            rests.add(Optional.empty());
            notInitial.add(ruledOut);
        }
    }

    private static boolean writesBefore(Transaction t, int op, int key) {
        for (int i = 0; i < op; i++) {
            if (t.kind(i) == OpKind.WRITE && t.key(i) == key) {
                return true;
            }
        }
        return false;
    }

    History history() {
        return history;
    }

    IsolationLevel level() {
        return level;
    }

    /** How many nodes. */
    int size() {
        return nodes.length;
    }

    /** The history index of a local node. */
    int transaction(int node) {
        return nodes[node];
    }

    /** How many keys the nodes read or write. */
    int keyCount() {
        return keyIds.length;
    }

    /** The history key id of a local key. */
    int keyId(int key) {
        return keyIds[key];
    }

    /** The nodes that install a version of a local key, as a mask. */
    int installers(int key) {
        return installers[key];
    }

    /** The operation index of a node's last write of a local key, or {@code -1}. */
    int finalWrite(int key, int node) {
        return finalWrite[key][node];
    }

    List<Observation> observations() {
        return observations;
    }

    /**
     * What observation {@code o} rests on, when the initial state is not among its sources only
     * because unknown initial values are read as unwritten (the history's default): then a
     * conclusion drawn from its source being a write rests on that reading. Empty otherwise.
     */
    Optional<Assumption.UnwrittenInitialValue> premise(int o) {
        return premises.get(o);
    }

    /**
     * Why observation {@code o} cannot be of its key's initial value, when the read alone allows it
     * but other reads of the key rule it out (the initial value is one value; a predicate read left
     * the key out): words for its justification. Empty otherwise.
     */
    Optional<String> notInitial(int o) {
        return notInitial.get(o);
    }

    /** The nodes after {@code node} in its session, as a mask. */
    int sessionAfter(int node) {
        return sessionAfter[node];
    }

    /** The nodes that started after {@code node} ended (strict serializability only), as a mask. */
    int realTimeAfter(int node) {
        return realTimeAfter[node];
    }

    /** Predicate reads that no version can explain, in words; such a history is violated without a cycle. */
    List<String> contradictions() {
        return contradictions;
    }

    /** The explanation space before any choice: every order open, every candidate possible, but what {@link #settle} rules out. */
    Facts unconstrained() {
        int[][] after = new int[keyIds.length][nodes.length];
        int[] remaining = new int[observations.size()];
        for (int o = 0; o < remaining.length; o++) {
            remaining[o] = (1 << observations.get(o).candidates().length) - 1;
        }
        return settle(new Facts(after, remaining));
    }

    /**
     * {@code facts} without the sources they rule out because an unknown initial value is one
     * value: once an observation can only have seen the initial value (by a case's assumption, or
     * because nothing else wrote what it saw), no observation of the key that disagrees with it
     * (another value, or a predicate read that left the key out and certainly selects the value)
     * saw the initial value too. Applied until nothing changes. Sound: each explanation removed
     * takes one initial value to be two. A source is never removed when it is the last one (that
     * would be an empty set of explanations, which {@link InitialValueFacts} and this rule, applied
     * from the start, never produce).
     */
    Facts settle(Facts facts) {
        Facts out = facts;
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int o = 0; o < initialConflicts.length; o++) {
                if (initialConflicts[o].length == 0 || out.remaining(o) != 1) {
                    continue;
                }
                for (int p : initialConflicts[o]) {
                    int remaining = out.remaining(p);
                    if ((remaining & 1) != 0 && remaining != 1) {
                        out = out.sources(p, remaining & ~1);
                        changed = true;
                    }
                }
            }
        }
        return out;
    }

    /**
     * The observation of the same key that, under {@code facts}, can only have seen the initial
     * value and disagrees with {@code o} having seen it: why {@link #settle} took the initial value
     * out of {@code o}'s sources. Empty if none.
     */
    OptionalInt initialTakenBy(Facts facts, int o) {
        for (int p = 0; p < initialConflicts.length; p++) {
            if (facts.remaining(p) == 1) {
                for (int q : initialConflicts[p]) {
                    if (q == o) {
                        return OptionalInt.of(p);
                    }
                }
            }
        }
        return OptionalInt.empty();
    }

    private int[][] initialConflicts() {
        int[][] out = new int[observations.size()][];
        for (int o = 0; o < out.length; o++) {
            List<Integer> conflicting = new ArrayList<>();
            for (int p = 0; p < out.length; p++) {
                if (p != o && initialMayExplain(o) && initialMayExplain(p) && disagree(o, p)) {
                    conflicting.add(p);
                }
            }
            out[o] = conflicting.stream().mapToInt(Integer::intValue).toArray();
        }
        return out;
    }

    private boolean initialMayExplain(int o) {
        Observation obs = observations.get(o);
        return obs.candidates().length > 0 && obs.candidates()[0] == INITIAL
                && history.initialState().valueOf(keyIds[obs.key()]) == InitialState.UNKNOWN;
    }

    /** Whether observations {@code o} and {@code p} of one key cannot both be of its initial version. */
    private boolean disagree(int o, int p) {
        Observation a = observations.get(o);
        Observation b = observations.get(p);
        if (a.key() != b.key() || a.isUnreturned() && b.isUnreturned()) {
            return false;
        }
        if (a.isUnreturned() || b.isUnreturned()) {
            Observation left = a.isUnreturned() ? a : b;
            Observation seen = a.isUnreturned() ? b : a;
            PredicateRead read = history.transaction(nodes[left.reader()]).predicate(left.operation());
            return WherePredicate.parse(read.where()) instanceof WherePredicate where
                    && where.certainlySelects(history.values().get(seen.value()));
        }
        return !ValueRelations.compatible(history.values().get(a.value()), history.values().get(b.value()));
    }
}
