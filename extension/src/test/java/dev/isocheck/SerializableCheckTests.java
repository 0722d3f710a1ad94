package dev.isocheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.isocheck.internal.cli.CheckCommand;
import dev.isocheck.internal.recording.NotModelled;
import dev.isocheck.internal.recording.Recording;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.reporting.FileEntry;
import org.junit.platform.engine.reporting.OutputDirectoryProvider;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

@DisplayName("@SerializableCheck")
class SerializableCheckTests {

    @TempDir
    Path reports;

    @Test
    void aWriteSkewFailsTheTestWithTheExplanationTheFilesAndWhatWasNotModelled() {
        Throwable failure = onlyFailure(run(WriteSkewTestCase.class));

        assertThat(failure).isInstanceOf(IsolationViolationError.class);
        String file = "SerializableCheckTests.WriteSkewTestCase.writeSkew-" + digestIn(failure.getMessage());
        // The times are the recorder's clock (System.nanoTime()), different every run.
        assertThat(failure.getMessage().replace(reports.toString(), "<reports>").replaceAll("time \\d+\\.\\.\\d+", "time <time>")).isEqualTo("""
                isocheck: the transactions of SerializableCheckTests$WriteSkewTestCase > writeSkew() violate serializable

                G2-item (write skew) at serializable: a cycle of 2 transactions
                  T1 -rw doctors/bob-> T2 -rw doctors/alice-> T1

                    T1 -rw doctors/bob-> T2    T1 read doctors/bob = {"name":"bob","on_call":true}, the initial
                                               value; T2 installed a later version, doctors/bob =
                                               {"name":"bob","on_call":false}, so T1 did not see T2's write
                                               T1: SELECT on_call FROM doctors WHERE name = ?  [bob]
                                               T2: UPDATE doctors SET on_call = ? WHERE name = ?  [false, bob]
                    T2 -rw doctors/alice-> T1  T2 read doctors/alice = {"name":"alice","on_call":true}, the initial
                                               value; T1 installed a later version, doctors/alice =
                                               {"name":"alice","on_call":false}, so T2 did not see T1's write
                                               T2: SELECT on_call FROM doctors WHERE name = ?  [alice]
                                               T1: UPDATE doctors SET on_call = ? WHERE name = ?  [false, alice]

                  A serializable order would put each transaction before the next one around the cycle, and so the
                  last before the first: no order can.

                  Transactions:
                    T1  session connection-1  thread alice  time <time>
                        SELECT on_call FROM doctors WHERE name = ?  [bob]
                          0  read doctors/bob = {"name":"bob","on_call":true}
                        UPDATE doctors SET on_call = ? WHERE name = ?  [false, alice]
                          1  read doctors/alice = {"name":"alice"}
                          2  write doctors/alice = {"name":"alice","on_call":false}
                    T2  session connection-2  thread bob  time <time>
                        SELECT on_call FROM doctors WHERE name = ?  [alice]
                          0  read doctors/alice = {"name":"alice","on_call":true}
                        UPDATE doctors SET on_call = ? WHERE name = ?  [false, bob]
                          1  read doctors/bob = {"name":"bob"}
                          2  write doctors/bob = {"name":"bob","on_call":false}

                Report:  <reports>/%1$s.html
                History: <reports>/%1$s.jsonl
                  check it again: java -jar isocheck.jar check --level serializable <reports>/%1$s.jsonl

                Not modelled, so not checked:
                  table audit_log: written through a stored procedure
                """.formatted(file));
        IsolationViolationError violation = (IsolationViolationError) failure;
        assertThat(violation.level()).isEqualTo(IsolationLevel.SERIALIZABLE);
        assertThat(violation.anomaly().type()).isEqualTo(AnomalyType.G2_ITEM);
        assertThat(violation.anomaly().transactions()).containsExactly("T1", "T2");
        assertThat(violation.anomaly().explanation()).startsWith("G2-item (write skew) at serializable");
        assertThat(violation.explanation().transactions()).extracting(t -> t.id()).containsExactly("T1", "T2");
        assertThat(violation.reportFile()).isEqualTo(reports.resolve(file + ".html")).isRegularFile();
        assertThat(violation.historyFile()).isEqualTo(reports.resolve(file + ".jsonl")).isRegularFile();
        assertThat(violation.notModelled()).containsExactly("table audit_log: written through a stored procedure");
    }

