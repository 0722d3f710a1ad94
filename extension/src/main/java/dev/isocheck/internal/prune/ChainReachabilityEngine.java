package dev.isocheck.internal.prune;

import dev.isocheck.spi.Dag;
import dev.isocheck.spi.Reachability;
import dev.isocheck.spi.ReachabilityEngine;
import java.util.Optional;

/** {@link ChainReachability} as an engine, named {@code cpu-chains}: for tests. */
final class ChainReachabilityEngine implements ReachabilityEngine {

    static final String NAME = "cpu-chains";

    @Override
    public String name() {
        return NAME;
    }

    /** Always empty: the clock width is only known once the chains are found. */
    @Override
    public Optional<String> unavailableReason(int nodes, long edges) {
        return Optional.empty();
    }

    @Override
    public Reachability closureOf(Dag dag) {
        try {
            return ChainReachability.compute(dag);
        } catch (IllegalArgumentException tooLarge) {
            throw new IllegalStateException(tooLarge.getMessage(), tooLarge);
        }
    }
}
