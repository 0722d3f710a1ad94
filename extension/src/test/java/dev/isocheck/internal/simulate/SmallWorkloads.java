package dev.isocheck.internal.simulate;

import dev.isocheck.internal.simulate.Workload.InitialKnowledge;

/**
 * Workloads small enough for the reference checker (at most 8 committed transactions), varied by
 * a number: unique or duplicate values, every kind of initial state, partial rows, aborts, with
 * and without times, and predicate reads in most. The engine's differential tests iterate over them.
 */
public final class SmallWorkloads {

    private SmallWorkloads() {
    }

    /** The workload numbered {@code variant} (any non-negative number; they repeat with period 420). */
    public static Workload variant(int variant) {
        InitialKnowledge[] initial = InitialKnowledge.values();
        Workload workload = Workload.defaults()
                .withSessions(2 + variant % 3, variant % 3 == 0 ? 4 : 2)
                .withMaxOpsPerTransaction(3 + variant % 3)
                .withKeys(1 + variant % 3, 1 + (variant / 2) % 3)
                .withValueDomain(variant % 4 == 0 ? 0 : 2 + variant % 3)
                .withInitialState(initial[(variant / 3) % initial.length])
                .withPartialRows(variant % 5 != 0)
                .withAbortProbability(variant % 2 == 0 ? 0.0 : 0.15)
                .withRecordTimes(variant % 7 != 3);
        return variant % 4 == 1 ? workload.withMix(5, 4, 1, 0) : workload;
    }
}
