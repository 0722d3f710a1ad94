package dev.isocheck.bench;

import dev.isocheck.IsolationLevel;
import dev.isocheck.history.History;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A generated history with what is known of it by construction.
 *
 * @param workload     the workload it came from
 * @param seed         the seed it was generated from
 * @param timing       how its start and end times relate to the serial order
 * @param history      every transaction committed, with start and end times unless the timing is {@link Timing#NONE}
 * @param serialOrder  the order the transactions ran in, one at a time (transaction ids): it
 *                     replays, and respects real time; empty when an anomaly was injected, since
 *                     then no such order exists at the levels the anomaly violates
 * @param uniqueValues whether no two writes of a key write the same value and none writes the
 *                     key's initial value (deletes aside), so each read has at most one writer
 * @param anomaly      the anomaly injected, or {@link InjectedAnomaly#NONE}
 * @param finalState   the plain keys' values after the run (the anomaly's keys, and rows, aside):
 *                     where a run continuing this one starts ({@link Workloads.Continuation})
 * @param nextValue    a value above every unique value the run wrote
 */
public record BenchHistory(Workloads.Kind workload, long seed, Timing timing, History history, List<String> serialOrder,
        boolean uniqueValues, InjectedAnomaly anomaly, Map<String, Integer> finalState, int nextValue) {

    /** Validates and copies. */
    public BenchHistory {
        Objects.requireNonNull(workload, "workload is null");
        Objects.requireNonNull(timing, "timing is null");
        Objects.requireNonNull(history, "history is null");
        Objects.requireNonNull(anomaly, "anomaly is null");
        serialOrder = List.copyOf(serialOrder);
        finalState = Map.copyOf(finalState);
    }

    /** Whether a correct checker must answer that the history satisfies {@code level}. */
    public boolean satisfies(IsolationLevel level) {
        return !anomaly.violates(level);
    }

    /** A short label, e.g. {@code blindw-rw} or {@code blindw-rw+lost-update}. */
    public String label() {
        return anomaly == InjectedAnomaly.NONE ? workload.cliName() : workload.cliName() + "+" + anomaly.cliName();
    }
}
