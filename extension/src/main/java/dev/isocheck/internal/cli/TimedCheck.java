package dev.isocheck.internal.cli;

import dev.isocheck.CheckOptions;
import dev.isocheck.CheckResult;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Isocheck;
import dev.isocheck.Verdict;
import dev.isocheck.history.History;
import dev.isocheck.internal.engine.Checker;
import dev.isocheck.internal.explain.CheckAndExplain;
import dev.isocheck.internal.explain.CoreExplainer;
import dev.isocheck.internal.explain.WeakLevelExplainer;
import dev.isocheck.internal.limit.Limits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Reads and checks one history within {@code --timeout}, which covers both: the clock starts
 * before the first byte is read, and each check gets what is left.
 *
 * <p>The work runs on a daemon thread of its own, as {@code TestCheck} runs a test's check: a read
 * that never ends (standard input left open, a parse that backtracks for hours) cannot hold the
 * command, which gives it up at the deadline as {@code UNKNOWN}, naming the history and the stage,
 * and goes on with the next history. Java cannot stop a thread, so an abandoned one is interrupted
 * and left to end, or to die with the JVM. A check, unlike a read, stops itself a little after its
 * time limit with a verdict that says where it was, and then explains a violation within a limit
 * of its own: it is given that long, and a little more, before it too is abandoned.
 */
final class TimedCheck {

    private enum Stage { READING, CHECKING }

    private final Duration timeout;
    private final CheckOptions options;
    /** Decides instead of {@link Isocheck#check}, explaining as by default (tests); else {@code null}. */
    private final Checker checker;
    private final IsolationLevel level;
    private final boolean classify;

    /**
     * @param timeout  from the start of reading to the verdict
     * @param options  every check's options, but their time limit, which is what is left of {@code timeout}
     * @param checker  decides instead of {@link Isocheck#check} (tests), or {@code null}
     * @param level    the level to check, unless {@code classify}
     * @param classify whether to find the weakest level violated instead
     */
    TimedCheck(Duration timeout, CheckOptions options, Checker checker, IsolationLevel level, boolean classify) {
        this.timeout = timeout;
        this.options = options;
        this.checker = checker;
        this.level = level;
        this.classify = classify;
    }

    /** The options of one round of {@code --rounds}: each round gets the whole time limit. */
    CheckOptions options() {
        return options.withTimeLimit(timeout);
    }

    /**
     * Reads and checks {@code source}, handing {@code warnings} the reader's warnings (on this
     * thread, before returning, so that they come out beside their history).
     */
    Outcome run(HistorySource source, Consumer<String> warnings) {
        Attempt attempt = new Attempt(source);
        Thread thread = new Thread(attempt::run, "isocheck-check");
        thread.setDaemon(true);
        thread.start();
        Outcome outcome = attempt.await(thread);
        attempt.warnings().forEach(warnings);
        return outcome;
    }

