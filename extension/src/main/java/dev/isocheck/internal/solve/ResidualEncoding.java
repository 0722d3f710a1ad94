package dev.isocheck.internal.solve;

import dev.isocheck.internal.graph.EdgeKind;
import dev.isocheck.internal.graph.HyperPolygraph;
import dev.isocheck.internal.graph.KnownGraph;
import dev.isocheck.internal.limit.Limits;
import dev.isocheck.internal.prune.EdgeList;
import dev.isocheck.internal.prune.KeyChains;
import dev.isocheck.internal.prune.PrunedPolygraph;
import dev.isocheck.internal.graph.IntList;
import java.util.HashMap;
import java.util.Map;
import org.sat4j.core.VecInt;
import org.sat4j.specs.ContradictionException;
import org.sat4j.specs.ISolver;

/**
 * The propositional part of what pruning left open: variables for exactly the undecided choices,
 * and the clauses that do not need the graph.
 *
 * <ul>
 *   <li>a variable per open pair of write chains of a key (which chain's versions come first);</li>
 *   <li>a WR variable per still-possible candidate of each observation with two or more, and the
 *       clause "at least one of them";</li>
 *   <li>for unknown initial values, a variable per group of equal observations ("T⊥ serves one of
 *       these"), implied by each of its WR literals, and "not both" for incompatible groups.</li>
 * </ul>
 *
 * <p>A pair variable is true when the pair's first chain (in the key's chain order) comes first.
 * The phases the solver tries first ({@link #preferredPhases()}) follow the preferred order (a
 * topological order of the pruned graph, guided by time), so a first model follows that order
 * wherever nothing forces otherwise: order-guided polarity.
 *
 * <p>Every edge a model can choose is listed once ({@link #edges(EdgeSink)}), with the literals
 * that put it there; the certain graph, the acyclicity theory, the narrow-cycle clauses and each
 * model's graph all read that one list.
 */
final class ResidualEncoding {

    /** At most this many passes of unit propagation in {@link #forcedValues}. */
    private static final int UNIT_PASSES = 20;

    private final PrunedPolygraph pruned;
    private final HyperPolygraph polygraph;
    private final KeyChains chains;
    private int[] rank;
    private final int[] chainPosition;
    private final IntList openKey = new IntList(64);
    private final IntList openFirst = new IntList(64);
    private final IntList openSecond = new IntList(64);
    private final Map<Long, Integer> pairVariable = new HashMap<>();
    /** By chain: {@link #chainsAfter}. */
    private final int[][] chainsAfter;
    /** By key: {@link #earliestChains}. */
    private final int[][] earliestChains;
    /** By key: {@link #chainsByRank}. */
    private final int[][] chainsByRank;
    private int edgeCount = -1;
    private int[] edgeFrom;
    private int[] edgeTo;
    private byte[] edgeKind;
    private int[] edgeA;
    private int[] edgeB;
    /**
     * By observation with two or more candidates left: where its live candidates start in
     * {@link #liveCandidate} and {@link #readVariables} (empty ranges for the others). Only live
     * candidates are listed: a read of a duplicated value on a hot row may have hundreds of
     * candidates, of which pruning leaves a few.
     */
    private final int[] variableStart;
    /** The index among its observation's candidates of each live candidate listed. */
    private final int[] liveCandidate;
    /** The WR variable of each live candidate listed. */
    private final int[] readVariables;
    private final IntList residualObservations = new IntList(64);
    private int variables;
    /** {@link #edgeBound()} once computed, else -1: the room {@link #collectEdges} allocates. */
    private long edgeBound = -1;
    /** Checked while edges are counted and listed. */
    private final Limits limits;

    ResidualEncoding(PrunedPolygraph pruned) {
        this(pruned, Limits.none());
    }

