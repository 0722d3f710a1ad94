package dev.isocheck.examples.jooq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import dev.isocheck.Recording;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * One fixture test (an {@code @InterleavingTest} method taking the test's {@link Recording}) run
 * through JUnit's EngineTestKit, each schedule it ran an invocation of its own
 * ({@code "schedule 1 of 20: round robin"}, then the replays of a schedule that failed), so that a
 * test can assert which failed first, and how.
 *
 * @param results what the engine reported
 */
record FixtureRun(EngineExecutionResults results) {

    private static final Pattern SCHEDULE = Pattern.compile("^schedule (\\d+) of \\d+");

    /**
     * Runs {@code fixture}'s {@code method}, writing isocheck's reports into {@code reports}. With
     * {@code -Dexamples.schedules=true}, prints each invocation, how it ended and the order its
     * threads went in (the report entry {@code isocheck.schedule}).
     */
    static FixtureRun of(Class<?> fixture, String method, Path reports) {
        FixtureRun run = new FixtureRun(EngineTestKit.engine("junit-jupiter")
                .selectors(selectMethod(fixture, method, Recording.class.getName()))
                .configurationParameter("isocheck.report.dir", reports.toString())
                .execute());
        if (Boolean.getBoolean("examples.schedules")) {
            run.print(fixture.getSimpleName() + "." + method);
        }
        return run;
    }

    /**
     * What failed the first invocation that failed, asserted to be one of the first {@code within}
     * schedules explored: the anomaly is found at once, not by luck late in the budget.
     */
    Throwable firstFailure(int within) {
        List<Event> failed = results.testEvents().failed().list();
        assertThat(failed).as("invocations that failed").isNotEmpty();
        Event first = failed.get(0);
        String schedule = first.getTestDescriptor().getDisplayName();
        Matcher number = SCHEDULE.matcher(schedule);
        assertThat(number.find()).as("the first failed invocation, %s, is a schedule explored", schedule).isTrue();
        assertThat(Integer.parseInt(number.group(1))).as("the schedule that found the anomaly, %s", schedule)
                .isBetween(1, within);
        return first.getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();
    }

    /** The report entries the invocations published ({@code isocheck.writes}, {@code isocheck.schedule}, ...). */
    List<Map<String, String>> reportEntries() {
        return results.allEvents().reportingEntryPublished()
                .map(e -> e.getRequiredPayload(ReportEntry.class).getKeyValuePairs()).toList();
    }

    /** The value of the first report entry {@code key}, or {@code null} when none was published. */
    String reportEntry(String key) {
        return reportEntries().stream().filter(e -> e.containsKey(key)).map(e -> e.get(key)).findFirst().orElse(null);
    }

    private void print(String test) {
        results.testEvents().finished().stream().forEach(e -> {
            TestExecutionResult result = e.getRequiredPayload(TestExecutionResult.class);
            String order = results.allEvents().reportingEntryPublished().stream()
                    .filter(r -> r.getTestDescriptor().equals(e.getTestDescriptor()))
                    .map(r -> r.getRequiredPayload(ReportEntry.class).getKeyValuePairs().get("isocheck.schedule"))
                    .filter(Objects::nonNull).findFirst().orElse("?");
            System.out.println("examples.schedules " + test + " | " + e.getTestDescriptor().getDisplayName() + " | "
                    + result.getStatus() + " | " + order + result.getThrowable().map(t -> " | " + t.getClass().getSimpleName()
                    + (Boolean.getBoolean("examples.messages") ? ": " + t.getMessage() : "")).orElse(""));
        });
    }
}
