package dev.isocheck;

import dev.isocheck.internal.junit.CheckWarmup;
import dev.isocheck.internal.junit.Configuration;
import dev.isocheck.internal.junit.LeftOut;
import dev.isocheck.internal.junit.RecordingHandle;
import dev.isocheck.internal.junit.ScheduledRun;
import dev.isocheck.internal.junit.TestCheck;
import dev.isocheck.internal.junit.TestCheck.Outcome;
import dev.isocheck.internal.junit.TestFiles;
import dev.isocheck.internal.junit.TestRecording;
import dev.isocheck.internal.junit.Undecided;
import dev.isocheck.internal.recording.NotModelled;
import dev.isocheck.internal.recording.RecordedHistory;
import java.lang.reflect.AnnotatedElement;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.MediaType;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * The extension behind {@link SerializableCheck}: records each test method's transactions and
 * checks them after its body, and hands the test its {@link Recording} as a parameter. Consult the
 * javadoc of {@link SerializableCheck} for the contract.
 */
class SerializableCheckExtension implements BeforeAllCallback, BeforeEachCallback, AfterTestExecutionCallback, ParameterResolver {

    /** Where the extensions of isocheck keep what they share. */
    static final Namespace NAMESPACE = Namespace.create(SerializableCheckExtension.class);

    /** A run of an interleaving test, {@link ScheduledRun}, in the invocation's store. */
    static final String RUN_KEY = "scheduledRun";

    /** The run's {@link Configuration}, in the root store: read once, shared by every test. */
    private static final String CONFIGURATION_KEY = "configuration";

    /** The test method's {@link TestRecording}, in the method's store, which closes it. */
    private static final String RECORDING_KEY = "recording";

    /** What stops the warm-up ({@link CheckWarmup}) when the run ends, in the root store, which closes it. */
    private static final String WARMUP_KEY = "warmup";