    /** The time a check gets past the deadline to stop by itself and explain a violation. */
    private Duration grace() {
        Duration slack = timeout.compareTo(Duration.ofSeconds(5)) < 0 ? max(timeout, Duration.ofSeconds(1)) : Duration.ofSeconds(5);
        return options.explainTimeLimit().multipliedBy(classify ? 2 : 1).plus(slack);
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /** One history's read and check, on its own thread, and the wait for it. */
    private final class Attempt {

        private final HistorySource source;
        private final long started = System.nanoTime();
        private final long deadline = started + saturatedNanos(timeout);
        private final CompletableFuture<Outcome> outcome = new CompletableFuture<>();
        private final List<String> warnings = new ArrayList<>();
        private volatile Stage stage = Stage.READING;
        private volatile IsolationLevel checking = classify ? IsolationLevel.SERIALIZABLE : level;
        private volatile History history;
        private volatile long loadMillis = -1;

        Attempt(HistorySource source) {
            this.source = source;
        }

        void run() {
            try {
                outcome.complete(readAndCheck());
            } catch (Throwable e) {
                // The heap exhausted, or a bug: the command says so and goes on.
                outcome.complete(new Outcome.Failed(e));
            }
        }

        private Outcome readAndCheck() {
            History read;
            try {
                read = source.read(this::warn);
            } catch (UnreadableHistory e) {
                return new Outcome.Unreadable(e.getMessage());
            }
            loadMillis = millisSince(started);
            history = read;
            if (read.committedCount() == 0) {
                return new Outcome.NothingToCheck(source.name() + ": nothing to check: " + (read.size() == 0
                        ? "the history has no transactions"
                        : "the history's " + read.size() + (read.size() == 1 ? " transaction" : " transactions") + " all aborted"));
            }
            if (deadline - System.nanoTime() <= 0) {
                return abandoned("reading the history");
            }
            stage = Stage.CHECKING;
            if (classify) {
                Classifier.Classification found = Classifier.classify(this::check);
                return new Outcome.Checked(read, found.result(), found, loadMillis);
            }
            return new Outcome.Checked(read, check(level), null, loadMillis);
        }

        /** Checks the history at {@code at} with the time left, the engine's time limit named as {@code --timeout}. */
        private CheckResult check(IsolationLevel at) {
            checking = at;
            if (checker != null) {
                return CheckAndExplain.run(history, at, checker, new WeakLevelExplainer(new CoreExplainer()));
            }
            long left = deadline - System.nanoTime();
            if (left < 1_000_000) {
                return new CheckResult(new Verdict.Unknown(at, exceeded("checking")), Optional.empty(), Duration.ZERO,
                        Duration.ZERO);
            }
            Duration limit = Duration.ofMillis(left / 1_000_000);
            CheckResult result = Isocheck.check(history, at, options.withTimeLimit(limit));
            // The engine names the limit it was given, what was left of --timeout; the user gave --timeout.
            String given = "the time limit of " + Limits.format(limit) + " was exceeded while ";
            if (result.verdict() instanceof Verdict.Unknown unknown && unknown.reason().startsWith(given)) {
                return new CheckResult(new Verdict.Unknown(at, exceeded(unknown.reason().substring(given.length()))),
                        result.explanation(), result.checkDuration(), result.explainDuration());
            }
            return result;
        }

        private void warn(String warning) {
            synchronized (warnings) {
                // Once given up, its history's lines are printed: later warnings would land among another's.
                if (!outcome.isDone()) {
                    warnings.add(warning);
                }
            }
        }

        List<String> warnings() {
            synchronized (warnings) {
                return List.copyOf(warnings);
            }
        }

        Outcome await(Thread thread) {
            try {
                try {
                    return outcome.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (TimeoutException e) {
                    if (stage == Stage.READING) {
                        return giveUp(thread, "reading the history");
                    }
                }
                try {
                    return outcome.get(saturatedNanos(grace()), TimeUnit.NANOSECONDS);
                } catch (TimeoutException e) {
                    return giveUp(thread, "checking " + checking.cliName() + " (the check did not stop at the limit)");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return giveUp(thread, stage == Stage.READING ? "reading the history" : "checking " + checking.cliName());
            } catch (ExecutionException e) {
                return new Outcome.Failed(e.getCause());
            }
        }

        /** Abandons the work, unless it ended meanwhile. */
        private Outcome giveUp(Thread thread, String stage) {
            synchronized (warnings) {
                if (outcome.complete(abandoned(stage))) {
                    thread.interrupt();
                }
            }
            return outcome.join();
        }

        private Outcome abandoned(String stage) {
            return new Outcome.Abandoned(checking, exceeded(stage), history, loadMillis, millisSince(started));
        }

        private String exceeded(String stage) {
            return "the time limit of " + Limits.format(timeout) + " was exceeded while " + stage;
        }
    }

    private static long millisSince(long started) {
        return (System.nanoTime() - started) / 1_000_000;
    }

    private static long saturatedNanos(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE / 4;
        }
    }
}