    @Test
    void theHistoryFileChecksAgainOfflineToTheSameExplanation() throws Exception {
        IsolationViolationError violation = (IsolationViolationError) onlyFailure(run(WriteSkewTestCase.class));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = new CheckCommand(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(new ByteArrayOutputStream()))
                .run(new String[] {"--level", "serializable", violation.historyFile().toString()});

        assertThat(status).isEqualTo(CheckCommand.EXIT_VIOLATION);
        String explanation = violation.result().explanationText().orElseThrow();
        String printed = out.toString(StandardCharsets.UTF_8);
        // The command nests the explanation under its verdict line, so its lines wrap elsewhere.
        assertThat(printed.replaceAll("\\s+", " ")).contains(explanation.replaceAll("\\s+", " ").strip());
        assertThat(Files.readString(violation.reportFile(), StandardCharsets.UTF_8)).startsWith("<!DOCTYPE html>")
                .contains("G2-item (write skew) at serializable");
    }

    @Test
    void theReportAndTheHistoryArePublishedAsFilesOfTheTest(@TempDir Path published) {
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter").selectors(selectClass(WriteSkewTestCase.class))
                .configurationParameter("isocheck.report.dir", reports.toString())
                .outputDirectoryProvider(new OutputDirectoryProvider() {
                    @Override
                    public Path getRootDirectory() {
                        return published;
                    }

                    @Override
                    public Path createOutputDirectory(TestDescriptor test) throws IOException {
                        return Files.createDirectories(published.resolve(Integer.toHexString(test.getUniqueId().hashCode())));
                    }
                })
                .execute();

        List<FileEntry> files = results.allEvents().fileEntryPublished().map(e -> e.getRequiredPayload(FileEntry.class)).toList();
        assertThat(files).extracting(f -> f.getPath().getFileName().toString().replaceAll("-[0-9a-f]{8}\\.", "."))
                .containsExactly("SerializableCheckTests.WriteSkewTestCase.writeSkew.html",
                        "SerializableCheckTests.WriteSkewTestCase.writeSkew.jsonl");
        assertThat(files).extracting(f -> f.getMediaType().orElseThrow())
                .containsExactly("text/html; charset=UTF-8", "application/json; charset=UTF-8");
        assertThat(files).allSatisfy(f -> assertThat(f.getPath()).isRegularFile().startsWith(published));
    }

    @Test
    void aMethodAnnotationOverridesItsClassSoTheWriteSkewPassesAtSnapshotIsolation() {
        EngineExecutionResults results = run(SnapshotIsolationTestCase.class);

        results.testEvents().assertStatistics(stats -> stats.started(1).succeeded(1).failed(0));
    }

    @Test
    void theConfiguredLevelIsTheDefaultOfAnAnnotationThatNamesNone() {
        // The test case leaves a table out: reported, so that its pass shows the level's.
        EngineExecutionResults results = run(WriteSkewTestCase.class, Map.of("isocheck.level", "snapshot-isolation",
                "isocheck.left-out", "report"));

        results.testEvents().assertStatistics(stats -> stats.started(1).succeeded(1).failed(0));
    }

    @Test
    void aTestThatRecordsNothingPasses() {
        EngineExecutionResults results = run(NothingRecordedTestCase.class);

        results.testEvents().assertStatistics(stats -> stats.started(1).succeeded(1));
        assertThat(reports).isEmptyDirectory();
    }