    /** The encoding of what {@code pruned} left open, checking {@code limits}' time while it lists edges. */
    ResidualEncoding(PrunedPolygraph pruned, Limits limits) {
        this.limits = limits;
        this.pruned = pruned;
        this.polygraph = pruned.polygraph();
        this.chains = pruned.chains();
        rank = new int[polygraph.known().nodeCount()];
        chainsAfter = new int[chains.chainCount()][];
        earliestChains = new int[polygraph.keyCount()][];
        chainsByRank = new int[polygraph.keyCount()][];
        chainPosition = new int[chains.chainCount()];
        java.util.Arrays.fill(chainPosition, -1);
        for (int k = 0; k < polygraph.keyCount(); k++) {
            int m = chains.chainCount(k);
            for (int i = 0; i < m; i++) {
                chainPosition[chains.chain(k, i)] = i;
            }
            for (int i = 0; i < m; i++) {
                // Past its window, real time orders every pair.
                int end = pruned.windowEnd(k, i);
                for (int j = i + 1; j < end; j++) {
                    if (pruned.isOpen(k, i, j)) {
                        openKey.add(k);
                        openFirst.add(i);
                        openSecond.add(j);
                        pairVariable.put(pairId(k, i, j), ++variables);
                    }
                }
            }
        }
        int observations = polygraph.observationCount();
        variableStart = new int[observations + 1];
        for (int o = 0; o < observations; o++) {
            variableStart[o + 1] = variableStart[o]
                    + (polygraph.candidateCount(o) > 1 && pruned.liveCount(o) > 1 ? pruned.liveCount(o) : 0);
        }
        liveCandidate = new int[variableStart[observations]];
        readVariables = new int[variableStart[observations]];
        for (int o = 0; o < observations; o++) {
            if (polygraph.candidateCount(o) < 2) {
                continue;
            }
            // Originally uncertain: its edges are chosen per model, even when one candidate is left.
            residualObservations.add(o);
            if (pruned.liveCount(o) > 1) {
                int at = variableStart[o];
                int count = polygraph.candidateCount(o);
                for (int i = pruned.nextLive(o, 0); i < count; i = pruned.nextLive(o, i + 1)) {
                    liveCandidate[at] = i;
                    readVariables[at++] = ++variables;
                }
            }
        }
    }

    /**
     * Takes {@code order} (every node once) as the preferred order: the ranks that
     * {@link #preferredPhases()} follows (a pair variable, true when the pair's first chain comes
     * first, is tried true when the order puts that chain's head before the other's), and the
     * numbering of the variables ({@link #numberByOrder}). Call it once only (the renumbering
     * takes pair variables to be numbered as the constructor numbered them), before
     * {@link #addTo(ISolver)}, {@link #preferredPhases()} and {@link #graphOf(boolean[])} with a
     * model.
     */
    void prefer(int[] order) {
        rank = new int[order.length];
        for (int p = 0; p < order.length; p++) {
            rank[order[p]] = p;
        }
        numberByOrder();
    }

    /**
     * Renumbers the variables so that sat4j, which decides unranked variables by number, first
     * decides the choices of the earliest transactions in the preferred order, as if replaying the
     * history: a cycle then forms soon after the choices that close it, and the search backjumps a
     * short way (numbered key by key, a conflict between an early and a late choice undid and
     * redid hundreds of thousands of decisions at 100k transactions).
     */
    private void numberByOrder() {
        int pairs = openKey.size();
        int reads = variables - pairs;
        long[] keyed = new long[variables];
        for (int p = 0; p < pairs; p++) {
            int k = openKey.get(p);
            int a = chains.node(chains.head(chains.chain(k, openFirst.get(p))));
            int b = chains.node(chains.head(chains.chain(k, openSecond.get(p))));
            keyed[p] = ((long) Math.max(rank[a], rank[b]) << 32) | (p + 1);
        }
        int at = pairs;
        for (int r = 0; r < residualObservations.size(); r++) {
            int o = residualObservations.get(r);
            for (int i = variableStart[o]; i < variableStart[o + 1]; i++) {
                keyed[at++] = ((long) rank[polygraph.reader(o)] << 32) | readVariables[i];
            }
        }
        if (at != pairs + reads) {
            throw new IllegalStateException("variables miscounted: " + at + " of " + variables);
        }
        java.util.Arrays.sort(keyed);
        int[] renamed = new int[variables + 1];
        for (int n = 0; n < variables; n++) {
            renamed[(int) keyed[n]] = n + 1;
        }
        pairVariable.replaceAll((id, v) -> renamed[v]);
        for (int e = 0; e < edgeCount; e++) {
            edgeA[e] = edgeA[e] == 0 ? 0 : Integer.signum(edgeA[e]) * renamed[Math.abs(edgeA[e])];
            edgeB[e] = edgeB[e] == 0 ? 0 : Integer.signum(edgeB[e]) * renamed[Math.abs(edgeB[e])];
        }
        for (int i = 0; i < readVariables.length; i++) {
            readVariables[i] = renamed[readVariables[i]];
        }
    }

