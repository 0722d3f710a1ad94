package dev.isocheck.internal.schedule;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the {@link Gate} did in one run: the steps in the order it let the threads through, the
 * threads by letter, and why the run is not what it set out to be, where it is not.
 *
 * @param steps      the steps, in order
 * @param threads    each letter's thread name
 * @param uncontrolled why the gate did not decide every order, if it did not: a thread waited
 *                   outside the database, or ran long without reaching it
 * @param invalid    why the run does not count, if it does not: a database or pool timeout,
 *                   which holding threads may have caused
 * @param stalled    why the run was stopped, if it was: no thread reached the database for the
 *                   stall timeout while some waited outside it
 */
public record Trace(List<Step> steps, Map<String, String> threads, List<String> uncontrolled, Optional<String> invalid,
        Optional<String> stalled) {

    /** Copies. */
    public Trace {
        steps = List.copyOf(steps);
        threads = Map.copyOf(threads);
        uncontrolled = List.copyOf(uncontrolled);
    }

    /** The order the threads went in, one letter per step: {@code ABAB}, what {@code replay} takes. */
    public String order() {
        return Letters.join(steps.stream().map(Step::letter).toList());
    }

    /** The threads by letter, in letter order: {@code (A = pay-bob, B = pay-carol)}. */
    public String legend() {
        StringBuilder legend = new StringBuilder("(");
        threads.entrySet().stream().sorted(Map.Entry.comparingByKey(Letters::compare))
                .forEach(e -> legend.append(legend.length() > 1 ? ", " : "").append(e.getKey()).append(" = ").append(e.getValue()));
        return legend.append(')').toString();
    }

    /** How many steps each letter took, by letter. */
    public Map<String, Integer> stepsPerThread() {
        Map<String, Integer> counts = new java.util.TreeMap<>(Letters::compare);
        steps.forEach(s -> counts.merge(s.letter(), 1, Integer::sum));
        return counts;
    }

    /** The steps as a table, with the threads' letters explained above it. */
    public String table() {
        StringBuilder text = new StringBuilder();
        int width = threads.values().stream().mapToInt(String::length).max().orElse(6);
        for (Step step : steps) {
            text.append(step.line(width)).append('\n');
        }
        uncontrolled.forEach(u -> text.append("  Not fully controlled: ").append(u).append('\n'));
        return text.toString();
    }
}