    @Test
    void eachTestMethodHasAHistoryOfItsOwn() {
        EngineExecutionResults results = run(TwoHalvesTestCase.class);

        results.testEvents().assertStatistics(stats -> stats.started(2).succeeded(2).failed(0));
    }

    @Test
    void threadsOfAnExecutorTheTestCreatesRecordIntoItsHistory() {
        Throwable failure = onlyFailure(run(ExecutorTestCase.class));

        assertThat(failure).isInstanceOf(IsolationViolationError.class);
        assertThat(((IsolationViolationError) failure).explanation().transactions())
                .extracting(t -> t.thread().orElseThrow()).containsExactly("executor-1", "executor-2");
    }

    @Test
    void testsRunningInParallelKeepTheirHistoriesApart() {
        // Both methods are in progress at once (a barrier holds each until the other has started).
        EngineExecutionResults results = run(ParallelHalvesTestCase.class, Map.of(
                "junit.jupiter.execution.parallel.enabled", "true",
                "junit.jupiter.execution.parallel.mode.default", "concurrent",
                "junit.jupiter.execution.parallel.config.strategy", "fixed",
                "junit.jupiter.execution.parallel.config.fixed.parallelism", "2"));

        results.testEvents().assertStatistics(stats -> stats.started(2).succeeded(2).failed(0));
    }

    @Test
    void aTestRunningInParallelWithAnotherThatCreatedTheExecutorItUsesIsNotFailedByIt() {
        // The executor's thread is started by one test and inherits its binding; the other test
        // runs its write on it. Recorded into the first test's history only, the second's read
        // back of its own write looked impossible.
        EngineExecutionResults results = run(SharedExecutorTestCase.class, Map.of(
                "junit.jupiter.execution.parallel.enabled", "true",
                "junit.jupiter.execution.parallel.mode.default", "concurrent",
                "junit.jupiter.execution.parallel.config.strategy", "fixed",
                "junit.jupiter.execution.parallel.config.fixed.parallelism", "2"));

        results.testEvents().assertStatistics(stats -> stats.started(2).succeeded(2).failed(0).aborted(0));
        assertThat(results.allEvents().reportingEntryPublished()
                .map(e -> e.getRequiredPayload(ReportEntry.class).getKeyValuePairs().toString()).toList())
                .anyMatch(entry -> entry.contains("recorded in each of those tests' histories"));
    }

    @Test
    void whatBeforeEachMethodsDoIsRecordedWithTheTest() {
        Throwable failure = onlyFailure(run(BeforeEachTestCase.class));

        assertThat(failure).isInstanceOf(IsolationViolationError.class);
        assertThat(((IsolationViolationError) failure).explanation().transactions()).extracting(t -> t.id())
                .containsExactly("T1", "T2");
    }

    @Test
    void aTestThatNeverGetsCheckedLeavesNoRecordingInProgress() {
        EngineExecutionResults results = run(FailingBeforeEachTestCase.class);

        assertThat(onlyFailure(results)).hasMessage("the database is not there");
        // An unfinished recording would be "the only one in progress" and catch this thread's work.
        assertThat(Recording.current()).isEmpty();
    }

    @Test
    void aPassWithATableLeftOutIsAbortedSayingWhatWasLeftOut() {
        EngineExecutionResults results = run(NotModelledTestCase.class);

        results.testEvents().assertStatistics(stats -> stats.aborted(1).succeeded(0).failed(0));
        Throwable abort = results.testEvents().aborted().stream().findFirst().orElseThrow()
                .getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();
        assertThat(abort).isInstanceOf(org.opentest4j.TestAbortedException.class).hasMessage("""
                isocheck: the transactions of SerializableCheckTests$NotModelledTestCase > reads() satisfy serializable \
                as far as they were recorded, but tables they touched were left out of the check:
                  table audit_log: written through a stored procedure
                (isocheck.left-out = abort; with report the test passes and lists them in a report entry)""");
        // The report entry too, as for any pass.
        assertThat(results.allEvents().reportingEntryPublished()
                .map(e -> e.getRequiredPayload(ReportEntry.class).getKeyValuePairs()).toList())
                .contains(Map.of("isocheck.notModelled", "table audit_log: written through a stored procedure"));
    }