    private long pairId(int key, int i, int j) {
        return ((long) key << 40) | ((long) i << 20) | j;
    }

    /** How many pairs of chains are open. */
    int openPairCount() {
        return openKey.size();
    }

    /** Whether nothing is left to choose: the pruned graph is the answer. */
    boolean isEmpty() {
        return variableCount() == 0;
    }

    /** Adds the clauses to {@code solver}; throws when they are contradictory already. */
    void addTo(ISolver solver) throws ContradictionException {
        solver.newVar(variables + polygraph.initialGroupCount());
        for (int[] clause : clauses()) {
            solver.addClause(new VecInt(clause));
        }
    }

    /** The clauses {@link #addTo} adds, in DIMACS form, for a solver other than sat4j. */
    java.util.List<int[]> clauseList() {
        return clauses();
    }

    /** The clauses {@link #addTo} adds, in that order. */
    private java.util.List<int[]> clauses() {
        java.util.List<int[]> clauses = new java.util.ArrayList<>();
        int groups = polygraph.initialGroupCount();
        int groupBase = variables;
        for (int at = 0; at < residualObservations.size(); at++) {
            int o = residualObservations.get(at);
            if (pruned.liveCount(o) > 1) {
                clauses.add(java.util.Arrays.copyOfRange(readVariables, variableStart[o], variableStart[o + 1]));
            }
        }
        for (int g = 0; g < groups; g++) {
            int served = groupBase + g + 1;
            for (int o : polygraph.initialGroup(g)) {
                // T⊥, when a candidate, is listed first.
                if (!pruned.isLive(o, 0)) {
                    continue;
                }
                int literal = readsFrom(o, 0);
                clauses.add(literal == 0 ? new int[] {served} : new int[] {-literal, served});
            }
        }
        int[] incompatible = polygraph.incompatibleInitialGroups();
        for (int i = 0; i < incompatible.length; i += 2) {
            clauses.add(new int[] {-(groupBase + incompatible[i] + 1), -(groupBase + incompatible[i + 1] + 1)});
        }
        return clauses;
    }

    /**
     * The values unit propagation forces from {@link #clauses()} and {@code extra} (by variable:
     * {@code 1} true, {@code -1} false, {@code 0} open), or {@code null} when it derives a
     * contradiction (left to the solver, which finds it too). What the solver knows at decision
     * level 0 before its search, computed here so that {@link #narrowCycleClauses} can treat the
     * edges of forced literals as certain.
     */
    int[] forcedValues(java.util.List<int[]> extra) {
        java.util.List<int[]> all = clauses();
        all.addAll(extra);
        int[] value = new int[variableCount() + 1];
        boolean changed = true;
        // Passes over all clauses until nothing changes, at most UNIT_PASSES: forcing less than
        // propagation could only leaves more to the search.
        for (int pass = 0; pass < UNIT_PASSES && changed; pass++) {
            changed = false;
            for (int[] clause : all) {
                int open = 0;
                int last = 0;
                boolean satisfied = false;
                for (int literal : clause) {
                    int v = value[Math.abs(literal)];
                    if (v == 0) {
                        open++;
                        last = literal;
                    } else if (v == Integer.signum(literal)) {
                        satisfied = true;
                        break;
                    }
                }
                if (satisfied) {
                    continue;
                }
                if (open == 0) {
                    return null;
                }
                if (open == 1) {
                    value[Math.abs(last)] = Integer.signum(last);
                    changed = true;
                }
            }
        }
        return value;
    }

    /**
     * The graph every model has, given {@code forced} (see {@link #forcedValues}; {@code null}:
     * nothing forced): the edges whose literals are all certain or forced true. For snapshot
     * isolation, its {@link DependencyGraph#snapshotOf snapshot graph}.
     */
    DependencyGraph forcedGraph(int[] forced, boolean snapshot) {
        return graphWhere(snapshot, literal -> forcedTrue(literal, forced));
    }

