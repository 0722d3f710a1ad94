package dev.isocheck.internal.junit;

import dev.isocheck.CheckResult;
import dev.isocheck.Isocheck;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.explain.Explanation;
import dev.isocheck.explain.HtmlRenderer;
import dev.isocheck.format.JsonlHistoryWriter;
import dev.isocheck.history.History;
import dev.isocheck.internal.recording.NotModelled;
import dev.isocheck.internal.recording.RecordedHistory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Checks what one test recorded, writes the files a developer needs to see why it failed, and
 * words the outcome. Knows nothing of JUnit's lifecycle: the extension decides what to throw.
 */
public final class TestCheck {

    private final Configuration configuration;

    /** A check under this run's configuration. */
    public TestCheck(Configuration configuration) {
        this.configuration = Objects.requireNonNull(configuration, "configuration is null");
    }

    /**
     * Checks {@code recorded} at {@code level}; for a violation or an undecided check, writes the
     * history (and for a violation the HTML report) under the report directory, named after
     * {@code fileName}.
     *
     * @param testName the test's display path, for messages
     * @param fileName the files' name without extension, unique per test
     * @throws UncheckedIOException when a file cannot be written
     */
    public Outcome check(String testName, String fileName, RecordedHistory recorded, IsolationLevel level) {
        History history = recorded.history();
        List<NotModelled> notModelled = recorded.notModelled();
        if (history.size() == 0) {
            // Nothing to order: every level holds, and there is nothing to report but what was left out.
            return new Outcome.Satisfied(notModelled);
        }
        Optional<CheckResult> result = checkWithinTimeout(history, level);
        String timedOut = "the check did not finish within " + format(configuration.timeout()) + " (" + Configuration.TIMEOUT + ")";
        return outcome(testName, fileName, history, result.orElse(undecided(level, timedOut)), "", notModelled,
                recorded.writesFrom(), level);
    }

    /** A result without a verdict at {@code level}: the check could not be made, for {@code reason}. */
    public static CheckResult undecided(IsolationLevel level, String reason) {
        return new CheckResult(new Verdict.Unknown(level, reason), Optional.empty(), Duration.ZERO, Duration.ZERO);
    }

    /**
     * The outcome of a check already made: for a violation or an undecided check, writes
     * {@code history} (and for a violation the HTML report) under the report directory, named
     * after {@code fileName}.
     *
     * @param history     the history to write for a developer to check again; {@code null} for none
     * @param result      the result ({@link #undecided} where the check could not be made)
     * @param historyNote what the history file is, where it is not the test's whole history ("" else)
     */
    public Outcome outcome(String testName, String fileName, History history, CheckResult result, String historyNote,
            List<NotModelled> notModelled, List<String> writesFrom, IsolationLevel level) {
        if (result.isSatisfied()) {
            return new Outcome.Satisfied(notModelled);
        }
        Path directory = configuration.reportDirectory().toAbsolutePath().normalize();
        Path historyFile = history == null ? null : directory.resolve(fileName + ".jsonl");
        if (history != null) {
            writeHistory(history, historyFile);
        }
        if (result.verdict() instanceof Verdict.Unknown unknown) {
            String reason = unknown.reason();
            return new Outcome.Undecided(reason, historyFile, undecidedMessage(testName, level, reason, historyFile, notModelled)
                    + historyNote + writes(writesFrom));
        }
        CheckResult violated = result;
        Explanation explanation = violated.explanation().orElseThrow();
        Path reportFile = directory.resolve(fileName + ".html");
        write(reportFile, new HtmlRenderer().render(explanation));
        return new Outcome.Violated(violated, reportFile, historyFile, notModelled,
                violationMessage(testName, violated, reportFile, historyFile, notModelled) + historyNote + writes(writesFrom));
    }

    /** How the writes were recorded, a line per database, for a message. */
    private static String writes(List<String> writesFrom) {
        StringBuilder out = new StringBuilder();
        if (!writesFrom.isEmpty()) {
            out.append("\nHow the writes were recorded:\n");
            writesFrom.forEach(w -> out.append("  ").append(w).append('\n'));
        }
        return out.toString();
    }

