package dev.isocheck.internal.prune;

import dev.isocheck.spi.BitRowReachability;
import dev.isocheck.spi.Dag;
import dev.isocheck.spi.JavaArrays;
import dev.isocheck.spi.Reachability;
import dev.isocheck.spi.ReachabilityEngine;
import java.util.Optional;

/** {@link BitRowReachability#compute} as an engine, named {@code cpu-bitrows}: for tests. */
final class BitRowReachabilityEngine implements ReachabilityEngine {

    static final String NAME = "cpu-bitrows";

    @Override
    public String name() {
        return NAME;
    }

    /** Present when the rows would not fit in one Java array (about 370k nodes and more). */
    @Override
    public Optional<String> unavailableReason(int nodes, long edges) {
        long words = BitRowReachability.wordCount(nodes);
        if (JavaArrays.fits(words)) {
            return Optional.empty();
        }
        return Optional.of(nodes + " nodes need " + words + " words of bit rows, more than one array holds");
    }

    @Override
    public Reachability closureOf(Dag dag) {
        try {
            return BitRowReachability.compute(dag);
        } catch (IllegalArgumentException tooLarge) {
            throw new IllegalStateException(tooLarge.getMessage(), tooLarge);
        }
    }
}
