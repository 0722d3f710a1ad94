package dev.isocheck.internal.warmup;

import dev.isocheck.CheckOptions;
import dev.isocheck.CheckResult;
import dev.isocheck.GpuMode;
import dev.isocheck.Isocheck;
import dev.isocheck.IsolationLevel;
import dev.isocheck.explain.HtmlRenderer;
import dev.isocheck.format.JsonlHistoryWriter;
import dev.isocheck.history.History;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Checks {@link TrainingWorkload}s as a test's check would: two satisfied histories, so that the
 * checker's classes are loaded and its hot loops compiled, then one violation explained, its report
 * rendered and its history written (to nowhere), the path of a failing test. Stops between checks
 * as soon as {@code stop} says so: the checks are small (a few hundred transactions, tens of
 * milliseconds once compiled), and whatever ran before the stop is what the first real check is
 * spared.
 *
 * <p>Its checks keep to themselves: histories of their own, no GPU (an engine's start is no part of
 * warming up, and would log where the real check should), short time limits, and no results kept.
 *
 * <p>{@link Background} runs it on a thread of its own, which no other check runs beside.
 */
public final class Warmup {

    /**
     * Satisfied histories checked before the violation. Two load the classes and compile the hot
     * code with C1; more bring C2 in, which on two cores took as much from the test's body as it
     * spared its check (docs/benchmarks.md).
     */
    static final int SATISFIED_ROUNDS = 2;

    /**
     * No GPU, and short time limits: a test waits for the step the warm-up is in when its own
     * check starts, so no step may take long, even on a machine far slower than expected (a
     * check past its limit is {@code UNKNOWN}, which the warm-up ignores).
     */
    private static final CheckOptions OPTIONS = CheckOptions.defaults().withGpuMode(GpuMode.OFF)
            .withTimeLimit(Duration.ofSeconds(2)).withExplainTimeLimit(Duration.ofSeconds(1));

    private Warmup() {
    }

    /**
     * Runs the warm-up at {@code level} on histories as the recorder records them, until done or
     * until {@code stop} is true before a step (a check, the explanation's text, its page, the
     * history's writing).
     *
     * @return how many checks ran
     */
    public static int run(IsolationLevel level, BooleanSupplier stop) {
        int checks = 0;
        for (int round = 0; round < SATISFIED_ROUNDS; round++) {
            if (stop.getAsBoolean()) {
                return checks;
            }
            Isocheck.check(TrainingWorkload.generate(round, 8, 40, 60, false).asRows(), level, OPTIONS);
            checks++;
        }
        if (stop.getAsBoolean()) {
            return checks;
        }
        History violated = TrainingWorkload.generate(SATISFIED_ROUNDS, 8, 20, 60, true).asRows();
        CheckResult result = Isocheck.check(violated, level, OPTIONS);
        if (stop.getAsBoolean()) {
            return checks + 1;
        }
        result.explanationText();
        if (stop.getAsBoolean()) {
            return checks + 1;
        }
        result.explanation().ifPresent(explanation -> new HtmlRenderer().render(explanation));
        if (stop.getAsBoolean()) {
            return checks + 1;
        }
        try {
            new JsonlHistoryWriter().write(violated, OutputStream.nullOutputStream());
        } catch (IOException e) {
            // Writing to nowhere fails only if the writer does; the warm-up has nothing to report.
        }
        return checks + 1;
    }
}
