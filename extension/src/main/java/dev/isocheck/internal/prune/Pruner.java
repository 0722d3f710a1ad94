package dev.isocheck.internal.prune;

import dev.isocheck.GpuMode;
import dev.isocheck.internal.limit.LimitExceededException;
import dev.isocheck.internal.limit.Limits;
import dev.isocheck.spi.Dag;
import dev.isocheck.spi.Reachability;
import dev.isocheck.internal.graph.EdgeKind;
import dev.isocheck.internal.graph.HyperPolygraph;
import dev.isocheck.internal.graph.IntList;
import dev.isocheck.internal.graph.KnownGraph;
import dev.isocheck.internal.graph.UnreturnedRows;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Prunes a {@link HyperPolygraph} to a fixpoint (or nearly, see {@link #STOP_FRACTION}) with
 * reachability (VeriStrong's cases I–III over Cobra's combined writes and coalesced constraints).
 *
 * <p>Input: the polygraph (known graph and constraints) and whether the level is snapshot
 * isolation. Output: a {@link PrunedPolygraph}, the constraints no reachability argument could
 * decide, over a known graph grown by every decision that was certain, or the conflict that proves
 * the history violates the level.
 *
 * <p>Each round computes the closure of the known graph once ({@link ReachabilityEngines}), then:
 * <ul>
 *   <li><b>Chain pairs (cases I and III).</b> For two chains {@code X}, {@code Y} of a key, "X
 *       before Y" adds {@code tail(X) -ww-> head(Y)} and {@code r -rw-> head(Y)} for each certain
 *       reader {@code r} of {@code tail(X)}. It is infeasible when {@code head(Y)} already reaches
 *       {@code tail(X)} or one of those readers. When one order is infeasible the other is
 *       certain and its edges join the known graph; when both are, the history is violated.</li>
 *   <li><b>Read candidates (case II).</b> A candidate writer {@code c} of an observation by
 *       {@code r} is dropped when {@code r} reaches {@code c}, or when some other writer
 *       {@code w} of the key lies between them ({@code c} reaches {@code w}, {@code w} reaches
 *       {@code r}: {@code r} would have read {@code w}'s version or a later one). T⊥ is dropped
 *       when any other writer reaches {@code r}. A last candidate becomes a known edge. The
 *       writers {@code w} are found once per read, as the latest writers before {@code r}, not
 *       once per candidate; reads are taken key by key, on several threads when many.</li>
 * </ul>
 *
 * <p><b>Soundness.</b> Every edge of the known graph is in the dependency graph of every valid
 * order, so an option that closes a cycle with it is impossible, and its alternative is certain.
 * Decisions within a round use the closure from the round's start: a subset of what is known, so
 * they are still implied. Nothing is ever decided from time unless the level is strict (real-time
 * edges are in the known graph only then).
 *
 * <p><b>Snapshot isolation.</b> The graph whose cycles are forbidden is the induced one,
 * {@code (SO ∪ WR ∪ WW) ; RW?}: a read-write edge counts only composed with a non-read-write edge
 * before it. The closure is taken over a graph with two nodes per transaction that has exactly
 * those paths without composing edges ({@link InducedReachability}); "X before Y" is
 * infeasible when {@code head(Y)} reaches {@code tail(X)}, or reaches (or is) a base predecessor of
 * a certain reader of {@code tail(X)}. A read candidate is dropped when the reader reaches the
 * writer, or when a writer the candidate reaches reaches (or is) a base predecessor of the reader.
 */
public final class Pruner {

    /** Chain pairs beyond this, over all keys, are more than the engine holds in memory. */
    static final long PAIR_LIMIT = 200_000_000L;

    static final byte OPEN = 0;
    static final byte FIRST_BEFORE = 1;
    static final byte SECOND_BEFORE = 2;

    private final HyperPolygraph polygraph;
    private final KeyChains chains;
    private final boolean snapshot;
    /** From this many pairs of chains on, rounds decide them on several threads. */
    private final long parallelPairs;
    /**
     * Whether to decide by the definitions, one closure query per base predecessor and per other
     * writer (the reference the faster tests are compared against in tests), rather than through
     * the equivalent single queries and latest writers.
     */
    private final boolean direct;
    private final int nodes;
    private final EdgeList edges = new EdgeList();
    /** Which pairs of chains are stored in {@link #pairs}; real time orders the others. */
    private final ChainPairs chainPairs;
    private final byte[] pairs;
    private final ReadCandidates reads;
    /** With real time (and not by the definitions): the writers' times, for read pruning's shortcuts; else {@code null}. */
    private final WriterTimes times;
    /** The observations ordered by key, then by index: the order reads are pruned in. */
    private final int[] byKey;
    private final List<PrunedPolygraph.Conflict> conflicts = new ArrayList<>();
    private Round round;
    private int rounds;
    /** How each round's closure is computed: the engine {@link ReachabilityEngines} selects, unless a test says otherwise. */
    private final java.util.function.Function<Dag, Reachability> closures;
    /** Checked between the steps of each round. */
    private final Limits limits;

    private Pruner(HyperPolygraph polygraph, ChainPairs chainPairs, boolean snapshot, long parallelPairs, boolean direct,
            java.util.function.Function<Dag, Reachability> closures, Limits limits) {
        this.closures = closures;
        this.limits = limits;
        this.parallelPairs = parallelPairs;
        this.direct = direct;
        this.polygraph = polygraph;
        this.chainPairs = chainPairs;
        this.chains = chainPairs.chains();
        this.snapshot = snapshot;
        this.nodes = polygraph.known().nodeCount();
        int keys = polygraph.keyCount();
        if (chainPairs.count() > PAIR_LIMIT) {
            throw new TooLargeException(chainPairs.count() + " pairs of write chains to order (more than " + PAIR_LIMIT + ")"
                    + (polygraph.known().hasRealTime() ? "" : " without real-time order"));
        }
        pairs = new byte[(int) chainPairs.count()];
        int observations = polygraph.observationCount();
        reads = new ReadCandidates(polygraph);
        times = chainPairs.byTime() && !direct ? new WriterTimes(polygraph) : null;
        // Observations key by key (counting sort, stable): read pruning queries the closure
        // between a key's writers and its readers, so taking a key's reads together keeps those
        // writers' closure rows in the cache (in observation order, which hops from key to key,
        // nearly every query missed it).
        int[] keyStart = new int[keys + 1];
        for (int o = 0; o < observations; o++) {
            keyStart[polygraph.key(o) + 1]++;
        }
        for (int k = 0; k < keys; k++) {
            keyStart[k + 1] += keyStart[k];
        }
        byKey = new int[observations];
        for (int o = 0; o < observations; o++) {
            byKey[keyStart[polygraph.key(o)]++] = o;
        }
    }

    /** Thrown when a history has more constraints than the engine can hold; the caller answers Unknown. */
    public static final class TooLargeException extends RuntimeException {
        TooLargeException(String message) {
            super(message);
        }
    }

    /**
     * Prunes {@code polygraph} to a fixpoint, or until a round adds at most one edge in
     * {@link #STOP_FRACTION} of the graph's, with closures from the engine {@link GpuMode#AUTO}
     * selects.
     *
     * @param snapshot whether the level is snapshot isolation (else serializable; strict when the
     *                 known graph has real-time edges)
     * @return never {@code null}
     * @throws TooLargeException when the constraints would not fit in memory
     */
    public static PrunedPolygraph prune(HyperPolygraph polygraph, boolean snapshot) {
        return prune(polygraph, snapshot, GpuMode.AUTO);
    }

    /**
     * As {@link #prune(HyperPolygraph, boolean)}, with each round's closure from the engine that
     * {@link ReachabilityEngines} selects in {@code gpu}.
     *
     * @return never {@code null}
     * @throws TooLargeException when the constraints would not fit in memory
     */
    public static PrunedPolygraph prune(HyperPolygraph polygraph, boolean snapshot, GpuMode gpu) {
        return prune(polygraph, snapshot, gpu, Limits.none());
    }

    /**
     * As {@link #prune(HyperPolygraph, boolean, GpuMode)}, checking {@code limits}' time between
     * the steps of each round (its closure, its pairs, its reads).
     *
     * @return never {@code null}
     * @throws TooLargeException      when the constraints would not fit in memory
     * @throws LimitExceededException when the time limit passes
     */
    public static PrunedPolygraph prune(HyperPolygraph polygraph, boolean snapshot, GpuMode gpu, Limits limits) {
        Objects.requireNonNull(gpu, "gpu is null");
        Objects.requireNonNull(limits, "limits is null");
        long started = System.nanoTime();
        KeyChains chains = KeyChains.of(polygraph);
        return new Pruner(polygraph, ChainPairs.of(chains), snapshot, PARALLEL_PAIRS, false,
                dag -> ReachabilityEngines.closureOf(dag, gpu), limits).run(started);
    }

    /**
     * As {@link #prune(HyperPolygraph, boolean)}, deciding pairs on several threads from
     * {@code parallelPairs} pairs on, and reads from {@code parallelPairs / 4} candidates on (tests).
     */
    static PrunedPolygraph prune(HyperPolygraph polygraph, boolean snapshot, long parallelPairs) {
        return prune(polygraph, snapshot, parallelPairs, false);
    }

    /**
     * As {@link #prune(HyperPolygraph, boolean, long)}; with {@code direct}, every pair and read
     * candidate is decided by the definitions (one query per base predecessor of a reader, per
     * other writer of a key), which the default must match decision for decision (tests).
     */
    static PrunedPolygraph prune(HyperPolygraph polygraph, boolean snapshot, long parallelPairs, boolean direct) {
        return prune(polygraph, snapshot, parallelPairs, direct, dag -> ReachabilityEngines.closureOf(dag, GpuMode.AUTO));
    }

    /**
     * As {@link #prune(HyperPolygraph, boolean, long, boolean)}, with each round's closure from
     * {@code closures} (tests: chain clocks even where the engine would pick bit rows, so that
     * small histories take the pair loop's fast path over clocks too).
     */
    static PrunedPolygraph prune(HyperPolygraph polygraph, boolean snapshot, long parallelPairs, boolean direct,
            java.util.function.Function<Dag, Reachability> closures) {
        return prune(polygraph, snapshot, parallelPairs, direct, closures, true);
    }

    /**
     * As {@link #prune(HyperPolygraph, boolean, long, boolean, java.util.function.Function)}; without
     * {@code byTime}, every pair of each key's chains is stored and decided by the closure, even
     * where real time orders it ({@link ChainPairs#all}: tests, which hold the two equal).
     */
    static PrunedPolygraph prune(HyperPolygraph polygraph, boolean snapshot, long parallelPairs, boolean direct,
            java.util.function.Function<Dag, Reachability> closures, boolean byTime) {
        long started = System.nanoTime();
        KeyChains chains = KeyChains.of(polygraph);
        return new Pruner(polygraph, byTime ? ChainPairs.of(chains) : ChainPairs.all(chains), snapshot, parallelPairs, direct,
                closures, Limits.none()).run(started);
    }

    private PrunedPolygraph run(long started) {
        long pairsBefore = pairs.length;
        int readsBefore = openReads();
        addCertainEdges();
        dropByTime();
        while (true) {
            limits.checkTime();
            rounds++;
            round = new Round();
            if (round.dag == null) {
                return result(started, pairsBefore, readsBefore, round.cycle());
            }
            round.graphClosure = closures.apply(round.dag);
            round.clocks = !direct && round.graphClosure instanceof ChainReachability clocks ? clocks : null;
            round.closure = round.transactionClosure(round.graphClosure);
            limits.checkTime();
            int before = edges.size();
            prunePairs();
            limits.checkTime();
            // Each round, so that later rounds' read pruning skips the rows settled already (a
            // settled row stays satisfied: later rounds only add certain edges).
            settleUnreturnedRows();
            pruneReads();
            if (!conflicts.isEmpty()) {
                return result(started, pairsBefore, readsBefore, List.of());
            }
            // A fixpoint, or nearly: a round that adds fewer than one edge in STOP_FRACTION leaves
            // the next rounds next to nothing to decide (ycsb-dup at 100k transactions: rounds
            // adding 1,454, 41, 1 and 0 edges of 1.6 million, each costing a closure and a pass
            // over every open pair and read, about 0.3 s). What is left open is the solver's, which
            // decides it anyway; stopping early only leaves it a few more choices.
            if (edges.size() - before <= before / STOP_FRACTION) {
                break;
            }
        }
        // The last round's order lacks the edges that round added (none at a fixpoint).
        PrunedPolygraph pruned = result(started, pairsBefore, readsBefore, List.of());
        // Transaction t is graph node t (its first copy for snapshot isolation).
        int[] rank = new int[nodes];
        for (int t = 0; t < nodes; t++) {
            rank[t] = round.dag.positionOf(t);
        }
        pruned.setTopologicalRank(rank);
        return pruned;
    }

    private PrunedPolygraph result(long started, long pairsBefore, int readsBefore, List<PrunedPolygraph.Step> cycle) {
        List<PrunedPolygraph.Conflict> found = new ArrayList<>(conflicts);
        if (!cycle.isEmpty()) {
            found.add(new PrunedPolygraph.Conflict("the dependencies that every valid order must have form a cycle", List.of(cycle)));
        }
        long pairsAfter = 0;
        for (byte p : pairs) {
            pairsAfter += p == OPEN ? 1 : 0;
        }
        PrunedPolygraph.Statistics statistics = new PrunedPolygraph.Statistics(rounds, pairsBefore, pairsAfter,
                readsBefore, openReads(), edges.size(), (System.nanoTime() - started) / 1_000_000);
        return new PrunedPolygraph(polygraph, chainPairs, snapshot, edges, pairs, reads, found,
                statistics);
    }

    /**
     * Drops the choice of an unreturned row that the certain graph already satisfies: every
     * version the clause selects is certainly after the reader, or certainly overwritten before
     * it (its writer, or T⊥, reaches another writer of the key that reaches the reader). Then in
     * every valid order the version the reader saw is not selected whichever it was, so the row
     * needs no variable and adds no edge. For snapshot isolation, in the graph with two nodes per
     * transaction, where a path orders events (node {@code t} stands for t's snapshot, {@code t+n}
     * for its commit, as every edge of the graph says: a base edge {@code a -> b} that a committed
     * before b's snapshot, a read-write edge {@code a -> b+n} that a's snapshot precedes b's commit,
     * the link that a snapshot precedes its commit): the version is certainly not in the reader's
     * snapshot when the reader's snapshot reaches its commit, or when its commit reaches the commit
     * of another writer of the key that reaches the reader's snapshot. Sound either way: dropping
     * a satisfied constraint removes no valid order, and the witness replay re-checks every read.
     */
    private void settleUnreturnedRows() {
        Reachability graph = round.graphClosure;
        int n = snapshot ? nodes : 0;
        UnreturnedRows rows = polygraph.unreturnedRows();
        int first = polygraph.itemObservationCount();
        for (int o = first; o < polygraph.observationCount(); o++) {
            if (reads.liveCount(o) < 2) {
                continue;
            }
            int reader = polygraph.reader(o);
            int key = polygraph.key(o);
            boolean settled = true;
            for (int s : rows.selected(o - first)) {
                int version = s == UnreturnedRows.INITIAL ? KnownGraph.INITIAL : polygraph.known().node(s);
                if (version != KnownGraph.INITIAL && graph.reaches(reader, version + n)) {
                    continue;
                }
                boolean overwritten = false;
                for (int i = 0; i < polygraph.writerCount(key) && !overwritten; i++) {
                    int w = polygraph.writer(key, i);
                    overwritten = w != reader && w != version && graph.reaches(w + n, reader)
                            && (version == KnownGraph.INITIAL || graph.reaches(version + n, w + n));
                }
                if (!overwritten) {
                    settled = false;
                    break;
                }
            }
            if (settled) {
                reads.dropAll(o);
            }
        }
    }

    private int openReads() {
        int open = 0;
        for (int o = 0; o < polygraph.observationCount(); o++) {
            open += reads.liveCount(o) > 1 ? 1 : 0;
        }
        return open;
    }

    /** The known graph, chain links with their readers, T⊥'s readers, and lost-update pairs. */
    private void addCertainEdges() {
        KnownGraph known = polygraph.known();
        for (int e = 0; e < known.edgeCount(); e++) {
            int observation = known.observation(e);
            edges.add(known.from(e), known.to(e), known.kind(e), observation >= 0 ? polygraph.key(observation) : -1);
        }
        // Observations left one writer that the known graph does not have: unreturned rows of
        // predicate reads, and returned rows whose other explanations the clause rules out.
        for (int o = 0; o < polygraph.observationCount(); o++) {
            if (polygraph.candidateCount(o) == 1 && polygraph.candidate(o, 0) != KnownGraph.INITIAL
                    && !polygraph.servedInKnownGraph(o)) {
                edges.add(polygraph.candidate(o, 0), polygraph.reader(o), EdgeKind.WRITE_READ, polygraph.key(o));
            }
        }
        for (int k = 0; k < polygraph.keyCount(); k++) {
            for (int s = chains.slotStart(k); s < chains.slotStart(k + 1); s++) {
                int following = chains.next(s);
                if (following >= 0) {
                    edges.add(chains.node(s), chains.node(following), EdgeKind.WRITE_WRITE, k);
                    for (int i = 0; i < chains.readerCount(s); i++) {
                        addReadWrite(chains.reader(s, i), chains.node(following), k);
                    }
                }
            }
            int first = chains.initialChain(k);
            for (int i = 0; i < chains.initialReaderCount(k); i++) {
                int reader = chains.initialReader(k, i);
                if (first >= 0) {
                    addReadWrite(reader, chains.node(chains.head(first)), k);
                } else {
                    // T⊥'s version precedes every chain's: edges to those first by time reach the rest.
                    for (int c = 0; c < chainPairs.earliestEnd(k); c++) {
                        addReadWrite(reader, chains.node(chains.head(chains.chain(k, c))), k);
                    }
                }
            }
            if (first >= 0) {
                // The chain continuing T⊥ precedes every other chain of the key (those first by
                // time: they lead on to the rest).
                for (int c = 0; c < chainPairs.earliestEnd(k); c++) {
                    addOrder(k, first, chains.chain(k, c));
                }
            }
            addTimeOrders(k);
        }
        int[] lost = chains.lostUpdateEdges();
        for (int i = 0; i < lost.length; i += 2) {
            edges.add(lost[i], lost[i + 1], EdgeKind.READ_WRITE, -1);
            edges.add(lost[i + 1], lost[i], EdgeKind.READ_WRITE, -1);
        }
    }

    /**
     * The read-write edges of the pairs of {@code key}'s chains that real time orders
     * ({@link ChainPairs}): from the readers of each chain's tail to the heads of the first chains
     * after its window, where no real-time edge leads already. Their write-write edges are
     * real-time edges (or paths of them), and the other chains after the window are reached
     * through the first ones.
     */
    private void addTimeOrders(int key) {
        for (int i = 0; i < chains.chainCount(key); i++) {
            int tail = chains.tail(chains.chain(key, i));
            int readers = chains.readerCount(tail);
            if (readers == 0) {
                continue;
            }
            for (int j = chainPairs.windowEnd(key, i); j < chainPairs.successorsEnd(key, i); j++) {
                int head = chains.node(chains.head(chains.chain(key, j)));
                for (int r = 0; r < readers; r++) {
                    int reader = chains.reader(tail, r);
                    if (!chainPairs.realTimeOrders(reader, head)) {
                        addReadWrite(reader, head, key);
                    }
                }
            }
        }
    }

    /**
     * With real time: drops each read candidate that real time alone rules out
     * ({@link WriterTimes#rulesOut}: the reader precedes it, or it precedes another writer of the
     * key that precedes the reader, by real-time edges), before the first round, which would
     * drop them too but for each candidate of each read (146 million at 100k transactions on hot
     * rows). A read left one candidate gets its edges; a read that would be left none keeps its
     * candidates, for the first round to find and explain the cycle.
     */
    private void dropByTime() {
        if (times == null) {
            return;
        }
        IntList found = new IntList(1024);
        IntList surviving = new IntList(64);
        int[] kept = new int[64];
        dev.isocheck.internal.graph.ReadExplanations explanations = polygraph.explanations();
        for (int o = 0; o < polygraph.observationCount(); o++) {
            int count = polygraph.candidateCount(o);
            if (count < 2) {
                continue;
            }
            int reader = polygraph.reader(o);
            int key = polygraph.key(o);
            long latestStart = times.latestStartBefore(key, reader);
            if (polygraph.hasListedCandidates(o)) {
                // A read of a duplicated value: its candidates are a list many reads share, walked
                // near the reader in time rather than whole (146 million candidates at 100k).
                int from = explanations.writerListStart(o);
                int skip = explanations.writerListSkip(o);
                int shift = polygraph.initialFirst(o) ? 1 : 0;
                times.survivingPositions(polygraph.known(), explanations, from, explanations.writerListEnd(o), reader,
                        latestStart, surviving);
                int left = shift;
                if (kept.length < surviving.size() + 1) {
                    kept = new int[2 * surviving.size() + 1];
                }
                if (shift == 1) {
                    kept[0] = 0; // T⊥, which real time never rules out here
                }
                for (int s = 0; s < surviving.size(); s++) {
                    int position = surviving.get(s);
                    if (position != skip) {
                        kept[left++] = position - from - (skip >= 0 && position > skip ? 1 : 0) + shift;
                    }
                }
                if (left > 0 && left < count) {
                    reads.keepOnly(o, kept, left);
                    if (left == 1) {
                        collectLastCandidate(found, o);
                    }
                }
                continue;
            }
            int left = 0;
            for (int i = 0; i < count && left == 0; i++) {
                left += times.rulesOut(polygraph.candidate(o, i), reader, latestStart) ? 0 : 1;
            }
            if (left == 0) {
                continue;
            }
            for (int i = 0; i < count; i++) {
                if (times.rulesOut(polygraph.candidate(o, i), reader, latestStart)) {
                    reads.drop(o, i);
                }
            }
            if (reads.liveCount(o) == 1) {
                collectLastCandidate(found, o);
            }
        }
        addCollected(found);
    }

    private void addReadWrite(int reader, int overwriter, int key) {
        if (reader != overwriter) {
            edges.add(reader, overwriter, EdgeKind.READ_WRITE, key);
        }
    }

    /** Adds the edges of "chain {@code first} before chain {@code second}" on {@code key}. */
    private void addOrder(int key, int first, int second) {
        IntList found = new IntList(8);
        collectOrder(found, key, first, second);
        addCollected(found);
    }

    /**
     * Whether edge {@code from -> to} would add nothing to what the round's graph says: its graph
     * already has a path for each graph edge it would add. For serializability, {@code from}
     * reaches {@code to}. For snapshot isolation, in the graph with two nodes per transaction: a
     * base edge would add {@code from -> to} and {@code from+n -> to}, and the second path implies
     * the first (through the link {@code from -> from+n}); a read-write edge would add
     * {@code from -> to+n}.
     */
    private boolean implied(int from, int to, boolean readWrite) {
        if (round == null || round.graphClosure == null || from == to) {
            return false; // the certain edges, before any closure
        }
        if (!snapshot) {
            return round.graphClosure.reaches(from, to);
        }
        return readWrite ? round.graphClosure.reaches(from, to + nodes) : round.graphClosure.reaches(from + nodes, to);
    }

    /**
     * Rounds stop once one adds at most one edge per this many edges it started with (none, on
     * graphs of fewer edges than this): a fixpoint on small histories, nearly one on large ones.
     */
    static final int STOP_FRACTION = 10_000;

    /** Below this many pairs of chains a round decides them on one thread. */
    private static final long PARALLEL_PAIRS = 1_000_000;

    /**
     * Decides every open pair of chains the round's closure orders, over contiguous ranges of keys
     * of about equal pair counts, one per thread once there are {@code parallelPairs} pairs (else
     * one range). A round's closure is fixed while its pairs are decided (edges found now count
     * from the next round), so each pair's decision is the same whatever the order; each range
     * writes only its own keys' pairs and collects the edges to add, which are then added in key
     * order, up to the first conflict in key order: the same edges, pairs and conflict as on one
     * thread (pairs of keys after a conflict may be decided too, which only the statistics of a
     * violated history show).
     */
    private void prunePairs() {
        int keys = polygraph.keyCount();
        int threads = Math.min(Runtime.getRuntime().availableProcessors(), 8);
        int parts = threads > 1 && pairs.length >= parallelPairs && keys > 1 ? threads : 1;
        int[] rangeStart = new int[parts + 1];
        long total = chainPairs.count();
        int k = 0;
        for (int t = 1; t < parts; t++) {
            long target = total * t / parts;
            while (k < keys && chainPairs.keyStart(k) < target) {
                k++;
            }
            rangeStart[t] = k;
        }
        rangeStart[parts] = keys;
        PairRange[] ranges = new PairRange[parts];
        if (parts == 1) {
            ranges[0] = decide(0, keys);
        } else {
            java.util.stream.IntStream.range(0, parts).parallel()
                    .forEach(t -> ranges[t] = decide(rangeStart[t], rangeStart[t + 1]));
        }
        for (PairRange range : ranges) {
            addCollected(range.edges);
            if (range.conflictKey >= 0) {
                conflicts.add(new PrunedPolygraph.Conflict(describeWriters(range.conflictKey, range.conflictX, range.conflictY),
                        List.of(closesCycle(range.conflictKey, range.conflictX, range.conflictY, true),
                                closesCycle(range.conflictKey, range.conflictY, range.conflictX, true))));
                return;
            }
        }
    }

    /** Adds edges collected as (from, to, kind ordinal, key). */
    private void addCollected(IntList found) {
        EdgeKind[] kinds = EdgeKind.values();
        for (int i = 0; i < found.size(); i += 4) {
            edges.add(found.get(i), found.get(i + 1), kinds[found.get(i + 2)], found.get(i + 3));
        }
    }

    /** What one thread decided: the edges to add (from, to, kind, key), and the first conflict, if any. */
    private static final class PairRange {
        final IntList edges = new IntList(1024);
        int conflictKey = -1;
        int conflictX;
        int conflictY;
    }

    private PairRange decide(int fromKey, int toKey) {
        PairRange range = new PairRange();
        PairTargets targets = round.clocks != null ? new PairTargets(round.clocks) : null;
        for (int k = fromKey; k < toKey; k++) {
            int m = chains.chainCount(k);
            long at = chainPairs.keyStart(k);
            if (targets != null) {
                targets.load(k);
            }
            for (int i = 0; i < m; i++) {
                int end = chainPairs.windowEnd(k, i);
                for (int j = i + 1; j < end; j++, at++) {
                    if (pairs[(int) at] != OPEN) {
                        continue;
                    }
                    int x = chains.chain(k, i);
                    int y = chains.chain(k, j);
                    boolean xFirst = targets != null ? targets.closes(i, j) : closesCycle(k, x, y, false) != null;
                    boolean yFirst = targets != null ? targets.closes(j, i) : closesCycle(k, y, x, false) != null;
                    if (xFirst && yFirst) {
                        range.conflictKey = k;
                        range.conflictX = x;
                        range.conflictY = y;
                        return range;
                    }
                    if (xFirst) {
                        pairs[(int) at] = SECOND_BEFORE;
                        if (targets != null) {
                            targets.collectOrder(range.edges, k, j, i);
                        } else {
                            collectOrder(range.edges, k, y, x);
                        }
                    } else if (yFirst) {
                        pairs[(int) at] = FIRST_BEFORE;
                        if (targets != null) {
                            targets.collectOrder(range.edges, k, i, j);
                        } else {
                            collectOrder(range.edges, k, x, y);
                        }
                    }
                }
            }
        }
        return range;
    }

    /**
     * {@link #closesCycle} without a path, for every pair of one key's chains, read straight from
     * chain clocks. "Chain {@code x} before chain {@code y}" closes a cycle when {@code y}'s head
     * (for snapshot isolation, its commit: node {@code head + n}) reaches {@code x}'s tail (its
     * commit, {@code tail + n}) or a certain reader of it other than that head (its snapshot:
     * the reader's node itself; see {@link Round#commitPrecedesSnapshot}). Per key, each chain's
     * head clock row and its targets' chain and index are looked up once; each pair then costs a
     * few array reads in a cache-sized working set, where {@code closesCycle} made two or three
     * interface calls and their lookups per query for the tens of millions of pairs of a first
     * round (most of the round's time).
     */
    private final class PairTargets {
        private final int[] clocks;
        private final int width;
        private final ChainDecomposition decomposition;
        private int[] headRow = new int[16];
        private int[] headNode = new int[16];
        /** Per chain: its tail's node, and the row of the tail's commit (snapshot isolation) or of the tail. */
        private int[] tailNode = new int[16];
        private int[] tailRow = new int[16];
        /** Per chain: chain and index of its head, and of the head's commit copy (the same node for serializability). */
        private int[] headChain = new int[16];
        private int[] headIndex = new int[16];
        private int[] commitChain = new int[16];
        private int[] commitIndex = new int[16];
        private int[] targetStart = new int[17];
        private int[] targetChain = new int[16];
        private int[] targetIndex = new int[16];
        private int[] targetNode = new int[16];

        PairTargets(ChainReachability closure) {
            this.clocks = closure.clockArray();
            this.width = closure.chainCount();
            this.decomposition = closure.chains();
        }

        void load(int key) {
            int m = chains.chainCount(key);
            if (headRow.length < m) {
                headRow = new int[m];
                headNode = new int[m];
                targetStart = new int[m + 1];
                tailNode = new int[m];
                tailRow = new int[m];
                headChain = new int[m];
                headIndex = new int[m];
                commitChain = new int[m];
                commitIndex = new int[m];
            }
            int shift = snapshot ? nodes : 0;
            int count = 0;
            for (int i = 0; i < m; i++) {
                int chain = chains.chain(key, i);
                int head = chains.node(chains.head(chain));
                headNode[i] = head;
                headRow[i] = (head + shift) * width;
                headChain[i] = decomposition.chainOf(head);
                headIndex[i] = decomposition.indexOf(head);
                commitChain[i] = decomposition.chainOf(head + shift);
                commitIndex[i] = decomposition.indexOf(head + shift);
                int tailSlot = chains.tail(chain);
                tailNode[i] = chains.node(tailSlot);
                tailRow[i] = (tailNode[i] + shift) * width;
                targetStart[i] = count;
                count = target(count, chains.node(tailSlot) + shift, -1);
                for (int r = 0; r < chains.readerCount(tailSlot); r++) {
                    int reader = chains.reader(tailSlot, r);
                    count = target(count, reader, reader);
                }
            }
            targetStart[m] = count;
        }

        private int target(int count, int graphNode, int node) {
            if (count == targetChain.length) {
                targetChain = Arrays.copyOf(targetChain, 2 * count);
                targetIndex = Arrays.copyOf(targetIndex, 2 * count);
                targetNode = Arrays.copyOf(targetNode, 2 * count);
            }
            targetChain[count] = decomposition.chainOf(graphNode);
            targetIndex[count] = decomposition.indexOf(graphNode);
            targetNode[count] = node;
            return count + 1;
        }

        /**
         * {@link #collectOrder} for the chains at positions {@code first} and {@code second} of
         * {@code key}: the same edges, in the same order, each skipped when implied (see
         * {@link #implied}): for serializability when its source reaches its target; for
         * snapshot isolation, a write-write edge when the tail's commit reaches the head, a
         * read-write edge when the reader reaches the head's commit.
         */
        void collectOrder(IntList into, int key, int first, int second) {
            int head = headNode[second];
            if (clocks[tailRow[first] + headChain[second]] > headIndex[second] || tailNode[first] == head) {
                into.add(tailNode[first]);
                into.add(head);
                into.add(EdgeKind.WRITE_WRITE.ordinal());
                into.add(key);
            }
            // The first target is the tail; the readers follow.
            for (int t = targetStart[first] + 1; t < targetStart[first + 1]; t++) {
                int reader = targetNode[t];
                if (reader != head && clocks[reader * width + commitChain[second]] > commitIndex[second]) {
                    into.add(reader);
                    into.add(head);
                    into.add(EdgeKind.READ_WRITE.ordinal());
                    into.add(key);
                }
            }
        }

        /** Whether "chain at position {@code x} before chain at position {@code y}" closes a cycle. */
        boolean closes(int x, int y) {
            int row = headRow[y];
            int head = headNode[y];
            for (int t = targetStart[x]; t < targetStart[x + 1]; t++) {
                if (targetNode[t] != head && clocks[row + targetChain[t]] <= targetIndex[t]) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * The edges of "chain {@code first} before chain {@code second}" on {@code key}, collected:
     * only those the round's closure does not already imply (they add no path, and deciding every
     * pair of a hot key's chains would otherwise add edges quadratic in its writers: tens of
     * millions at 100k transactions with overlapping times).
     */
    private void collectOrder(IntList into, int key, int first, int second) {
        int tail = chains.tail(first);
        int head = chains.node(chains.head(second));
        if (!implied(chains.node(tail), head, false)) {
            into.add(chains.node(tail));
            into.add(head);
            into.add(EdgeKind.WRITE_WRITE.ordinal());
            into.add(key);
        }
        for (int i = 0; i < chains.readerCount(tail); i++) {
            int reader = chains.reader(tail, i);
            if (reader != head && !implied(reader, head, true)) {
                into.add(reader);
                into.add(head);
                into.add(EdgeKind.READ_WRITE.ordinal());
                into.add(key);
            }
        }
    }

    private String describeWriters(int key, int x, int y) {
        return "whichever of " + round.name(chains.node(chains.head(x))) + " and " + round.name(chains.node(chains.head(y)))
                + " installed its version of " + polygraph.known().history().keys().name(key) + " first, a cycle forms";
    }

    /**
     * The cycle "chain {@code first} before chain {@code second}" would close with the known graph,
     * or {@code null} when the closure shows none. Finding the cycle's path costs a search, so
     * unless {@code withPath}, any non-null list answers.
     */
    private List<PrunedPolygraph.Step> closesCycle(int key, int first, int second, boolean withPath) {
        Reachability closure = round.closure;
        int head = chains.node(chains.head(second));
        int tail = chains.node(chains.tail(first));
        if (closure.reaches(head, tail)) {
            return withPath ? round.cycleWith(new PrunedPolygraph.Step(tail, head, EdgeKind.WRITE_WRITE, key)) : List.of();
        }
        int tailSlot = chains.tail(first);
        for (int i = 0; i < chains.readerCount(tailSlot); i++) {
            int reader = chains.reader(tailSlot, i);
            if (reader == head) {
                continue;
            }
            PrunedPolygraph.Step readWrite = new PrunedPolygraph.Step(reader, head, EdgeKind.READ_WRITE, key);
            if (!snapshot) {
                if (closure.reaches(head, reader)) {
                    return withPath ? round.cycleWith(readWrite) : List.of();
                }
            } else if (withPath || direct) {
                int p = round.basePredecessorOf(reader, head);
                if (p >= 0) {
                    return withPath ? round.cycleWith(round.basePredecessorStep(reader, p), readWrite) : List.of();
                }
            } else if (round.commitPrecedesSnapshot(head, reader)) {
                return List.of();
            }
        }
        return null;
    }

    /**
     * Drops every read candidate the round's closure rules out, over contiguous parts of the
     * observations in key order of about equal candidate counts, one per thread once there are
     * {@code parallelPairs / 4} candidates (else one part). As with pairs, the closure is fixed
     * while reads are decided and each part writes only its own observations, collecting the
     * edges of reads left one candidate; these are added in part order, up to the first
     * observation left none: the same edges and conflict as on one thread.
     */
    private void pruneReads() {
        int observations = byKey.length;
        int threads = Math.min(Runtime.getRuntime().availableProcessors(), 8);
        long total = reads.total();
        int parts = threads > 1 && total >= parallelPairs / 4 && observations > 1 ? threads : 1;
        int[] rangeStart = new int[parts + 1];
        int at = 0;
        long seen = 0;
        for (int t = 1; t < parts; t++) {
            long target = total * t / parts;
            while (at < observations && seen < target) {
                seen += polygraph.candidateCount(byKey[at++]);
            }
            rangeStart[t] = at;
        }
        rangeStart[parts] = observations;
        ReadRange[] ranges = new ReadRange[parts];
        if (parts == 1) {
            ranges[0] = decideReads(0, observations);
        } else {
            java.util.stream.IntStream.range(0, parts).parallel()
                    .forEach(t -> ranges[t] = decideReads(rangeStart[t], rangeStart[t + 1]));
        }
        Reachability closure = round.closure;
        for (ReadRange range : ranges) {
            addCollected(range.edges);
            int o = range.conflict;
            if (o >= 0) {
                int reader = polygraph.reader(o);
                int key = polygraph.key(o);
                List<List<PrunedPolygraph.Step>> cycles = new ArrayList<>();
                for (int i = 0; i < polygraph.candidateCount(o); i++) {
                    List<PrunedPolygraph.Step> cycle = readCloses(closure, key, reader, polygraph.candidate(o, i), true);
                    if (cycle != null) {
                        cycles.add(cycle);
                    }
                }
                conflicts.add(new PrunedPolygraph.Conflict("every write that could explain " + polygraph.describe(o)
                        + " closes a cycle", cycles.isEmpty() ? List.of(readCloses(closure, key, reader,
                                polygraph.candidate(o, range.conflictFirstDropped), true)) : cycles));
                return;
            }
        }
    }

    /** What one thread decided of the reads: the edges to add (from, to, kind, key), and the first observation left no candidate. */
    private static final class ReadRange {
        final IntList edges = new IntList(1024);
        int conflict = -1;
        int conflictFirstDropped;
    }

    /** Decides the reads of observations {@code byKey[from .. to)}, stopping at the first left no candidate. */
    private ReadRange decideReads(int from, int to) {
        ReadRange range = new ReadRange();
        Reachability closure = round.closure;
        IntList latest = new IntList(64);
        for (int at = from; at < to; at++) {
            int o = byKey[at];
            if (reads.liveCount(o) < 2) {
                continue;
            }
            int reader = polygraph.reader(o);
            int key = polygraph.key(o);
            int firstDropped = -1;
            int latestCount = -1;
            int count = polygraph.candidateCount(o);
            for (int i = reads.nextLive(o, 0); i < count; i = reads.nextLive(o, i + 1)) {
                int writer = polygraph.candidate(o, i);
                boolean closes;
                if (direct || writer != KnownGraph.INITIAL && closure.reaches(reader, writer)
                        || writer == KnownGraph.INITIAL && snapshot) {
                    closes = readCloses(closure, key, reader, writer, false) != null;
                } else {
                    if (latestCount < 0) {
                        latestCount = latestWritersBefore(closure, key, reader, latest);
                    }
                    closes = false;
                    for (int j = 0; j < latestCount && !closes; j++) {
                        closes = latest.get(j) != writer && closure.reaches(writer, latest.get(j));
                    }
                }
                if (closes) {
                    reads.drop(o, i);
                    firstDropped = firstDropped < 0 ? i : firstDropped;
                }
            }
            if (reads.liveCount(o) == 0) {
                range.conflict = o;
                range.conflictFirstDropped = firstDropped;
                return range;
            }
            if (reads.liveCount(o) == 1) {
                collectLastCandidate(range.edges, o);
            }
        }
        return range;
    }

    /**
     * The cycle reading {@code key} from {@code writer} would close, or {@code null}; unless
     * {@code withPath}, any non-null list answers.
     */
    private List<PrunedPolygraph.Step> readCloses(Reachability closure, int key, int reader, int writer, boolean withPath) {
        if (writer != KnownGraph.INITIAL && closure.reaches(reader, writer)) {
            return withPath ? round.cycleWith(new PrunedPolygraph.Step(writer, reader, EdgeKind.WRITE_READ, key)) : List.of();
        }
        if (writer == KnownGraph.INITIAL && snapshot) {
            return null;
        }
        for (int i = 0; i < polygraph.writerCount(key); i++) {
            int other = polygraph.writer(key, i);
            if (other == reader || other == writer || !closure.reaches(writer, other)) {
                continue;
            }
            // A writer the candidate reaches installs a later version (in the induced graph too:
            // its paths follow commit order), so the read's read-write edge goes to it or to a
            // version before it. Serializable: a cycle when that writer reaches the reader. Snapshot
            // isolation: when it reaches (or is) a base predecessor of the reader, so that the
            // read-write edge follows a base edge.
            if (!snapshot && closure.reaches(other, reader)) {
                return withPath ? round.cycleWith(new PrunedPolygraph.Step(reader, other, EdgeKind.READ_WRITE, key)) : List.of();
            }
            if (snapshot) {
                int p = round.basePredecessorOf(reader, other);
                if (p >= 0) {
                    return withPath ? round.cycleWith(round.basePredecessorStep(reader, p),
                            new PrunedPolygraph.Step(reader, other, EdgeKind.READ_WRITE, key)) : List.of();
                }
            }
        }
        return null;
    }

    /**
     * The latest writers of {@code key} before {@code reader}: of the writers other than the reader
     * that precede it (reach it; for snapshot isolation, commit before its snapshot), those no
     * other of them follows in {@code closure}. Written to {@code out}, emptied first (they are an
     * antichain: at most one per session, so many when many sessions write the key); returns how
     * many.
     *
     * <p>Why: {@link #readCloses} drops a candidate {@code c} when it reaches some other writer
     * {@code w} that precedes the reader, one query per writer of the key for every candidate (a
     * hundred writers, tens of candidates per read of a duplicated value). The writers that precede
     * the reader are ordered by the closure (a partial order: the graph is acyclic), and {@code c}
     * reaches such a {@code w ≠ c} exactly when it reaches a latest one {@code m ≠ c}: the one
     * above {@code w} (it cannot be {@code c}, which would put {@code c} and {@code w} on a cycle).
     * So the writers are scanned once per read, and each candidate is checked against the few
     * latest.
     */
    private int latestWritersBefore(Reachability closure, int key, int reader, IntList out) {
        out.truncate(0);
        // With chain clocks, whether a writer precedes the reader is one array read: the
        // reader's chain and index are looked up once for all the key's writers.
        ChainReachability clocks = round.clocks;
        int[] clock = clocks == null ? null : clocks.clockArray();
        int width = clocks == null ? 0 : clocks.chainCount();
        int readerChain = clocks == null ? 0 : clocks.chains().chainOf(reader);
        int readerIndex = clocks == null ? 0 : clocks.chains().indexOf(reader);
        int shift = snapshot ? nodes : 0;
        // With real time, only the writers real time leaves near the reader can be latest
        // (WriterTimes): every other writer that precedes the reader precedes one of them.
        IntList window = null;
        if (times != null) {
            window = new IntList(64);
            times.window(key, reader, times.latestStartBefore(key, reader), window);
        }
        int writers = window != null ? window.size() : polygraph.writerCount(key);
        for (int i = 0; i < writers; i++) {
            int w = window != null ? window.get(i) : polygraph.writer(key, i);
            if (w == reader) {
                continue;
            }
            if (clock != null ? clock[(w + shift) * width + readerChain] > readerIndex
                    : !(snapshot ? round.commitPrecedesSnapshot(w, reader) : closure.reaches(w, reader))) {
                continue;
            }
            boolean earlier = false;
            for (int j = 0; j < out.size() && !earlier; j++) {
                earlier = closure.reaches(w, out.get(j));
            }
            if (earlier) {
                continue;
            }
            int kept = 0;
            for (int j = 0; j < out.size(); j++) {
                if (!closure.reaches(out.get(j), w)) {
                    out.set(kept++, out.get(j));
                }
            }
            out.truncate(kept);
            out.add(w);
        }
        return out.size();
    }

    /** Collects the certain parts of an observation's last candidate: its WR edge and the next version's RW edge. */
    private void collectLastCandidate(IntList into, int o) {
        int reader = polygraph.reader(o);
        int key = polygraph.key(o);
        int writer = -1;
        for (int i = 0; i < polygraph.candidateCount(o); i++) {
            if (reads.isLive(o, i)) {
                writer = polygraph.candidate(o, i);
            }
        }
        if (writer == KnownGraph.INITIAL) {
            int first = chains.initialChain(key);
            if (first >= 0) {
                collectReadWrite(into, reader, chains.node(chains.head(first)), key);
            } else {
                for (int c = 0; c < chainPairs.earliestEnd(key); c++) {
                    collectReadWrite(into, reader, chains.node(chains.head(chains.chain(key, c))), key);
                }
            }
            return;
        }
        into.add(writer);
        into.add(reader);
        into.add(EdgeKind.WRITE_READ.ordinal());
        into.add(key);
        int following = chains.next(chains.slotOf(key, writer));
        if (following >= 0) {
            collectReadWrite(into, reader, chains.node(following), key);
        }
    }

    private static void collectReadWrite(IntList into, int reader, int overwriter, int key) {
        if (reader != overwriter) {
            into.add(reader);
            into.add(overwriter);
            into.add(EdgeKind.READ_WRITE.ordinal());
            into.add(key);
        }
    }

    /**
     * One round's graph: the DAG handed to the reachability engine (for snapshot isolation, two
     * copies per transaction: base edges leave both copies and enter the first, read-write edges
     * leave the first and enter the second, and a link joins each transaction's copies; see the
     * constructor), adjacency with edge ids for finding cycles, and base predecessors.
     */
    private final class Round {
        final Dag dag;
        /** Between transactions (induced for snapshot isolation). */
        Reachability closure;
        /** Of this round's graph itself (two nodes per transaction for snapshot isolation). */
        Reachability graphClosure;
        /** {@link #graphClosure} when it is chain clocks (and pruning is not by the definitions), for reading them directly; else {@code null}. */
        ChainReachability clocks;
        private final int edgeCount;
        private final int[] from;
        private final int[] to;
        /** The edge of the history each graph edge stands for; -1 for a link between a transaction's two copies. */
        private final int[] first;
        private final int graphNodes;
        private final int[] successorStart;
        private final int[] successorEdges;
        private final int[] basePredecessorStart;
        private final int[] basePredecessorEdges;

        Round() {
            // Snapshot isolation: a link per transaction and up to two graph edges per edge.
            int room = snapshot ? nodes + 2 * edges.size() + 16 : edges.size() + 16;
            IntList fromList = new IntList(room);
            IntList toList = new IntList(room);
            IntList firstList = new IntList(room);
            int[] baseInStart = new int[nodes + 1];
            for (int e = 0; e < edges.size(); e++) {
                if (!snapshot || !edges.isReadWrite(e)) {
                    baseInStart[edges.to(e) + 1]++;
                }
            }
            for (int n = 0; n < nodes; n++) {
                baseInStart[n + 1] += baseInStart[n];
            }
            int[] baseIn = new int[baseInStart[nodes]];
            int[] fill = Arrays.copyOf(baseInStart, nodes);
            for (int e = 0; e < edges.size(); e++) {
                if (!snapshot || !edges.isReadWrite(e)) {
                    baseIn[fill[edges.to(e)]++] = e;
                }
            }
            basePredecessorStart = baseInStart;
            basePredecessorEdges = baseIn;
            // Snapshot isolation: rather than composing each read-write edge with every base edge
            // into its source (which multiplies edges), node t + n is a second copy of t, "entered
            // by a read-write edge": base edges leave both copies and enter the first, read-write
            // edges leave the first and enter the second, and t -> t + n (no edge of the history)
            // keeps the copies in order. A path from a + n to b + n is exactly a path a ⇝ b of
            // the induced graph, whose every edge starts with a base edge. The links come first, so
            // that the chain decomposition threads each session through both copies
            // (t, t + n, next of t, ...) instead of leaving every second copy a chain of its own.
            if (snapshot) {
                for (int t = 0; t < nodes; t++) {
                    fromList.add(t);
                    toList.add(t + nodes);
                    firstList.add(-1);
                }
            }
            for (int e = 0; e < edges.size(); e++) {
                if (!snapshot) {
                    fromList.add(edges.from(e));
                    toList.add(edges.to(e));
                    firstList.add(e);
                } else if (!edges.isReadWrite(e)) {
                    fromList.add(edges.from(e));
                    toList.add(edges.to(e));
                    firstList.add(e);
                    fromList.add(edges.from(e) + nodes);
                    toList.add(edges.to(e));
                    firstList.add(e);
                } else {
                    fromList.add(edges.from(e));
                    toList.add(edges.to(e) + nodes);
                    firstList.add(e);
                }
            }
            graphNodes = snapshot ? 2 * nodes : nodes;
            edgeCount = fromList.size();
            from = fromList.toArray();
            to = toList.toArray();
            first = firstList.toArray();
            successorStart = new int[graphNodes + 1];
            for (int e = 0; e < edgeCount; e++) {
                successorStart[from[e] + 1]++;
            }
            for (int n = 0; n < graphNodes; n++) {
                successorStart[n + 1] += successorStart[n];
            }
            successorEdges = new int[edgeCount];
            int[] next = Arrays.copyOf(successorStart, graphNodes);
            for (int e = 0; e < edgeCount; e++) {
                successorEdges[next[from[e]]++] = e;
            }
            dag = hasSelfLoop() ? null : Dag.of(graphNodes, from, to, edgeCount);
        }

        /** The closure of this round's graph, as reachability between transactions (induced for snapshot isolation). */
        Reachability transactionClosure(Reachability graphClosure) {
            return snapshot ? new InducedReachability(graphClosure, nodes) : graphClosure;
        }

        private boolean hasSelfLoop() {
            for (int e = 0; e < edgeCount; e++) {
                if (from[e] == to[e]) {
                    return true;
                }
            }
            return false;
        }

        String name(int node) {
            return node == KnownGraph.INITIAL ? "the initial state"
                    : polygraph.known().history().transaction(polygraph.known().transaction(node)).id();
        }

        /**
         * Snapshot isolation: whether {@code writer}'s commit precedes {@code reader}'s snapshot in
         * the graph, {@code writer + n} reaching {@code reader}: one query, exactly when
         * {@link #basePredecessorOf} finds a base predecessor {@code p} of the reader that the
         * writer reaches or is. A path from {@code writer + n} ends with an edge into the
         * reader's first copy, which only base edges enter, from {@code p} or {@code p + n}; and
         * {@code p} leads on to {@code p + n} by the link, so the writer reaches {@code p} in the
         * induced graph. Conversely the base edge leaves {@code p + n}. (That loop cost about
         * ten queries per reader and was most of snapshot-isolation pruning.)
         */
        boolean commitPrecedesSnapshot(int writer, int reader) {
            return graphClosure.reaches(writer + nodes, reader);
        }

        /** A base predecessor {@code p} of {@code reader} that {@code head} reaches (or is), or {@code -1}. */
        int basePredecessorOf(int reader, int head) {
            for (int i = basePredecessorStart[reader]; i < basePredecessorStart[reader + 1]; i++) {
                int p = edges.from(basePredecessorEdges[i]);
                if (p == head || closure.reaches(head, p)) {
                    return p;
                }
            }
            return -1;
        }

        PrunedPolygraph.Step basePredecessorStep(int reader, int p) {
            for (int i = basePredecessorStart[reader]; i < basePredecessorStart[reader + 1]; i++) {
                int e = basePredecessorEdges[i];
                if (edges.from(e) == p) {
                    return step(e);
                }
            }
            throw new IllegalStateException("no base edge " + p + " -> " + reader);
        }

        private PrunedPolygraph.Step step(int e) {
            return new PrunedPolygraph.Step(edges.from(e), edges.to(e), edges.kind(e), edges.key(e));
        }

        /**
         * The cycle made by the new {@code steps} (a path) and the shortest known path from the
         * last step's target back to the first step's source.
         */
        List<PrunedPolygraph.Step> cycleWith(PrunedPolygraph.Step... steps) {
            List<PrunedPolygraph.Step> cycle = new ArrayList<>(path(steps[steps.length - 1].to(), steps[0].from()));
            cycle.addAll(0, List.of(steps));
            return cycle;
        }

        /**
         * The steps of a shortest path (breadth-first) from transaction {@code source} to
         * {@code target} (in the induced graph for snapshot isolation), empty when equal.
         */
        List<PrunedPolygraph.Step> path(int source, int target) {
            return snapshot ? graphPath(source + nodes, target + nodes) : graphPath(source, target);
        }

        private List<PrunedPolygraph.Step> graphPath(int source, int target) {
            if (source == target) {
                return List.of();
            }
            int[] via = new int[graphNodes];
            Arrays.fill(via, -2);
            via[source] = -1;
            int[] queue = new int[graphNodes];
            int head = 0;
            int tail = 0;
            queue[tail++] = source;
            while (head < tail && via[target] == -2) {
                int u = queue[head++];
                for (int i = successorStart[u]; i < successorStart[u + 1]; i++) {
                    int e = successorEdges[i];
                    if (via[to[e]] == -2) {
                        via[to[e]] = e;
                        queue[tail++] = to[e];
                    }
                }
            }
            if (via[target] == -2) {
                throw new IllegalStateException("the closure says " + source + " reaches " + target + " but no path does");
            }
            List<PrunedPolygraph.Step> steps = new ArrayList<>();
            for (int n = target; n != source; n = from[via[n]]) {
                steps.addAll(0, expand(via[n]));
            }
            return steps;
        }

        /** A shortest cycle through the first back edge a depth-first search meets (the graph has one). */
        List<PrunedPolygraph.Step> cycle() {
            for (int e = 0; e < edgeCount; e++) {
                if (from[e] == to[e]) {
                    return expand(e);
                }
            }
            byte[] color = new byte[graphNodes];
            int[] cursor = new int[graphNodes];
            int[] stack = new int[graphNodes];
            for (int root = 0; root < graphNodes; root++) {
                if (color[root] != 0) {
                    continue;
                }
                int depth = 0;
                stack[depth++] = root;
                color[root] = 1;
                cursor[root] = successorStart[root];
                while (depth > 0) {
                    int u = stack[depth - 1];
                    if (cursor[u] == successorStart[u + 1]) {
                        color[u] = 2;
                        depth--;
                        continue;
                    }
                    int e = successorEdges[cursor[u]++];
                    int v = to[e];
                    if (color[v] == 0) {
                        color[v] = 1;
                        cursor[v] = successorStart[v];
                        stack[depth++] = v;
                    } else if (color[v] == 1) {
                        List<PrunedPolygraph.Step> cycle = new ArrayList<>(expand(e));
                        cycle.addAll(graphPath(v, u));
                        return cycle;
                    }
                }
            }
            throw new IllegalStateException("no cycle in a graph that has no topological order");
        }

        private List<PrunedPolygraph.Step> expand(int e) {
            return first[e] < 0 ? List.of() : List.of(step(first[e]));
        }
    }
}