    /**
     * The graph of the edges whose literals all satisfy {@code holds} (for {@code snapshot}, its
     * {@link DependencyGraph#snapshotOf snapshot graph}, built directly: without the intermediate
     * graph, millions of edges at 100k transactions), sealed.
     */
    private DependencyGraph graphWhere(boolean snapshot, java.util.function.IntPredicate holds) {
        ensureEdges();
        int transactions = polygraph.known().nodeCount();
        // Counted first, so that the graph has room for exactly its edges: the certain graph
        // has a small part of the encoding's, and a model's graph not all of them either.
        long room = 0;
        for (int e = 0; e < edgeCount; e++) {
            if (holds.test(edgeA[e]) && holds.test(edgeB[e])) {
                // Non-read-write edges are doubled in a snapshot graph.
                room += snapshot && edgeKind[e] != EdgeKind.READ_WRITE.ordinal() ? 2 : 1;
            }
        }
        if (room > dev.isocheck.spi.JavaArrays.MAX_LENGTH - 2L * transactions) {
            throw new IllegalStateException("more edges than an array holds: " + room);
        }
        DependencyGraph graph = snapshot
                ? DependencyGraph.snapshotOf(transactions, (int) room)
                : new DependencyGraph(transactions, (int) room);
        edges((from, to, kind, a, b) -> {
            if (holds.test(a) && holds.test(b)) {
                if (snapshot) {
                    graph.addToSnapshot(from, to, kind, a, b);
                } else {
                    graph.add(from, to, kind, a, b);
                }
            }
        });
        graph.seal();
        return graph;
    }

    private static boolean forcedTrue(int literal, int[] forced) {
        return literal == 0 || forced != null && forced[Math.abs(literal)] == Integer.signum(literal);
    }

    private static boolean forcedFalse(int literal, int[] forced) {
        return literal != 0 && forced != null && forced[Math.abs(literal)] == -Integer.signum(literal);
    }

    /**
     * The phase each variable should be tried with first: pair variables as the preferred order
     * has them, and for each read the candidate that comes last before the reader in the preferred
     * order (or the earliest, when none precedes it) true, the others false.
     */
    boolean[] preferredPhases() {
        boolean[] positive = new boolean[variableCount() + 1];
        for (int p = 0; p < openKey.size(); p++) {
            int k = openKey.get(p);
            int a = chains.node(chains.head(chains.chain(k, openFirst.get(p))));
            int b = chains.node(chains.head(chains.chain(k, openSecond.get(p))));
            positive[pairVariable.get(pairId(k, openFirst.get(p), openSecond.get(p)))] = rank[a] < rank[b];
        }
        for (int at = 0; at < residualObservations.size(); at++) {
            int o = residualObservations.get(at);
            if (pruned.liveCount(o) < 2) {
                continue;
            }
            int readerRank = rank[polygraph.reader(o)];
            int best = -1;
            int count = polygraph.candidateCount(o);
            for (int i = pruned.nextLive(o, 0); i < count; i = pruned.nextLive(o, i + 1)) {
                int r = rank[polygraph.candidate(o, i)];
                if (best < 0) {
                    best = i;
                    continue;
                }
                int b = rank[polygraph.candidate(o, best)];
                boolean before = r < readerRank;
                boolean bestBefore = b < readerRank;
                if (before && (!bestBefore || r > b) || !before && !bestBefore && r < b) {
                    best = i;
                }
            }
            positive[readsFrom(o, best)] = true;
        }
        return positive;
    }

    /** The literal "observation {@code o} reads from its {@code i}-th candidate", or 0 when that is certain. */
    private int readsFrom(int o, int i) {
        for (int at = variableStart[o]; at < variableStart[o + 1]; at++) {
            if (liveCandidate[at] == i) {
                return readVariables[at];
            }
        }
        return 0;
    }

    /**
     * The literal "chain at position {@code i} precedes chain at position {@code j}" on {@code key}:
     * 0 when decided that way, {@link Integer#MIN_VALUE} when decided the other way.
     */
    private int chainBefore(int key, int i, int j) {
        if (i > j) {
            int reverse = chainBefore(key, j, i);
            return reverse == 0 ? Integer.MIN_VALUE : reverse == Integer.MIN_VALUE ? 0 : -reverse;
        }
        if (!pruned.isOpen(key, i, j)) {
            return pruned.firstBefore(key, i, j) ? 0 : Integer.MIN_VALUE;
        }
        return pairVariable.get(pairId(key, i, j));
    }

    /** Receives the edges of the encoding, each with the (at most two) literals that must all hold for it; {@code 0}: none. */
    interface EdgeSink {
        void edge(int from, int to, EdgeKind kind, int literalA, int literalB);
    }