    @Test
    void aPassWithATableLeftOutFailsWhenConfiguredTo() {
        assertThat(onlyFailure(run(NotModelledTestCase.class, Map.of("isocheck.left-out", "fail"))))
                .isInstanceOf(AssertionFailedError.class).hasMessageContaining("table audit_log: written through a stored procedure");
    }

    @Test
    void whatWasNotModelledIsReportedWhenTheTestPassesAsConfigured() {
        EngineExecutionResults results = run(NotModelledTestCase.class, Map.of("isocheck.left-out", "report"));

        results.testEvents().assertStatistics(stats -> stats.succeeded(1));
        List<Map<String, String>> entries = results.allEvents().reportingEntryPublished()
                .map(e -> e.getRequiredPayload(ReportEntry.class).getKeyValuePairs()).toList();
        assertThat(entries).containsExactly(Map.of("isocheck.notModelled", "table audit_log: written through a stored procedure"));
    }

    @Test
    void readsLeftUncheckedAloneStillPass() {
        EngineExecutionResults results = run(ReadsNotModelledTestCase.class);

        results.testEvents().assertStatistics(stats -> stats.succeeded(1));
    }

    @Test
    void anUndecidedCheckFailsTheTest() {
        Throwable failure = onlyFailure(run(WriteSkewTestCase.class, Map.of("isocheck.timeout", "1 ns")));

        assertThat(failure).isExactlyInstanceOf(AssertionFailedError.class);
        String file = "SerializableCheckTests.WriteSkewTestCase.writeSkew-" + digestIn(failure.getMessage());
        assertThat(failure.getMessage().replace(reports.toString(), "<reports>")).isEqualTo("""
                isocheck could not decide whether the transactions of SerializableCheckTests$WriteSkewTestCase > writeSkew() \
                satisfy serializable: the check did not finish within 1 ns (isocheck.timeout)

                History: <reports>/%1$s.jsonl
                  check it again: java -jar isocheck.jar check --level serializable <reports>/%1$s.jsonl

                Not modelled, so not checked:
                  table audit_log: written through a stored procedure
                """.formatted(file));
    }

    @Test
    void anUndecidedCheckAbortsTheTestWhenConfiguredTo() {
        EngineExecutionResults results = run(WriteSkewTestCase.class, Map.of("isocheck.timeout", "1 ns", "isocheck.undecided", "abort"));

        results.testEvents().assertStatistics(stats -> stats.aborted(1).failed(0).succeeded(0));
        Throwable abort = results.testEvents().aborted().stream().findFirst().orElseThrow()
                .getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();
        assertThat(abort).isInstanceOf(TestAbortedException.class)
                .hasMessageStartingWith("isocheck could not decide whether the transactions of");
    }

    @Test
    void aBadLevelFailsTheTestNamingTheKeyTheValueAndTheLevels() {
        Throwable failure = onlyFailure(run(NothingRecordedTestCase.class, Map.of("isocheck.level", "repeatable-read")));

        assertThat(failure).isInstanceOf(ExtensionConfigurationException.class).hasMessage("Invalid value of configuration"
                + " parameter isocheck.level: \"repeatable-read\"; expected one of strict-serializable, serializable,"
                + " snapshot-isolation, prefix, causal, read-atomic, read-committed");
    }

    @Test
    void aBadTimeoutOrUndecidedFailsTheTest() {
        assertThat(onlyFailure(run(NothingRecordedTestCase.class, Map.of("isocheck.timeout", "soon")))).hasMessage(
                "Invalid value of configuration parameter isocheck.timeout: \"soon\"; expected a positive duration such as 30s,"
                        + " 30 s, 500ms, 5m, 1h or 1m30s (units ns, μs, ms, s, m, h, d; a bare number is seconds)");
        assertThat(onlyFailure(run(NothingRecordedTestCase.class, Map.of("isocheck.undecided", "pass")))).hasMessage(
                "Invalid value of configuration parameter isocheck.undecided: \"pass\"; expected one of fail, abort");
    }

