package dev.isocheck.internal.prune;

import dev.isocheck.spi.Dag;
import dev.isocheck.spi.JavaArrays;
import dev.isocheck.spi.Reachability;
import java.util.Arrays;

/**
 * A closure stored as chain clocks: the nodes are split into chains (paths of the graph, see the
 * decomposition below), and each node {@code u} keeps one int per chain {@code c}, the smallest
 * index along {@code c} of a node that {@code u} reaches, or {@link Integer#MAX_VALUE} when it
 * reaches none. A chain is totally ordered by reachability, so {@code u} reaches {@code v} exactly
 * when {@code clock(u)[chain(v)] <= index(v)}: an O(1) query.
 *
 * <p>Chains come from a greedy pass over the topological order in which each node hands its chain
 * to the first successor (in the {@link Dag}'s successor order) that no earlier node claimed, so
 * that session edges, listed first, make each client session one chain. The clocks are one flat
 * {@code int[]} of {@code n * chains} entries, node-major, computed in reverse topological order as
 * the element-wise minimum over successors: {@code O((n + edges) * chains)} time,
 * {@code 4 * n * chains} bytes, about 10 MB for 100k transactions in 24 sessions where bit rows
 * would need 1.25 GB. When chains are many (wide graphs with few edges) bit rows are smaller; the
 * CPU engine compares the two before computing either.
 */
public final class ChainReachability implements Reachability {

    private final ChainDecomposition chains;
    private final int[] clocks;

    private ChainReachability(ChainDecomposition chains, int[] clocks) {
        this.chains = chains;
        this.clocks = clocks;
    }

    /**
     * The closure of {@code dag} on this CPU, as described above.
     *
     * @throws IllegalArgumentException when the clocks would not fit in one Java array
     */
    public static ChainReachability compute(Dag dag) {
        return compute(dag, ChainDecomposition.of(dag));
    }

    /** The closure over an existing decomposition of {@code dag}, for callers that sized it first. */
    static ChainReachability compute(Dag dag, ChainDecomposition chains) {
        return new ChainReachability(chains, clocks(dag, chains));
    }

    /**
     * The flat clock array of {@code dag} over {@code chains}: the clock of node {@code u} is
     * {@code [u * chains.count(), (u + 1) * chains.count())}.
     *
     * @throws IllegalArgumentException when it would not fit in one Java array
     */
    static int[] clocks(Dag dag, ChainDecomposition chains) {
        int n = dag.nodeCount();
        int width = chains.count();
        if (!JavaArrays.fits(chains.clockLength())) {
            throw new IllegalArgumentException(n + " nodes in " + width + " chains need " + chains.clockLength()
                    + " clock entries, more than one array holds");
        }
        int[] clocks = new int[(int) chains.clockLength()];
        for (int p = n - 1; p >= 0; p--) {
            int u = dag.nodeAt(p);
            int base = u * width;
            Arrays.fill(clocks, base, base + width, Integer.MAX_VALUE);
            clocks[base + chains.chainOf(u)] = chains.indexOf(u);
            for (int i = 0; i < dag.successorCount(u); i++) {
                // Successors come later in the order, so their clocks are already final.
                int other = dag.successor(u, i) * width;
                for (int c = 0; c < width; c++) {
                    clocks[base + c] = Math.min(clocks[base + c], clocks[other + c]);
                }
            }
        }
        return clocks;
    }

    @Override
    public boolean reaches(int from, int to) {
        return clocks[from * chains.count() + chains.chainOf(to)] <= chains.indexOf(to);
    }

    @Override
    public int nodeCount() {
        return chains.nodeCount();
    }

    @Override
    public long memoryBytes() {
        return (long) clocks.length * Integer.BYTES + chains.memoryBytes();
    }

    /** How many chains the nodes were split into: the length of each node's clock. */
    public int chainCount() {
        return chains.count();
    }

    /**
     * The flat clocks (node-major, {@link #chainCount()} ints a node), read in place by the
     * pruner's loop over a key's chain pairs and by its search for the latest writers before a
     * read: they copy no clock and make no call per query.
     */
    int[] clockArray() {
        return clocks;
    }

    /**
     * The decomposition the clocks are indexed by, for tests, the pruner's pair loop and its
     * search for the latest writers before a read (the reader's chain and index).
     */
    ChainDecomposition chains() {
        return chains;
    }
}