    /**
     * The graph a model (indexed by variable, {@code true} = assigned true; {@code null} for no
     * model: only the certain edges) chooses: the pruned graph's edges, the chosen orders of open
     * chain pairs with their read-write edges, and the chosen reads with theirs. Without a model,
     * reads left with one candidate still add their edges over the decided pairs: the pruned
     * graph alone lacks them.
     */
    DependencyGraph graphOf(boolean[] model) {
        return graphWhere(false, literal -> holds(literal, model));
    }

    /**
     * {@link #graphOf(boolean[])}'s {@link DependencyGraph#snapshotOf snapshot graph}, built directly: the
     * same graph without the intermediate one (millions of edges at 100k transactions).
     */
    DependencyGraph snapshotGraphOf(boolean[] model) {
        return graphWhere(true, literal -> holds(literal, model));
    }

    /**
     * Every edge some model can choose, each with the literals under which it is there: what
     * {@link #graphOf(boolean[])} filters by a model, and what the acyclicity theory watches.
     */
    void edges(EdgeSink sink) {
        ensureEdges();
        EdgeKind[] kinds = EdgeKind.values();
        for (int e = 0; e < edgeCount; e++) {
            sink.edge(edgeFrom[e], edgeTo[e], kinds[edgeKind[e]], edgeA[e], edgeB[e]);
        }
    }

    private void ensureEdges() {
        if (edgeCount < 0) {
            collectEdges();
        }
    }

    /** Lists every edge once: the literals do not depend on the preferred order, only their numbers do. */
    private void collectEdges() {
        edgeCount = 0;
        // Room for every edge at once: no array is copied to grow (a copy holds both the old and
        // the new array, half as much again at the peak), and none is larger than it must be.
        long bound = edgeBound();
        if (bound > dev.isocheck.spi.JavaArrays.MAX_LENGTH) {
            throw new IllegalStateException("more edges than an array holds: " + bound);
        }
        int room = (int) Math.max(16, bound);
        edgeFrom = new int[room];
        edgeTo = new int[room];
        edgeKind = new byte[room];
        edgeA = new int[room];
        edgeB = new int[room];
        enumerateEdges((from, to, kind, a, b) -> {
            if ((edgeCount & 0xfffff) == 0) {
                limits.checkTime();
            }
            if (edgeCount == edgeFrom.length) {
                int grown = edgeCount * 2;
                edgeFrom = java.util.Arrays.copyOf(edgeFrom, grown);
                edgeTo = java.util.Arrays.copyOf(edgeTo, grown);
                edgeKind = java.util.Arrays.copyOf(edgeKind, grown);
                edgeA = java.util.Arrays.copyOf(edgeA, grown);
                edgeB = java.util.Arrays.copyOf(edgeB, grown);
            }
            edgeFrom[edgeCount] = from;
            edgeTo[edgeCount] = to;
            edgeKind[edgeCount] = (byte) kind.ordinal();
            edgeA[edgeCount] = a;
            edgeB[edgeCount] = b;
            edgeCount++;
        });
    }

    private void enumerateEdges(EdgeSink sink) {
        EdgeList edges = pruned.edges();
        for (int e = 0; e < edges.size(); e++) {
            sink.edge(edges.from(e), edges.to(e), edges.kind(e), 0, 0);
        }
        for (int p = 0; p < openKey.size(); p++) {
            int k = openKey.get(p);
            int i = openFirst.get(p);
            int j = openSecond.get(p);
            int iFirst = chainBefore(k, i, j);
            addOrder(sink, chains.chain(k, i), chains.chain(k, j), iFirst);
            addOrder(sink, chains.chain(k, j), chains.chain(k, i), -iFirst);
        }
        for (int at = 0; at < residualObservations.size(); at++) {
            int o = residualObservations.get(at);
            int count = polygraph.candidateCount(o);
            for (int c = pruned.nextLive(o, 0); c < count; c = pruned.nextLive(o, c + 1)) {
                addRead(sink, o, polygraph.candidate(o, c), readsFrom(o, c));
            }
        }
    }

