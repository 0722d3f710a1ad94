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
 * ({@code n * n / 8} bytes), as long as it fits in one Java array.
 *
 * <p>Memory also ranks time, within a factor of two: per edge, chains cost one int operation per
 * chain and bit rows one long operation per 64 nodes, against 4 bytes per chain and 8 per 64 nodes.
 * (Until 2026-11-27 bit rows over 512 MiB gave way to chain clocks even when the clocks were the
 * larger: on a wide graph of 70k nodes in 17k chains that meant 4.8 GB of clocks in 6.5 s where
 * 0.6 GB of rows took 0.27 s, measured on a 16-core machine.)
 */
final class CpuReachabilityEngine implements ReachabilityEngine {

    static final String NAME = "cpu";

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
     * are smaller than bit rows, or when bit rows would not fit in one array, as long as the clocks
     * fit in one array themselves.
     */
    static boolean prefersChains(int nodes, int chainCount) {
        return clocksSmallerThanRows(nodes, chainCount)
                || JavaArrays.fits((long) nodes * chainCount) && !JavaArrays.fits(BitRowReachability.wordCount(nodes));
    }
}