    /** Only where the annotation is on a class: the warm-up then overlaps the class's {@code @BeforeAll} too. */
    @Override
    public void beforeAll(ExtensionContext context) {
        try {
            warmUpTheFirstCheck(context, configuration(context));
        } catch (ExtensionConfigurationException e) {
            // Left to beforeEach, which fails each test with it as it always has; failing the class
            // here would report its tests as never run.
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        startRecordingClosedWithTheTest(context);
    }

    @Override
    public void afterTestExecution(ExtensionContext context) {
        checkWhatTheTestRecorded(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == Recording.class;
    }

    /**
     * The test's recording, for a parameter of a test method or of a method run around it
     * ({@code @BeforeEach}, {@code @AfterEach}); a constructor or a {@code @BeforeAll} method
     * runs for no one test, and is told so.
     */
    @Override
    public Recording resolveParameter(ParameterContext parameterContext, ExtensionContext context) {
        TestRecording recording = context.getTestMethod().isPresent()
                ? context.getStore(NAMESPACE).get(RECORDING_KEY, TestRecording.class) : null;
        if (recording == null) {
            throw new ParameterResolutionException("isocheck records each test method on its own: a " + Recording.class.getName()
                    + " parameter belongs on a test method, or on a @BeforeEach or @AfterEach method, not on "
                    + parameterContext.getDeclaringExecutable());
        }
        return new RecordingHandle(recording, levelOf(context, configuration(context)), configuration(context));
    }

    /** The recording of the test {@code context} runs, started before its {@code @BeforeEach} methods. */
    static TestRecording recordingOf(ExtensionContext context) {
        TestRecording recording = context.getStore(NAMESPACE).get(RECORDING_KEY, TestRecording.class);
        if (recording == null) {
            throw new ExtensionConfigurationException("isocheck: no recording for " + context.getDisplayName());
        }
        return recording;
    }

    /**
     * Starts the JVM's one warm-up of the checker ({@link CheckWarmup}), unless configured off,
     * and leaves in the root store what stops it when the run ends, so that it never outlives the
     * run (it may be done long before; stopping it then waits for nothing).
     */
    private static void warmUpTheFirstCheck(ExtensionContext context, Configuration configuration) {
        if (Configuration.warmup(context)) {
            context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(WARMUP_KEY, key -> (AutoCloseable) CheckWarmup::runEnded,
                    AutoCloseable.class);
            CheckWarmup.startOnce(levelOf(context, configuration));
        }
    }

    private static void startRecordingClosedWithTheTest(ExtensionContext context) {
        // Read first, so that a configuration error fails the test before it runs.
        warmUpTheFirstCheck(context, configuration(context));
        java.util.OptionalInt rounds = Configuration.rounds(context);
        boolean failEarly = Configuration.failEarly(context);
        TestRecording recording = context.getStore(NAMESPACE).getOrComputeIfAbsent(RECORDING_KEY,
                key -> TestRecording.start(TestFiles.displayPath(context)).withLogAccount(Configuration.logAccount(context)),
                TestRecording.class);
        // An interleaving test's runs are short, and each is checked whole.
        if (rounds.isPresent() && !recording.checkedInRounds()
                && !AnnotationSupport.isAnnotated(context.getTestMethod(), InterleavingTest.class)) {
            Configuration configuration = configuration(context);
            recording.inRounds(levelOf(context, configuration), configuration, rounds.getAsInt(), failEarly);
        }
    }

    private static void checkWhatTheTestRecorded(ExtensionContext context) {
        TestRecording recording = context.getStore(NAMESPACE).get(RECORDING_KEY, TestRecording.class);
        if (recording == null) {
            return;
        }
        CheckWarmup.checkStarting();
        Configuration configuration = configuration(context);
        IsolationLevel level = levelOf(context, configuration);
        Outcome outcome;
        if (recording.checkedInRounds()) {
            outcome = recording.finishRounds(new TestCheck(configuration), TestFiles.baseName(context));
            context.publishReportEntry("isocheck.rounds", recording.roundsSummary());
            if (!recording.roundsWritesFrom().isEmpty()) {
                context.publishReportEntry("isocheck.writes", String.join("; ", recording.roundsWritesFrom()));
            }
        } else {
            RecordedHistory recorded = recording.finish();
            if (!recorded.writesFrom().isEmpty()) {
                context.publishReportEntry("isocheck.writes", String.join("; ", recorded.writesFrom()));
            }
            outcome = new TestCheck(configuration).check(recording.name(), TestFiles.baseName(context), recorded, level);
        }
        List<String> expected = expectedOf(context);
        ScheduledRun run = context.getStore(NAMESPACE).get(RUN_KEY, ScheduledRun.class);
        if (run != null) {
            context.publishReportEntry("isocheck.schedule", run.entry());
            boolean shows = outcome instanceof Outcome.Violated violated && expected.stream().anyMatch(violated.result()::showsAnomaly);
            run.judged(outcome instanceof Outcome.Violated, shows);
        }
        if (!expected.isEmpty() && !(outcome instanceof Outcome.Undecided)) {
            if (run != null && outcome instanceof Outcome.Satisfied && !run.last()) {
                // One schedule that did not show the anomaly says nothing yet: the exploration goes on.
                notJudgedAfterATimeout(run);
                return;
            }
            expectedAnomaly(context, recording.name(), outcome, expected, level, run);
        } else if (outcome instanceof Outcome.Satisfied satisfied) {
            notJudgedAfterATimeout(run);
            reportWhatWasNotModelled(context, satisfied);
            notAPlainPassWithTablesLeftOut(recording.name(), satisfied, configuration.leftOut(), levelOf(context, configuration));
        } else if (outcome instanceof Outcome.Violated violated) {
            failWithTheExplanation(context, violated, run);
        } else if (outcome instanceof Outcome.Undecided undecided) {
            failOrAbortAsConfigured(context, undecided, configuration.undecided());
        }
    }

    /** A run whose database or pool timed out, which the holding may have caused, is no pass. */
    private static void notJudgedAfterATimeout(ScheduledRun run) {
        if (run != null && run.invalid().isPresent()) {
            throw new TestAbortedException("isocheck: " + run.plan().name() + " is not judged: " + run.invalid().get());
        }
    }

    /** The names of familiar anomalies {@link SerializableCheck#expect()} takes besides the types' own. */
    private static final List<String> FAMILIAR_NAMES = List.of("lost update", "write skew", "phantom write skew", "read skew",
            "stale read", "long fork");

    /**
     * The anomalies the nearest annotation that names some expects (the method's, else its
     * class's), each checked to be one isocheck can show.
     */
    static List<String> expectedOf(ExtensionContext context) {
        Optional<SerializableCheck> onMethod = annotation(context.getTestMethod());
        Optional<SerializableCheck> onClass = context.getTestClass().flatMap(c -> AnnotationSupport.findAnnotation(c,
                SerializableCheck.class, context.getEnclosingTestClasses()));
        List<String> expected = onMethod.map(a -> List.of(a.expect())).filter(e -> !e.isEmpty())
                .or(() -> onClass.map(a -> List.of(a.expect()))).orElse(List.of());
        for (String name : expected) {
            boolean known = FAMILIAR_NAMES.stream().anyMatch(name.strip()::equalsIgnoreCase)
                    || java.util.Arrays.stream(dev.isocheck.AnomalyType.values()).anyMatch(t -> t.shortName().equalsIgnoreCase(name.strip())
                    || t.description().equalsIgnoreCase(name.strip()));
            if (!known) {
                throw new ExtensionConfigurationException("@SerializableCheck(expect = \"" + name + "\") on "
                        + context.getDisplayName() + " names no anomaly isocheck shows; expected one of " + FAMILIAR_NAMES
                        + " or an AnomalyType's short name or description, such as G2-item");
            }
        }
        return expected;
    }

    /**
     * A test expected to show an anomaly: it passes when the violation shows one of those
     * expected (the explanation published as a report entry, with the report and the history),
     * and fails, saying what the run showed instead, otherwise.
     */
    private static void expectedAnomaly(ExtensionContext context, String testName, Outcome outcome, List<String> expected,
            IsolationLevel level, ScheduledRun run) {
        if (outcome instanceof Outcome.Violated violated) {
            if (expected.stream().anyMatch(violated.result()::showsAnomaly)) {
                publish(context, violated.reportFile(), MediaType.create("text", "html", StandardCharsets.UTF_8));
                publish(context, violated.historyFile(), MediaType.APPLICATION_JSON_UTF_8);
                context.publishReportEntry("isocheck.expected", violated.result().anomaly().map(a -> a.explanation())
                        .orElse(String.valueOf(violated.result().verdict())));
                return;
            }
            throw new AssertionFailedError("isocheck: " + testName + " was expected to show " + String.join(" or ", expected)
                    + " at " + level.cliName() + ", but its violation shows " + violated.result().anomaliesShown() + ":\n"
                    + violated.message() + (run == null ? "" : "\n" + run.section("@InterleavingTest")));
        }
        Outcome.Satisfied satisfied = (Outcome.Satisfied) outcome;
        StringBuilder message = new StringBuilder("isocheck: ").append(testName).append(" was expected to show ")
                .append(String.join(" or ", expected)).append(" at ").append(level.cliName())
                .append(", but its transactions satisfy ").append(level.cliName());
        if (run == null) {
            message.append(": the run did not overlap as it had to, or the database prevented the anomaly");
        } else {
            message.append(" in every schedule explored (").append(run.explored())
                    .append("): the database prevented the anomaly, or no schedule explored found the order that shows it");
        }
        if (!satisfied.notModelled().isEmpty()) {
            message.append("\nNot modelled, so not checked:\n");
            satisfied.notModelled().forEach(n -> message.append("  ").append(n).append('\n'));
        }
        throw new AssertionFailedError(message.toString());
    }

    /** A pass covers only what was modelled: say what was not, where build reports show it. */
    private static void reportWhatWasNotModelled(ExtensionContext context, Outcome.Satisfied satisfied) {
        if (!satisfied.notModelled().isEmpty()) {
            context.publishReportEntry("isocheck.notModelled", TestCheck.notModelledEntry(satisfied.notModelled()));
        }
    }

    /**
     * A pass with a table left out covers less than the test touched: the developer sees it in the
     * test tree (aborted or failed, as configured), not only in a report.
     */
    private static void notAPlainPassWithTablesLeftOut(String testName, Outcome.Satisfied satisfied, LeftOut configured,
            IsolationLevel level) {
        java.util.List<NotModelled> tables = satisfied.notModelled().stream().filter(NotModelled::leavesTableOut).toList();
        if (tables.isEmpty() || configured == LeftOut.REPORT) {
            return;
        }
        StringBuilder message = new StringBuilder("isocheck: the transactions of ").append(testName).append(" satisfy ")
                .append(level.cliName()).append(" as far as they were recorded, but tables they touched were left out of the check:\n");
        tables.forEach(n -> message.append("  ").append(n).append('\n'));
        message.append("(").append(Configuration.LEFT_OUT).append(" = ").append(configured.configName())
                .append("; with report the test passes and lists them in a report entry)");
        if (configured == LeftOut.FAIL) {
            throw new AssertionFailedError(message.toString());
        }
        throw new TestAbortedException(message.toString());
    }

    private static void failWithTheExplanation(ExtensionContext context, Outcome.Violated violated, ScheduledRun run) {
        publish(context, violated.reportFile(), MediaType.create("text", "html", StandardCharsets.UTF_8));
        publish(context, violated.historyFile(), MediaType.APPLICATION_JSON_UTF_8);
        String message = run == null ? violated.message() : violated.message() + "\n" + run.section("@InterleavingTest");
        throw new IsolationViolationError(message, violated.result(), violated.reportFile(), violated.historyFile(),
                violated.notModelled().stream().map(NotModelled::toString).toList());
    }

    /** An undecided check has shown nothing: never a pass. */
    private static void failOrAbortAsConfigured(ExtensionContext context, Outcome.Undecided undecided, Undecided configured) {
        publish(context, undecided.historyFile(), MediaType.APPLICATION_JSON_UTF_8);
        if (configured == Undecided.ABORT) {
            throw new TestAbortedException(undecided.message());
        }
        throw new AssertionFailedError(undecided.message());
    }

    private static Configuration configuration(ExtensionContext context) {
        ExtensionContext root = context.getRoot();
        return root.getStore(NAMESPACE).getOrComputeIfAbsent(CONFIGURATION_KEY, key -> Configuration.read(root),
                Configuration.class);
    }

    /**
     * The level written on the nearest annotation that names one: the method's, else its class's
     * (or an enclosing class's); else the configured level.
     */
    private static IsolationLevel levelOf(ExtensionContext context, Configuration configuration) {
        Optional<SerializableCheck> onMethod = annotation(context.getTestMethod());
        Optional<SerializableCheck> onClass = context.getTestClass().flatMap(c -> AnnotationSupport.findAnnotation(c,
                SerializableCheck.class, context.getEnclosingTestClasses()));
        return written(onMethod, context).or(() -> written(onClass, context)).orElse(configuration.level());
    }

    /** The one level {@code annotation} names, when it names one. */
    private static Optional<IsolationLevel> written(Optional<SerializableCheck> annotation, ExtensionContext context) {
        IsolationLevel[] levels = annotation.map(SerializableCheck::level).orElse(new IsolationLevel[0]);
        if (levels.length > 1) {
            throw new ExtensionConfigurationException("@SerializableCheck on " + context.getDisplayName()
                    + " names " + levels.length + " levels " + java.util.Arrays.toString(levels) + "; name one");
        }
        return levels.length == 0 ? Optional.empty() : Optional.of(levels[0]);
    }

    private static Optional<SerializableCheck> annotation(Optional<? extends AnnotatedElement> element) {
        return AnnotationSupport.findAnnotation(element, SerializableCheck.class);
    }

    /**
     * Attaches a file to the test's report where the launcher keeps them (JUnit 5.12 and later);
     * where it cannot, the path in the message is enough.
     */
    private static void publish(ExtensionContext context, Path file, MediaType type) {
        if (file == null) {
            return;
        }
        try {
            context.publishFile(file.getFileName().toString(), type,
                    target -> Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING));
        } catch (RuntimeException | LinkageError e) {
            // No output directory configured, or an older JUnit: the files stay in the report directory.
        }
    }
}