    /**
     * How many edges {@link #edges(EdgeSink)} will list, at most, counted without listing them:
     * what {@link #enumerateEdges} adds, per open pair and per live candidate, less nothing (a
     * read-write edge from a reader to itself is left out there and counted here). Linear in the
     * open pairs and the candidates; computes the chains each read needs edges to, which listing
     * the edges needs anyway. What {@link SatChecker} weighs against its memory budget before
     * building anything of that size.
     */
    long edgeBound() {
        if (edgeBound >= 0) {
            return edgeBound;
        }
        long count = pruned.edges().size();
        for (int p = 0; p < openKey.size(); p++) {
            int k = openKey.get(p);
            count += 2 + chains.readerCount(chains.tail(chains.chain(k, openFirst.get(p))))
                    + chains.readerCount(chains.tail(chains.chain(k, openSecond.get(p))));
        }
        for (int at = 0; at < residualObservations.size(); at++) {
            if ((at & 0xfff) == 0) {
                limits.checkTime();
            }
            int o = residualObservations.get(at);
            int key = polygraph.key(o);
            int candidates = polygraph.candidateCount(o);
            for (int c = pruned.nextLive(o, 0); c < candidates; c = pruned.nextLive(o, c + 1)) {
                int writer = polygraph.candidate(o, c);
                if (writer == KnownGraph.INITIAL) {
                    count += chains.initialChain(key) >= 0 ? 1 : earliestChains(key).length;
                    continue;
                }
                int slot = chains.slotOf(key, writer);
                int chain = chains.chainOf(slot);
                count += 1 + (chains.next(slot) >= 0 ? 1
                        : chainPosition[chain] < 0 ? earliestChains(key).length : chainsAfter(key, chain).length);
            }
        }
        edgeBound = count;
        return count;
    }

    private void addOrder(EdgeSink sink, int first, int second, int literal) {
        int tail = chains.tail(first);
        int head = chains.node(chains.head(second));
        sink.edge(chains.node(tail), head, EdgeKind.WRITE_WRITE, literal, 0);
        for (int i = 0; i < chains.readerCount(tail); i++) {
            int reader = chains.reader(tail, i);
            if (reader != head) {
                sink.edge(reader, head, EdgeKind.READ_WRITE, literal, 0);
            }
        }
    }

    /** The edges of observation {@code o} reading from {@code writer}, under {@code literal}. */
    private void addRead(EdgeSink sink, int o, int writer, int literal) {
        int reader = polygraph.reader(o);
        int key = polygraph.key(o);
        if (writer == KnownGraph.INITIAL) {
            int first = chains.initialChain(key);
            if (first >= 0) {
                addReadWrite(sink, reader, chains.node(chains.head(first)), literal, 0);
            } else {
                for (int c : earliestChains(key)) {
                    addReadWrite(sink, reader, chains.node(chains.head(chains.chain(key, c))), literal, 0);
                }
            }
            return;
        }
        sink.edge(writer, reader, EdgeKind.WRITE_READ, literal, 0);
        int slot = chains.slotOf(key, writer);
        int following = chains.next(slot);
        if (following >= 0) {
            addReadWrite(sink, reader, chains.node(following), literal, 0);
            return;
        }
        int chain = chains.chainOf(slot);
        int position = chainPosition[chain];
        if (position < 0) {
            // The chain continuing T⊥ precedes every other: the same edges as a read of T⊥.
            for (int c : earliestChains(key)) {
                addReadWrite(sink, reader, chains.node(chains.head(chains.chain(key, c))), literal, 0);
            }
            return;
        }
        for (int c : chainsAfter(key, chain)) {
            addReadWrite(sink, reader, chains.node(chains.head(chains.chain(key, c))), literal, chainBefore(key, position, c));
        }
    }

    /**
     * The positions of the chains of {@code key} that a read of the last version of chain
     * {@code chain} needs read-write edges to: every chain whose order after it is open, and of
     * those certainly after it only the first ones. A chain {@code C} certainly after another
     * {@code K} certainly after {@code chain} needs no edge: the edge to {@code K}'s head, then
     * {@code K}'s versions and the certain order, already lead to {@code C}'s head (in the
     * snapshot graph too: those are base edges). Without this, a key written by a hundred chains
     * gives each of its reads a hundred edges (hundreds of millions at 100k transactions with
     * duplicate values).
     */
    private int[] chainsAfter(int key, int chain) {
        if (chainsAfter[chain] == null) {
            orderChains(key);
        }
        return chainsAfter[chain];
    }

