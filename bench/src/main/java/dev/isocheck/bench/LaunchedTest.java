package dev.isocheck.bench;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import java.util.Map;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * One test method run through the JUnit Platform launcher, as a build tool runs it: when JUnit
 * reported it finished ({@link System#nanoTime}) and its outcome in a line (the status, and the
 * first line of what it threw). What the extension benchmarks time a check by.
 *
 * @param finishedNanos when JUnit reported the test finished
 * @param outcome       its status, with the first line of its failure's message, if any
 * @param entries       the report entries it published, by key (the last of each)
 */
record LaunchedTest(long finishedNanos, String outcome, Map<String, String> entries) {

    /**
     * Runs {@code method} of {@code testClass} with {@code configuration} as JUnit configuration
     * parameters.
     *
     * @throws IllegalStateException when no test finished
     */
    static LaunchedTest run(Class<?> testClass, String method, Map<String, String> configuration) {
        long[] finished = new long[1];
        String[] outcome = new String[1];
        Map<String, String> entries = new java.util.concurrent.ConcurrentHashMap<>();
        TestExecutionListener listener = new TestExecutionListener() {
            @Override
            public void reportingEntryPublished(TestIdentifier test, org.junit.platform.engine.reporting.ReportEntry entry) {
                entries.putAll(entry.getKeyValuePairs());
            }

            @Override
            public void executionFinished(TestIdentifier test, TestExecutionResult result) {
                if (test.isTest()) {
                    finished[0] = System.nanoTime();
                    outcome[0] = result.getStatus() + result.getThrowable()
                            .map(t -> ": " + String.valueOf(t.getMessage()).lines().findFirst().orElse("")).orElse("");
                }
            }
        };
        LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request()
                .selectors(selectMethod(testClass, method)).configurationParameters(configuration).build(), listener);
        if (outcome[0] == null) {
            throw new IllegalStateException(method + " did not run");
        }
        return new LaunchedTest(finished[0], outcome[0], Map.copyOf(entries));
    }
}
