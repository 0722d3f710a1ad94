package dev.isocheck.examples.jooq;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import dev.isocheck.Recording;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * One fixture test (a method taking the test's {@link Recording}) run through JUnit's
 * EngineTestKit, so that a test can assert how it ended: failed with the anomaly explained, aborted
 * with what was left out, or passed.
 *
 * @param results what the engine reported
 */
record FixtureRun(EngineExecutionResults results) {

    /** Runs {@code fixture}'s {@code method}, writing isocheck's reports into {@code reports}. */
    static FixtureRun of(Class<?> fixture, String method, Path reports) {
        return new FixtureRun(EngineTestKit.engine("junit-jupiter")
                .selectors(selectMethod(fixture, method, Recording.class.getName()))
                .configurationParameter("isocheck.report.dir", reports.toString())
                .execute());
    }

    /** What ended the one test that failed (the run asserted to have one test, failed). */
    Throwable failure() {
        return ending(results.testEvents().assertStatistics(stats -> stats.started(1).failed(1)).failed().list().get(0));
    }

    /** What ended the one test that was aborted (the run asserted to have one test, aborted). */
    Throwable abort() {
        return ending(results.testEvents().assertStatistics(stats -> stats.started(1).aborted(1)).aborted().list().get(0));
    }

    /** Asserts that the run had one test, and that it passed. */
    void assertPassed() {
        results.testEvents().assertStatistics(stats -> stats.started(1).succeeded(1));
    }

    /** The report entries the test published ({@code isocheck.writes}, {@code isocheck.notModelled}, ...). */
    List<Map<String, String>> reportEntries() {
        return results.allEvents().reportingEntryPublished()
                .map(e -> e.getRequiredPayload(ReportEntry.class).getKeyValuePairs()).toList();
    }

    /** The value of the report entry {@code key}, or {@code null} when none was published. */
    String reportEntry(String key) {
        return reportEntries().stream().filter(e -> e.containsKey(key)).map(e -> e.get(key)).findFirst().orElse(null);
    }

    private static Throwable ending(Event event) {
        return event.getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();
    }
}