    /**
     * The positions of the chains of {@code key} (those ordered by choice) that no other of them
     * certainly precedes, as far as pruning decided: a read of T⊥'s version, or of the last
     * version of the chain continuing it, needs read-write edges to these heads only. Every other
     * chain {@code C} is certainly after one of them, {@code F}, so the edge to {@code F}'s head
     * under the same literal, then {@code F}'s versions and the certain order (base edges, also
     * in the snapshot graph) already lead to {@code C}'s head: the same reachability, so the same
     * cycles. Without this, each such read had an edge to every chain of its key: 11 million of the
     * 14 million edges of ycsb-dup at 100k transactions (snapshot isolation), where reads of the
     * initial value are candidates of most reads of a duplicated value.
     */
    private int[] earliestChains(int key) {
        if (earliestChains[key] == null) {
            orderChains(key);
        }
        return earliestChains[key];
    }

    /**
     * Computes {@link #chainsAfter} for every chain of {@code key} and {@link #earliestChains} of
     * the key at once. For each chain, the chains whose order with it is open are kept, and of
     * those certainly after it, the first ones: taken in rank order (pruning's topological order,
     * in which a chain comes after every chain certainly before it), each is kept unless a kept
     * one certainly precedes it. The candidates are the pairs pruning stored with the chain (its
     * window and the windows that hold it) and, past its window, only the first chains real time
     * puts after it ({@link PrunedPolygraph#successorsEnd}): the others start after one of those
     * ends, so they are reached through it. Linear in the key's stored pairs and the candidates'
     * comparisons, not quadratic in its chains (3,400 chains per hot key at 100k transactions).
     */
    private void orderChains(int key) {
        int[] byRank = chainsByRank(key);
        int m = byRank.length;
        int[] rankIndex = new int[m];
        for (int r = 0; r < m; r++) {
            rankIndex[byRank[r]] = r;
        }
        IntList open = new IntList(16);
        IntList after = new IntList(16);
        for (int p = 0; p < m; p++) {
            open.truncate(0);
            after.truncate(0);
            for (int q = pruned.reachBack(key, p); q < p; q++) {
                if (pruned.windowEnd(key, q) > p) {
                    if (pruned.isOpen(key, q, p)) {
                        open.add(q);
                    } else if (!pruned.firstBefore(key, q, p)) {
                        after.add(q);
                    }
                }
            }
            int windowEnd = pruned.windowEnd(key, p);
            for (int q = p + 1; q < windowEnd; q++) {
                if (pruned.isOpen(key, p, q)) {
                    open.add(q);
                } else if (pruned.firstBefore(key, p, q)) {
                    after.add(q);
                }
            }
            for (int q = windowEnd; q < pruned.successorsEnd(key, p); q++) {
                after.add(q);
            }
            int[] kept = firsts(key, after, rankIndex);
            int[] result = new int[open.size() + kept.length];
            for (int i = 0; i < open.size(); i++) {
                result[i] = open.get(i);
            }
            System.arraycopy(kept, 0, result, open.size(), kept.length);
            chainsAfter[chains.chain(key, p)] = byRankOf(result, rankIndex);
        }
        after.truncate(0);
        for (int q = 0; q < pruned.earliestEnd(key); q++) {
            after.add(q);
        }
        earliestChains[key] = firsts(key, after, rankIndex);
    }

    /**
     * Of the positions {@code candidates} of {@code key}'s chains, in rank order, each unless an
     * earlier one kept certainly precedes it.
     */
    private int[] firsts(int key, IntList candidates, int[] rankIndex) {
        int[] sorted = byRankOf(candidates.toArray(), rankIndex);
        int kept = 0;
        for (int c : sorted) {
            boolean implied = false;
            for (int k = 0; k < kept && !implied; k++) {
                implied = certainlyBefore(key, sorted[k], c);
            }
            if (!implied) {
                sorted[kept++] = c;
            }
        }
        return java.util.Arrays.copyOf(sorted, kept);
    }

    /** Whether chain position {@code a} of {@code key} certainly comes before position {@code b}. */
    private boolean certainlyBefore(int key, int a, int b) {
        if (a < b) {
            return !pruned.isOpen(key, a, b) && pruned.firstBefore(key, a, b);
        }
        return !pruned.isOpen(key, b, a) && !pruned.firstBefore(key, b, a);
    }

    /** {@code positions} sorted by their rank index (in place; returned). */
    private static int[] byRankOf(int[] positions, int[] rankIndex) {
        long[] keyed = new long[positions.length];
        for (int i = 0; i < positions.length; i++) {
            keyed[i] = ((long) rankIndex[positions[i]] << 32) | positions[i];
        }
        java.util.Arrays.sort(keyed);
        for (int i = 0; i < positions.length; i++) {
            positions[i] = (int) keyed[i];
        }
        return positions;
    }

