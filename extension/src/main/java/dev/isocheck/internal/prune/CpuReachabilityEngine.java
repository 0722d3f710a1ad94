package dev.isocheck.internal.prune;

import dev.isocheck.spi.BitRowReachability;
import dev.isocheck.spi.Dag;
import dev.isocheck.spi.JavaArrays;
import dev.isocheck.spi.Reachability;
import dev.isocheck.spi.ReachabilityEngine;
import java.util.Optional;

/**
 * The built-in engine, named {@code cpu}: decomposes the graph into chains, then computes whichever
 * exact closure costs less memory, chain clocks ({@code 4 * n * chains} bytes) or bit rows
 * ({@code n * n / 8} bytes). Bit rows are skipped when they exceed a memory budget, since at 100k
 * nodes they alone would take 1.25 GB of a heap the rest of the check needs too.
 *
 * <p>Memory also ranks time, within a factor of two: per edge, chains cost one int operation per
 * chain and bit rows one long operation per 64 nodes, against 4 bytes per chain and 8 per 64 nodes.
 */
final class CpuReachabilityEngine implements ReachabilityEngine {

    /** The default largest closure stored as bit rows: 512 MiB, about 65k nodes. */
    static final long DEFAULT_BIT_ROW_BUDGET = 512L << 20;

    static final String NAME = "cpu";

    private final long bitRowBudget;

    /** An engine that stores bit rows only up to {@code bitRowBudget} bytes. */
    CpuReachabilityEngine(long bitRowBudget) {
        if (bitRowBudget < 0) {
            throw new IllegalArgumentException("a bit-row budget of " + bitRowBudget + " bytes makes no sense");
        }
        this.bitRowBudget = bitRowBudget;
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Always empty: the CPU is the fallback of every other engine. */
    @Override
    public Optional<String> unavailableReason(int nodes, long edges) {
        return Optional.empty();
    }

    /**
     * The closure of {@code dag}, as chain clocks or bit rows.
     *
     * @throws IllegalStateException when neither layout fits in one Java array (hundreds of thousands
     *                               of nodes in hundreds of thousands of chains)
     */
    @Override
    public Reachability closureOf(Dag dag) {
        return closureOf(dag, ChainDecomposition.of(dag));
    }

    /** {@link #closureOf(Dag)} over a decomposition of {@code dag} already made. */
    Reachability closureOf(Dag dag, ChainDecomposition chains) {
        if (prefersChains(dag.nodeCount(), chains.count())) {
            return ChainReachability.compute(dag, chains);
        }
        if (JavaArrays.fits(BitRowReachability.wordCount(dag.nodeCount()))) {
            return BitRowReachability.compute(dag);
        }
        throw new IllegalStateException(dag.nodeCount() + " nodes in " + chains.count()
                + " chains: neither chain clocks nor bit rows fit in one Java array");
    }

    /**
     * Whether chain clocks for a graph of {@code nodes} nodes in {@code chainCount} chains are
     * smaller than its bit rows: then no engine that computes bit rows can beat them.
     */
    static boolean clocksSmallerThanRows(int nodes, int chainCount) {
        long clockLength = (long) nodes * chainCount;
        return JavaArrays.fits(clockLength)
                && clockLength * Integer.BYTES < BitRowReachability.wordCount(nodes) * Long.BYTES;
    }

    /**
     * Whether a graph of {@code nodes} nodes in {@code chainCount} chains gets chain clocks: when they
     * are smaller than bit rows, or when bit rows would exceed the budget or one array, as long as
     * the clocks fit in one array themselves.
     */
    boolean prefersChains(int nodes, int chainCount) {
        if (!JavaArrays.fits((long) nodes * chainCount)) {
            return false;
        }
        long bitRowWords = BitRowReachability.wordCount(nodes);
        return clocksSmallerThanRows(nodes, chainCount) || bitRowWords * Long.BYTES > bitRowBudget
                || !JavaArrays.fits(bitRowWords);
    }
}
