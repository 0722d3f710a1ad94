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
 * {@link KeyChains#chain(int, int)}; a decided pair is in {@link #edges()} already.
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
    private final boolean snapshot;
    private final EdgeList edges;
    private final long[] pairStart;
    private final byte[] pairs;
    private final int[] candidateStart;
    private final boolean[] dropped;
    private final int[] live;
    private final List<Conflict> conflicts;
    private final Statistics statistics;
    private int[] topologicalRank;

    PrunedPolygraph(HyperPolygraph polygraph, KeyChains chains, boolean snapshot, EdgeList edges, long[] pairStart,
            byte[] pairs, int[] candidateStart, boolean[] dropped, int[] live, List<Conflict> conflicts,
            Statistics statistics) {
        this.polygraph = polygraph;
        this.chains = chains;
        this.snapshot = snapshot;
        this.edges = edges;
        this.pairStart = pairStart;
        this.pairs = pairs;
        this.candidateStart = candidateStart;
        this.dropped = dropped;
        this.live = live;
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
        return pairs[pairIndex(key, i, j)] == Pruner.OPEN;
    }

    /** For a decided pair {@code i < j}: whether chain {@code i} comes before chain {@code j}. */
    public boolean firstBefore(int key, int i, int j) {
        return pairs[pairIndex(key, i, j)] == Pruner.FIRST_BEFORE;
    }

    /**
     * The decisions of every pair of {@code key}'s chains, in the order {@code (0, 1), (0, 2), …,
     * (0, m-1), (1, 2), …}: for each, {@code 0} open, {@code 1} the first chain before the second,
     * {@code 2} the second before the first. Written into {@code into} from index 0 (it must
     * hold {@code m(m-1)/2}); for callers that read all pairs of a key, which a lookup per pair
     * makes several times slower.
     */
    public void pairDecisions(int key, byte[] into) {
        long m = chains.chainCount(key);
        System.arraycopy(pairs, (int) pairStart[key], into, 0, (int) (m * (m - 1) / 2));
    }

    private int pairIndex(int key, int i, int j) {
        long m = chains.chainCount(key);
        return (int) (pairStart[key] + i * m - (long) i * (i + 1) / 2 + (j - i - 1));
    }

    /** How many candidates of observation {@code o} are still possible. */
    public int liveCount(int o) {
        return live[o];
    }

    /** Whether the {@code i}-th candidate of observation {@code o} is still possible. */
    public boolean isLive(int o, int i) {
        return !dropped[candidateStart[o] + i];
    }
}