    /**
     * The positions of the chains of {@code key} by their heads' rank in pruning's topological
     * order (by position without one), computed once per key: {@link #chainsAfter} and
     * {@link #earliestChains} take them in this order, and sorting them again for each chain of
     * the key cost a sort of a hundred chains for each of hundreds of thousands of chains.
     */
    private int[] chainsByRank(int key) {
        int[] cached = chainsByRank[key];
        if (cached != null) {
            return cached;
        }
        int[] order = pruned.topologicalRank();
        int m = chains.chainCount(key);
        long[] byRank = new long[m];
        for (int c = 0; c < m; c++) {
            int head = chains.node(chains.head(chains.chain(key, c)));
            byRank[c] = ((long) (order == null ? 0 : order[head]) << 32) | c;
        }
        java.util.Arrays.sort(byRank);
        int[] result = new int[m];
        for (int i = 0; i < m; i++) {
            result[i] = (int) byRank[i];
        }
        chainsByRank[key] = result;
        return result;
    }

    /**
     * VeriStrong's narrow cycles: an edge that some literal, or pair of literals, puts in the graph
     * while the pruned graph already leads from its target back to its source closes a cycle
     * whenever it is there, so "not that literal" (width one: pruning leaves a few, through reads
     * it did not decide) or "not both" (width two: typically a read's candidate with the order of
     * that candidate's chain before another, whose read-write edge would point back) holds in
     * every model. Clauses the search would otherwise learn one conflict at a time, before it
     * starts.
     *
     * <p>{@code reaches} is the closure of the graph every model has given {@code forced}
     * ({@link #forcedGraph}; {@code null}: only the certain graph, every edge without a literal,
     * which pruning's own graph does not all have: reads left one candidate add read-write edges
     * over decided pairs); for snapshot isolation, of its
     * {@link DependencyGraph#snapshotOf snapshot graph}. An edge whose literals are not all
     * forced true closes a cycle when its target reaches its source, and the clause is "not all
     * of its literals that are not forced true" (those are true in every model); edges with a
     * literal forced false are never there.
     */
    java.util.List<int[]> narrowCycleClauses(dev.isocheck.spi.Reachability reaches, int[] forced) {
        java.util.Set<Long> added = new java.util.HashSet<>();
        java.util.List<int[]> clauses = new java.util.ArrayList<>();
        boolean snapshot = pruned.isSnapshot();
        int n = polygraph.known().nodeCount();
        edges((from, to, kind, a0, b0) -> {
            int a = forcedTrue(a0, forced) ? 0 : a0;
            int b = forcedTrue(b0, forced) ? 0 : b0;
            if (a == 0 && b == 0 || forcedFalse(a, forced) || forcedFalse(b, forced)) {
                return;
            }
            boolean closes;
            if (!snapshot) {
                closes = from == to || reaches.reaches(to, from);
            } else if (kind == EdgeKind.READ_WRITE) {
                // from -> to+n closes a cycle when to+n leads back to from.
                closes = reaches.reaches(to + n, from);
            } else {
                // from -> to and from+n -> to: a cycle when to leads back to from+n (or to from,
                // which leads on to from+n).
                closes = from == to || reaches.reaches(to, from + n);
            }
            if (closes) {
                int x = a == 0 ? b : a;
                int y = a == 0 ? 0 : b;
                long id = y == 0 ? x : Math.min(x, y) * (1L << 32) + (Math.max(x, y) & 0xffffffffL);
                if (added.add(id)) {
                    clauses.add(y == 0 || y == x ? new int[] {-x} : new int[] {-x, -y});
                }
            }
        });
        return clauses;
    }

    private static void addReadWrite(EdgeSink sink, int reader, int overwriter, int literalA, int literalB) {
        if (reader != overwriter) {
            sink.edge(reader, overwriter, EdgeKind.READ_WRITE, literalA, literalB);
        }
    }

    /** Whether {@code literal} is true in {@code model}; without a model only the certain literal 0 is. */
    private static boolean holds(int literal, boolean[] model) {
        if (model == null) {
            return literal == 0;
        }
        return literal == 0 || (literal > 0 ? model[literal] : !model[-literal]);
    }

    int variableCount() {
        return variables + polygraph.initialGroupCount();
    }
}