    @Test
    void anUnknownIsocheckSystemPropertyFailsNothingAndIsWarnedAboutOnce() {
        // As a build passes it: mvn test -Disocheck.version=0.1.0, and a typo beside it.
        System.setProperty("isocheck.version", "0.1.0");
        System.setProperty("isocheck.levle", "serializable");
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger("dev.isocheck");
        List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler handler = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord record) {
                warnings.add(record.getLevel() + " " + record.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(handler);
        try {
            run(NothingRecordedTestCase.class).testEvents().assertStatistics(stats -> stats.succeeded(1).failed(0));
            run(WriteSkewTestCase.class).testEvents().assertStatistics(stats -> stats.failed(1));
            run(NothingRecordedTestCase.class).testEvents().assertStatistics(stats -> stats.succeeded(1).failed(0));

            assertThat(warnings).filteredOn(w -> w.contains("isocheck.version")).singleElement().asString()
                    .startsWith("WARNING isocheck ignores the system property isocheck.version (set to \"0.1.0\"): not one of"
                            + " its configuration parameters; it reads isocheck.level,");
            assertThat(warnings).filteredOn(w -> w.contains("isocheck.levle")).singleElement().asString()
                    .contains("did you mean isocheck.level?");
        } finally {
            logger.removeHandler(handler);
            System.clearProperty("isocheck.version");
            System.clearProperty("isocheck.levle");
        }
    }

    @Test
    void aLevelWrittenOnTheAnnotationWinsOverTheConfiguredOneEvenWhenItIsSerializable() {
        EngineExecutionResults results = run(ExplicitLevelsTestCase.class, Map.of("isocheck.level", "snapshot-isolation"));

        // Serializable written out: the write skew fails, whatever isocheck.level says.
        results.testEvents().failed().assertThatEvents().singleElement().satisfies(e -> assertThat(e.getTestDescriptor()
                .getDisplayName()).isEqualTo("serializableWrittenOut()"));
        // Unwritten on the method: its class's snapshot isolation, which a write skew satisfies.
        results.testEvents().assertStatistics(stats -> stats.succeeded(1).failed(1));
    }

    @Test
    void anExpectedAnomalyThatShowsPassesTheTestWithItsExplanationReported() {
        EngineExecutionResults results = run(ExpectedWriteSkewTestCase.class);

        results.testEvents().assertStatistics(stats -> stats.succeeded(1).failed(0));
        assertThat(results.allEvents().reportingEntryPublished().stream()
                .map(e -> e.getRequiredPayload(org.junit.platform.engine.reporting.ReportEntry.class).getKeyValuePairs())
                .filter(entry -> entry.containsKey("isocheck.expected")).map(entry -> entry.get("isocheck.expected")))
                .singleElement().asString().contains("write skew");
    }

    @Test
    void anExpectedAnomalyThatDoesNotShowFailsTheTestSayingWhat() {
        Throwable serial = onlyFailure(run(ExpectedButSerialTestCase.class));
        assertThat(serial).isInstanceOf(AssertionFailedError.class).hasMessageContaining("was expected to show Write Skew at"
                + " serializable, but its transactions satisfy serializable: the run did not overlap");

        Throwable other = onlyFailure(run(ExpectedOtherAnomalyTestCase.class));
        assertThat(other).isInstanceOf(AssertionFailedError.class)
                .hasMessageContaining("was expected to show lost update at serializable, but its violation shows [")
                .hasMessageContaining("write skew");
    }

    @Test
    void anExpectedAnomalyIsocheckCannotShowIsAConfigurationError() {
        Throwable failure = onlyFailure(run(ExpectedNonsenseTestCase.class));

        assertThat(failure).isInstanceOf(ExtensionConfigurationException.class)
                .hasMessageContaining("@SerializableCheck(expect = \"dirty dancing\")").hasMessageContaining("write skew");
    }

    @Test
    void anAnnotationNamingTwoLevelsFailsTheTest() {
        Throwable failure = onlyFailure(run(TwoLevelsTestCase.class));

        assertThat(failure).isInstanceOf(ExtensionConfigurationException.class).hasMessageContaining("names 2 levels")
                .hasMessageContaining("name one");
    }

    @Test
    void aTimeoutIsTheChecksOwnTimeLimitToo() {
        dev.isocheck.internal.junit.Configuration configuration = new dev.isocheck.internal.junit.Configuration(
                IsolationLevel.SERIALIZABLE, reports, java.time.Duration.ofMillis(1500),
                dev.isocheck.internal.junit.Undecided.FAIL, dev.isocheck.GpuMode.OFF);

        assertThat(configuration.checkOptions().timeLimit()).isEqualTo(java.time.Duration.ofMillis(1500));
        assertThat(run(NothingRecordedTestCase.class, Map.of("isocheck.timeout", "1m30s")).testEvents().succeeded().count())
                .isOne();
    }

    @Test
    void theFirstChecksWarmUpIsOnOrOffAndNothingElse() {
        assertThat(onlyFailure(run(NothingRecordedTestCase.class, Map.of("isocheck.warmup", "maybe")))).hasMessage(
                "Invalid value of configuration parameter isocheck.warmup: \"maybe\"; expected true or false");
        for (String value : List.of("false", "true", " FALSE ")) {
            assertThat(run(WriteSkewTestCase.class, Map.of("isocheck.warmup", value)).testEvents().failed().count())
                    .as(value).isOne();
            // Whether it ran in this run or an earlier one of this JVM, it never outlives a run.
            assertThat(Thread.getAllStackTraces().keySet()).as(value)
                    .noneMatch(thread -> thread.getName().equals("isocheck-warmup"));
        }
    }

    @Test
    void anUnknownIsocheckKeyInJunitPlatformPropertiesFailsTheTest(@TempDir Path classes) throws Exception {
        Files.writeString(classes.resolve("junit-platform.properties"), "isocheck.report.directory = build/isocheck\n");
        ClassLoader original = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, original)) {
            Thread.currentThread().setContextClassLoader(loader);
            Throwable failure = onlyFailure(run(NothingRecordedTestCase.class));

            assertThat(failure).isInstanceOf(ExtensionConfigurationException.class).hasMessageStartingWith("Unknown configuration"
                    + " parameter isocheck.report.directory (set to \"build/isocheck\" in junit-platform.properties), did you mean"
                    + " isocheck.report.dir?; isocheck reads isocheck.level,");
        } finally {
            Thread.currentThread().setContextClassLoader(original);
        }
    }

    private EngineExecutionResults run(Class<?> testCase) {
        return run(testCase, Map.of());
    }

    private EngineExecutionResults run(Class<?> testCase, Map<String, String> configuration) {
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(testCase))
                .configurationParameter("isocheck.report.dir", reports.toString())
                .configurationParameters(configuration)
                .execute();
    }

    private static Throwable onlyFailure(EngineExecutionResults results) {
        List<Event> failed = results.testEvents().failed().list();
        assertThat(failed).hasSize(1);
        return failed.get(0).getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();
    }

    /** The digest a file name in the message ends with (it depends on the test's unique id only). */
    private static String digestIn(String message) {
        return Stream.of(message.split("\n")).filter(l -> l.startsWith("History: ")).findFirst().orElseThrow()
                .replaceAll(".*-([0-9a-f]{8})\\.jsonl$", "$1");
    }

    @SerializableCheck
    static class WriteSkewTestCase {

        final Doctors doctors = new Doctors();

        @Test
        void writeSkew() throws Exception {
            doctors.writeSkewOnTwoThreads();
            Recording.current().orElseThrow().notModelled(new NotModelled("table audit_log", "written through a stored procedure"));
        }
    }

    @SerializableCheck
    static class SnapshotIsolationTestCase {

        final Doctors doctors = new Doctors();

        @Test
        @SerializableCheck(level = IsolationLevel.SNAPSHOT_ISOLATION)
        void writeSkew() throws Exception {
            doctors.writeSkewOnTwoThreads();
        }
    }

    @SerializableCheck(level = IsolationLevel.SNAPSHOT_ISOLATION)
    static class ExplicitLevelsTestCase {

        final Doctors doctors = new Doctors();

        @Test
        @SerializableCheck(level = IsolationLevel.SERIALIZABLE)
        void serializableWrittenOut() throws Exception {
            doctors.writeSkewOnTwoThreads();
        }

        @Test
        @SerializableCheck
        void unwritten() throws Exception {
            doctors.writeSkewOnTwoThreads();
        }
    }

    @SerializableCheck(expect = "write skew")
    static class ExpectedWriteSkewTestCase {

        final Doctors doctors = new Doctors();

        @Test
        void writeSkew() throws Exception {
            doctors.writeSkewOnTwoThreads();
        }
    }

    static class ExpectedButSerialTestCase {

        final Doctors doctors = new Doctors();

        @Test
        @SerializableCheck(expect = "Write Skew")
        void oneAfterTheOther() {
            doctors.goOffCall("alice", "bob");
        }
    }

    static class ExpectedOtherAnomalyTestCase {

        final Doctors doctors = new Doctors();

        @Test
        @SerializableCheck(expect = "lost update")
        void writeSkew() throws Exception {
            doctors.writeSkewOnTwoThreads();
        }
    }

    static class ExpectedNonsenseTestCase {

        @Test
        @SerializableCheck(expect = "dirty dancing")
        void nothing() {
        }
    }

    static class TwoLevelsTestCase {

        @Test
        @SerializableCheck(level = {IsolationLevel.SERIALIZABLE, IsolationLevel.SNAPSHOT_ISOLATION})
        void twoLevels() {
        }
    }

    @SerializableCheck
    static class NothingRecordedTestCase {

        @Test
        void nothing() {
        }
    }

    /** Each method records one half of a write skew in a database of its own, under the same keys: mixed, they would fail. */
    @SerializableCheck
    static class TwoHalvesTestCase {

        final Doctors doctors = new Doctors();

        @Test
        void alice() {
            doctors.goOffCall("alice", "bob");
        }

        @Test
        void bob() {
            doctors.goOffCall("bob", "alice");
        }
    }

    /** Alice's transaction starts in a {@code @BeforeEach} method and ends after Bob's, which the test runs. */
    @SerializableCheck
    static class BeforeEachTestCase {

        final Doctors doctors = new Doctors();
        Doctors.OpenTransaction alice;

        @BeforeEach
        void aliceChecksThatBobIsOnCall() throws SQLException {
            alice = doctors.startGoingOffCall("alice", "bob");
        }

        @Test
        void bobGoesOffCallThenAlice() throws SQLException {
            doctors.goOffCall("bob", "alice");
            alice.finish();
        }
    }

    @SerializableCheck
    static class FailingBeforeEachTestCase {

        final Doctors doctors = new Doctors();

        @BeforeEach
        void connect() {
            doctors.goOffCall("alice", "bob");
            throw new IllegalStateException("the database is not there");
        }

        @Test
        void neverRuns() {
        }
    }

    @SerializableCheck
    static class ExecutorTestCase {

        final Doctors doctors = new Doctors();

        @Test
        void writeSkewOnExecutors() throws Exception {
            ExecutorService first = Executors.newSingleThreadExecutor(r -> new Thread(r, "executor-1"));
            ExecutorService second = Executors.newSingleThreadExecutor(r -> new Thread(r, "executor-2"));
            try {
                doctors.writeSkew(first, second);
            } finally {
                first.shutdownNow();
                second.shutdownNow();
            }
        }
    }

    /** Two tests in progress at once, sharing an executor the first one started. */
    @SerializableCheck
    static class SharedExecutorTestCase {

        static final CountDownLatch EXECUTOR_STARTED = new CountDownLatch(1);
        static final CountDownLatch SECOND_DONE = new CountDownLatch(1);
        static volatile ExecutorService shared;
        static final javax.sql.DataSource DATABASE = counters();

        static javax.sql.DataSource counters() {
            org.h2.jdbcx.JdbcDataSource h2 = new org.h2.jdbcx.JdbcDataSource();
            h2.setURL("jdbc:h2:mem:shared-executor-" + System.nanoTime() + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000");
            try (java.sql.Connection c = h2.getConnection(); java.sql.Statement s = c.createStatement()) {
                s.execute("CREATE TABLE counters (id INT PRIMARY KEY, n INT NOT NULL)");
                s.execute("INSERT INTO counters VALUES (1, 0), (2, 0)");
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
            return Isocheck.record(h2);
        }

        @Test
        void first() throws Exception {
            shared = Executors.newSingleThreadExecutor(r -> new Thread(r, "shared-executor"));
            shared.submit(() -> set(1, 1)).get(10, TimeUnit.SECONDS);
            EXECUTOR_STARTED.countDown();
            // In progress until the second test has used the executor.
            assertThat(SECOND_DONE.await(10, TimeUnit.SECONDS)).isTrue();
            shared.shutdown();
        }

        @Test
        void second() throws Exception {
            assertThat(EXECUTOR_STARTED.await(10, TimeUnit.SECONDS)).isTrue();
            try {
                assertThat(get(2)).isZero();
                shared.submit(() -> set(2, 5)).get(10, TimeUnit.SECONDS);
                assertThat(get(2)).isEqualTo(5);
            } finally {
                SECOND_DONE.countDown();
            }
        }

        static Void set(int id, int n) throws SQLException {
            try (java.sql.Connection c = DATABASE.getConnection();
                 java.sql.PreparedStatement s = c.prepareStatement("UPDATE counters SET n = ? WHERE id = ?")) {
                s.setInt(1, n);
                s.setInt(2, id);
                s.executeUpdate();
            }
            return null;
        }

        static int get(int id) throws SQLException {
            try (java.sql.Connection c = DATABASE.getConnection();
                 java.sql.PreparedStatement s = c.prepareStatement("SELECT n FROM counters WHERE id = ?")) {
                s.setInt(1, id);
                try (java.sql.ResultSet rs = s.executeQuery()) {
                    rs.next();
                    return rs.getInt(1);
                }
            }
        }
    }

    /** As {@link TwoHalvesTestCase}, with both methods in progress at once. */
    @SerializableCheck
    static class ParallelHalvesTestCase {

        static final CyclicBarrier BOTH_STARTED = new CyclicBarrier(2);

        final Doctors doctors = new Doctors();

        @Test
        void alice() throws Exception {
            BOTH_STARTED.await(10, TimeUnit.SECONDS);
            doctors.goOffCall("alice", "bob");
        }

        @Test
        void bob() throws Exception {
            BOTH_STARTED.await(10, TimeUnit.SECONDS);
            doctors.goOffCall("bob", "alice");
        }
    }

    static class ReadsNotModelledTestCase {

        final Doctors doctors = new Doctors();

        @Test
        @SerializableCheck
        void reads() {
            doctors.goOffCall("alice", "bob");
            Recording.current().orElseThrow().notModelled(new NotModelled("the query SELECT * FROM a JOIN b", "a join"));
        }
    }

    static class NotModelledTestCase {

        final Doctors doctors = new Doctors();

        @Test
        @SerializableCheck
        void reads() {
            doctors.goOffCall("alice", "bob");
            Recording.current().orElseThrow().notModelled(new NotModelled("table audit_log", "written through a stored procedure"));
        }
    }
}
