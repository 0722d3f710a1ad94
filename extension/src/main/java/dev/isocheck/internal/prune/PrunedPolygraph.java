package dev.isocheck.internal.prune;

import dev.isocheck.internal.graph.EdgeKind;
import dev.isocheck.internal.graph.HyperPolygraph;
import java.util.List;

/**
 * What pruning leaves for the solver: the known graph grown by every certain decision, the chain
 * pairs still open, the read candidates still possible, and a topological order of the grown graph;
 * or the conflicts that prove the history violates the level.
 *
 * <p>Chain pairs of key {@code k} are indexed by the positions {@code i < j} of the two chains in
 * {@link KeyChains#chain(int, int)}; a decided pair is in {@link #edges()} already. With real-time
 * edges, most pairs are ordered by time and never stored: only those in a chain's window
 * ({@link #windowEnd}) can be open, and a chain past the window comes after it, reached from it
 * through the first chains past the window ({@link #successorsEnd}).
 */
public final class PrunedPolygraph {

    /**
     * One dependency edge of a cycle.
     *
     * @param from the node it leaves
     * @param to   the node it enters
     * @param kind why it exists
     * @param key  the key it concerns, or {@code -1}
     */
    public record Step(int from, int to, EdgeKind kind, int key) {
    }

    /**
     * Proof that no valid order exists: for each option of one constraint, the cycle it closes
     * (one cycle when the known edges alone are cyclic).
     *
     * @param description what the options were, in words
     * @param cycles      a cycle per option, each as its steps in order
     */
    public record Conflict(String description, List<List<Step>> cycles) {
        /** Copies. */
        public Conflict {
            cycles = cycles.stream().map(List::copyOf).toList();
        }
    }

    /**
     * What pruning did.
     *
     * @param rounds      closures computed
     * @param pairsBefore chain pairs before pruning (write-write constraints after combining)
     * @param pairsAfter  chain pairs left open
     * @param readsBefore observations with more than one candidate writer before pruning
     * @param readsAfter  observations with more than one candidate left
     * @param edges       edges of the grown known graph
     * @param millis      time spent, building chains included
     */
    public record Statistics(int rounds, long pairsBefore, long pairsAfter, int readsBefore, int readsAfter, int edges,
            long millis) {
    }

    private final HyperPolygraph polygraph;
    private final KeyChains chains;
    private final ChainPairs chainPairs;
    private final boolean snapshot;
    private final EdgeList edges;
    private final byte[] pairs;
    private final ReadCandidates reads;
    private final List<Conflict> conflicts;
    private final Statistics statistics;
    private int[] topologicalRank;

    PrunedPolygraph(HyperPolygraph polygraph, ChainPairs chainPairs, boolean snapshot, EdgeList edges, byte[] pairs,
            ReadCandidates reads, List<Conflict> conflicts, Statistics statistics) {
        this.polygraph = polygraph;
        this.chains = chainPairs.chains();
        this.chainPairs = chainPairs;
        this.snapshot = snapshot;
        this.edges = edges;
        this.pairs = pairs;
        this.reads = reads;
        this.conflicts = List.copyOf(conflicts);
        this.statistics = statistics;
    }

    /** The polygraph pruned. */
    public HyperPolygraph polygraph() {
        return polygraph;
    }

    /** The write chains of every key. */
    public KeyChains chains() {
        return chains;
    }

    /** Whether this was pruned for snapshot isolation. */
    public boolean isSnapshot() {
        return snapshot;
    }

    /** The known graph grown by pruning (read-write edges uncomposed, also for snapshot isolation). */
    public EdgeList edges() {
        return edges;
    }

    /**
     * Each transaction node's position in the topological order of the last pruning round's graph,
     * or {@code null} when pruning found a conflict. Without snapshot isolation that order follows
     * every edge of the grown graph; for snapshot isolation it is the position of the
     * transaction's first copy in the graph with two copies per transaction, which follows the base
     * edges (all but read-write ones) but not necessarily the read-write edges. Either way every
     * decided write order follows it, except those decided in a last round that stopped short of a
     * fixpoint (see {@link Pruner#STOP_FRACTION}): that round's edges are not in the order.
     */
    public int[] topologicalRank() {
        return topologicalRank;
    }

    void setTopologicalRank(int[] rank) {
        this.topologicalRank = rank;
    }

    /** The proofs of violation; empty when pruning found none. */
    public List<Conflict> conflicts() {
        return conflicts;
    }

    /** Whether pruning proved the history violates the level. */
    public boolean isViolated() {
        return !conflicts.isEmpty();
    }

    /** What pruning did. */
    public Statistics statistics() {
        return statistics;
    }

    /**
     * Whether the pair of {@code key}'s chains at positions {@code i < j} is still open; else
     * {@link #firstBefore} says which way it was decided.
     */
    public boolean isOpen(int key, int i, int j) {
        long at = chainPairs.index(key, i, j);
        return at >= 0 && pairs[(int) at] == Pruner.OPEN;
    }

    /** For a decided pair {@code i < j}: whether chain {@code i} comes before chain {@code j}. */
    public boolean firstBefore(int key, int i, int j) {
        long at = chainPairs.index(key, i, j);
        return at < 0 || pairs[(int) at] == Pruner.FIRST_BEFORE;
    }

    /**
     * The end (exclusive) of the window of {@code key}'s chain at position {@code i}: the pairs
     * {@code (i, j)} for {@code i < j < windowEnd} may be open; every chain from {@code windowEnd}
     * on comes after chain {@code i} by real time (all of them, without real time).
     */
    public int windowEnd(int key, int i) {
        return chainPairs.windowEnd(key, i);
    }

    /**
     * The least position whose window may hold position {@code j} of {@code key}: the pairs
     * {@code (i, j)} with {@code i < j} that may be open have {@code i} from here to {@code j - 1},
     * each where {@code windowEnd(key, i) > j}.
     */
    public int reachBack(int key, int j) {
        return chainPairs.reachBack(key, j);
    }

    /**
     * The end (exclusive) of the first chains past the window of position {@code i} of {@code key}
     * (from {@link #windowEnd}): every later chain starts after one of them ends, so certain
     * edges lead from each such first chain's head to its head.
     */
    public int successorsEnd(int key, int i) {
        return chainPairs.successorsEnd(key, i);
    }

    /**
     * The end (exclusive) of the chains of {@code key} first by time, from position {@code 0}:
     * every later chain starts after one of them ends.
     */
    public int earliestEnd(int key) {
        return chainPairs.earliestEnd(key);
    }

    /** How many candidates of observation {@code o} are still possible. */
    public int liveCount(int o) {
        return reads.liveCount(o);
    }

    /** Whether the {@code i}-th candidate of observation {@code o} is still possible. */
    public boolean isLive(int o, int i) {
        return reads.isLive(o, i);
    }

    /**
     * The first candidate of observation {@code o} from the {@code i}-th on that is still
     * possible, or its candidate count when none is: a read of a duplicated value may have
     * hundreds of candidates and a few left, so callers walk those
     * ({@code for (int i = nextLive(o, 0); i < count; i = nextLive(o, i + 1))}).
     */
    public int nextLive(int o, int i) {
        return reads.nextLive(o, i);
    }
}
