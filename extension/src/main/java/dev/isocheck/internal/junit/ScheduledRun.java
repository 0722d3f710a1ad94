package dev.isocheck.internal.junit;

import dev.isocheck.internal.schedule.Exploration;
import dev.isocheck.internal.schedule.Exploration.Plan;
import dev.isocheck.internal.schedule.Trace;
import java.util.Objects;
import java.util.Optional;

/**
 * One run of an interleaving test: its plan, and once its body ran, the order its gate let the
 * threads through, which the check's messages print beside the verdict.
 */
public final class ScheduledRun {

    private final Exploration exploration;
    private final Plan plan;
    private volatile Trace trace;

    /** The run {@code plan} of {@code exploration}. */
    public ScheduledRun(Exploration exploration, Plan plan) {
        this.exploration = Objects.requireNonNull(exploration, "exploration is null");
        this.plan = Objects.requireNonNull(plan, "plan is null");
    }

    /** The plan. */
    public Plan plan() {
        return plan;
    }

    /** The body ran: what its gate did. */
    public void ran(Trace trace) {
        this.trace = trace;
        exploration.ran(plan, trace);
    }

    /** What the gate did, once the body ran. */
    public Optional<Trace> trace() {
        return Optional.ofNullable(trace);
    }

    /** Why the run does not count, if a timeout the holding may have caused says so. */
    public Optional<String> invalid() {
        return trace().flatMap(Trace::invalid);
    }

    /** Whether no run follows this one, asked once it was judged. */
    public boolean last() {
        return exploration.over();
    }

    /** The check judged the run: the exploration plans what comes next from it. */
    public void judged(boolean violated, boolean expected) {
        exploration.judged(plan, trace == null ? new Trace(java.util.List.of(), java.util.Map.of(), java.util.List.of(),
                Optional.empty(), Optional.empty()) : trace, violated, expected);
    }

    /** The order as a report entry: {@code ABAB (A = pay-bob, B = pay-carol)}. */
    public String entry() {
        return trace().map(t -> t.order() + " " + t.legend()
                + (t.uncontrolled().isEmpty() ? "" : "; not fully controlled: " + String.join("; ", t.uncontrolled())))
                .orElse("(the body did not run)");
    }

    /** How many runs the exploration made so far, for a message about all of them. */
    public String explored() {
        long orders = exploration.orderCount();
        return exploration.distinctOrders() + " distinct order" + (exploration.distinctOrders() == 1 ? "" : "s")
                + (orders > 0 && orders < Long.MAX_VALUE ? " of the " + orders + " the first run's points have" : "");
    }

    /**
     * What a failure message adds: the run's name, the steps in the order the gate let them
     * through, and how to run that order again.
     */
    public String section(String annotation) {
        Trace t = trace().orElse(null);
        if (t == null) {
            return "";
        }
        StringBuilder text = new StringBuilder();
        if (plan.kind() == Exploration.Kind.REPLAY) {
            text.append("This was ").append(plan.name()).append(": the anomaly came back in ").append(exploration.reproduced())
                    .append(" of ").append(exploration.replays()).append(" replay").append(exploration.replays() == 1 ? "" : "s")
                    .append(" so far.\n");
        }
        text.append("The order the threads went in (").append(plan.name()).append("), ").append(t.legend()).append(":\n");
        text.append(t.table());
        text.append("Run this order again: ").append(annotation).append("(replay = \"").append(t.order()).append("\")")
                .append(" (the database decides lock queues and which transaction fails: a replay brings back the anomaly,"
                        + " not necessarily the same bytes)\n");
        return text.toString();
    }
}