    /**
     * The result, or empty when the check took longer than the timeout. The check runs on a daemon
     * thread of its own so that a long one cannot hold the test past its budget; the engine does
     * not stop on interruption, so that thread may run on until the check ends. A check that
     * finishes late is undecided too, even when the result arrives before the wait ends, so that
     * the outcome depends on the check's own time, not on which thread the scheduler ran first.
     */
    private Optional<CheckResult> checkWithinTimeout(History history, IsolationLevel level) {
        long budget = configuration.timeout().toNanos();
        long started = System.nanoTime();
        CompletableFuture<Optional<CheckResult>> future = new CompletableFuture<>();
        Thread checking = new Thread(() -> {
            try {
                CheckResult result = Isocheck.check(history, level, configuration.checkOptions());
                future.complete(System.nanoTime() - started <= budget ? Optional.of(result) : Optional.empty());
            } catch (Throwable e) {
                future.completeExceptionally(e);
            }
        }, "isocheck-check");
        checking.setDaemon(true);
        checking.start();
        try {
            return future.get(budget, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            checking.interrupt();
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            checking.interrupt();
            return Optional.empty();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    static String violationMessage(String testName, CheckResult result, Path reportFile, Path historyFile,
            List<NotModelled> notModelled) {
        StringBuilder out = new StringBuilder();
        out.append("isocheck: the transactions of ").append(testName).append(" violate ").append(result.level().cliName())
                .append("\n\n");
        out.append(result.explanationText().orElseThrow());
        out.append('\n');
        files(out, result.level(), reportFile, historyFile);
        notModelled(out, notModelled);
        return out.toString();
    }

    static String undecidedMessage(String testName, IsolationLevel level, String reason, Path historyFile,
            List<NotModelled> notModelled) {
        StringBuilder out = new StringBuilder();
        out.append("isocheck could not decide whether the transactions of ").append(testName).append(" satisfy ")
                .append(level.cliName()).append(": ").append(reason).append("\n\n");
        files(out, level, null, historyFile);
        notModelled(out, notModelled);
        return out.toString();
    }

    private static void files(StringBuilder out, IsolationLevel level, Path reportFile, Path historyFile) {
        if (reportFile != null) {
            out.append("Report:  ").append(reportFile).append('\n');
        }
        if (historyFile == null) {
            return;
        }
        out.append("History: ").append(historyFile).append('\n');
        out.append("  check it again: java -jar isocheck.jar check --level ").append(level.cliName()).append(' ')
                .append(historyFile).append('\n');
    }

    private static void notModelled(StringBuilder out, List<NotModelled> notModelled) {
        if (notModelled.isEmpty()) {
            return;
        }
        out.append("\nNot modelled, so not checked:\n");
        notModelled.forEach(n -> out.append("  ").append(n).append('\n'));
    }

    /** What was left out of a satisfied check, as a report entry's value. */
    public static String notModelledEntry(List<NotModelled> notModelled) {
        return String.join("; ", notModelled.stream().map(NotModelled::toString).toList());
    }

    /** A duration as a user would write it in {@value Configuration#TIMEOUT}. */
    static String format(Duration d) {
        long nanos = d.toNanos();
        if (nanos % 1_000_000_000L == 0) {
            return nanos / 1_000_000_000L + " s";
        }
        if (nanos % 1_000_000L == 0) {
            return nanos / 1_000_000L + " ms";
        }
        return nanos % 1000 == 0 ? nanos / 1000 + " μs" : nanos + " ns";
    }

    private static void writeHistory(History history, Path file) {
        try {
            Files.createDirectories(file.getParent());
            new JsonlHistoryWriter().write(history, file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the recorded history to " + file, e);
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the report to " + file, e);
        }
    }

    /** How a test's check came out. */
    public sealed interface Outcome {

        /**
         * The history satisfies the level (or is empty).
         *
         * @param notModelled what the check did not cover
         */
        record Satisfied(List<NotModelled> notModelled) implements Outcome {
        }

        /**
         * The history violates the level.
         *
         * @param result      the check's result, with the explanation
         * @param reportFile  the HTML report
         * @param historyFile the recorded history, JSON Lines
         * @param notModelled what the check did not cover
         * @param message     the failure message
         */
        record Violated(CheckResult result, Path reportFile, Path historyFile, List<NotModelled> notModelled,
                String message) implements Outcome {
        }

        /**
         * The check could not decide.
         *
         * @param reason      why
         * @param historyFile the recorded history, JSON Lines
         * @param message     the failure or abort message
         */
        record Undecided(String reason, Path historyFile, String message) implements Outcome {
        }
    }
}
