package dev.isocheck.prune;

/** Placeholder selection: the CPU bit rows (replaced by the selection with chain clocks and GPU engines). */
public final class ReachabilityEngines {

    private ReachabilityEngines() {
    }

    /** The closure of {@code dag}. */
    public static Reachability closureOf(Dag dag) {
        return BitRowReachability.compute(dag);
    }
}
