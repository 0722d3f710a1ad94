package dev.isocheck.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import dev.isocheck.IsolationViolationError;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * The runs of one {@code @InterleavingTest} fixture method, run through JUnit's EngineTestKit: each
 * schedule an invocation of its own ({@code "schedule 1 of 20: round robin"}), and after one that
 * violated the level, its replays ({@code "replay 1 of 2 of schedule 1 (ABAB...)"}).
 *
 * @param finished  the invocations that finished, in the order they ran
 * @param schedules the order each invocation ran in, as its report entry {@code isocheck.schedule}
 *                  gives it ({@code ABAB (A = pay-bob, B = pay-carol)}), by the invocation's unique id
 */
public record ExploredRuns(List<Event> finished, Map<String, String> schedules) {

    /**
     * Within how many schedules the examples' anomaly tests expect their anomaly: the first, round
     * robin, shows each of them when both threads reach the gate in time for its first decision; a
     * thread that starts late (a loaded machine, a connection opened outside the gate), or a
     * statement let through that reaches the server only after the other request committed, makes
     * the first schedule serial, and a random walk finds the anomaly next
     * ({@link ExamplesReliabilityTests}, run twice: 3 and 1 explorations of 1,000 needed the
     * second schedule, none a third).
     */
    public static final int FIRST_FEW = 3;

    private static final Pattern SCHEDULE = Pattern.compile("^schedule (\\d+) of (\\d+): ");

    /**
     * Runs {@code method} of {@code fixture}, its reports and histories written into {@code reports}.
     *
     * @param parameters further configuration parameters, such as {@code isocheck.schedules}
     */
    public static ExploredRuns of(Class<?> fixture, String method, Path reports, Map<String, String> parameters) {
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
                .selectors(selectMethod(fixture, method))
                .configurationParameter("isocheck.report.dir", reports.toString())
                .configurationParameters(parameters)
                .execute();
        Map<String, String> schedules = new HashMap<>();
        results.testEvents().reportingEntryPublished().stream().forEach(e -> e.getRequiredPayload(ReportEntry.class)
                .getKeyValuePairs().entrySet().stream().filter(entry -> entry.getKey().equals("isocheck.schedule"))
                .forEach(entry -> schedules.put(e.getTestDescriptor().getUniqueId().toString(), entry.getValue())));
        return new ExploredRuns(results.testEvents().finished().list(), schedules);
    }

    /** {@link #of(Class, String, Path, Map)} with no further parameters. */
    public static ExploredRuns of(Class<?> fixture, String method, Path reports) {
        return of(fixture, method, reports, Map.of());
    }

    /** The name of each invocation, in the order they ran. */
    public List<String> names() {
        return finished.stream().map(e -> e.getTestDescriptor().getDisplayName()).toList();
    }

    /**
     * What each invocation did, one line each: its name, how it ended (with the first line of its
     * failure) and the order its threads went in.
     */
    public List<String> describe() {
        return finished.stream().map(e -> e.getTestDescriptor().getDisplayName() + ": " + status(e)
                + failure(e).map(t -> " " + t.getClass().getSimpleName() + ": " + String.valueOf(t.getMessage()).strip().lines()
                        .filter(l -> !l.isBlank()).findFirst().orElse("")).orElse("")
                + " | " + schedules.getOrDefault(e.getTestDescriptor().getUniqueId().toString(), "(no order)")).toList();
    }

    /** How many invocations succeeded. */
    public int succeeded() {
        return (int) finished.stream().filter(e -> status(e) == TestExecutionResult.Status.SUCCESSFUL).count();
    }

    /** The first invocation that did not succeed, if any. */
    public Optional<Event> firstNotSucceeded() {
        return finished.stream().filter(e -> status(e) != TestExecutionResult.Status.SUCCESSFUL).findFirst();
    }

    /** The number of the schedule that first violated the level (from 1), if one did. */
    public OptionalInt firstViolatingSchedule() {
        for (Event e : finished) {
            OptionalInt number = scheduleNumber(e.getTestDescriptor().getDisplayName());
            if (number.isPresent() && failure(e).orElse(null) instanceof IsolationViolationError) {
                return number;
            }
        }
        return OptionalInt.empty();
    }

    /**
     * Asserts that the runs before the first failure passed, that the first failure is a violation
     * of the level found within the first {@code schedules} schedules, and returns it.
     */
    public IsolationViolationError assertViolationFoundWithin(int schedules) {
        Event first = firstNotSucceeded().orElseThrow(() -> new AssertionError("no schedule violated the level: " + names()));
        String name = first.getTestDescriptor().getDisplayName();
        assertThat(scheduleNumber(name).orElse(0)).as("the schedule of the first failure, %s (runs: %s)", name, names())
                .isBetween(1, schedules);
        Throwable thrown = failure(first).orElseThrow();
        assertThat(thrown).as("the failure of %s", name).isInstanceOf(IsolationViolationError.class);
        assertThat(thrown.getMessage()).contains("The order the threads went in (" + name + ")", "Run this order again: @InterleavingTest(replay = \"");
        return (IsolationViolationError) thrown;
    }

    /** Asserts that {@code schedules} schedules ran and every one passed; returns the runs. */
    public ExploredRuns assertEverySchedulePassed(int schedules) {
        assertThat(finished).as("the runs").allSatisfy(e -> assertThat(status(e))
                .as("%s: %s", e.getTestDescriptor().getDisplayName(), failure(e).map(Throwable::toString).orElse(""))
                .isEqualTo(TestExecutionResult.Status.SUCCESSFUL));
        assertThat(finished).as("the runs: %s", names()).hasSize(schedules);
        return this;
    }

    /** {@code 3} for {@code "schedule 3 of 20: random walk, seed 3"}; empty for a replay. */
    public static OptionalInt scheduleNumber(String displayName) {
        Matcher m = SCHEDULE.matcher(displayName);
        return m.find() ? OptionalInt.of(Integer.parseInt(m.group(1))) : OptionalInt.empty();
    }

    private static TestExecutionResult.Status status(Event e) {
        return e.getRequiredPayload(TestExecutionResult.class).getStatus();
    }

    private static Optional<Throwable> failure(Event e) {
        return e.getRequiredPayload(TestExecutionResult.class).getThrowable();
    }
}
