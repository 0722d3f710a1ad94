package dev.isocheck.internal.junit;

import dev.isocheck.CheckResult;
import dev.isocheck.Isocheck;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.internal.recording.NotModelled;
import dev.isocheck.internal.recording.RecordedRounds;
import dev.isocheck.internal.recording.Recording;
import dev.isocheck.internal.rounds.RoundChecker;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.opentest4j.AssertionFailedError;

/**
 * One test checked in rounds while it runs ({@value Configuration#ROUNDS}): a daemon thread takes
 * what the test's transactions did since the last round ({@link RecordedRounds}) whenever a round's
 * worth has finished, or a few seconds have passed, and checks it ({@link RoundChecker}), so that
 * the recording holds only what later rounds can need, however long the test runs.
 *
 * <p>A table the recorder finds it cannot see exactly leaves the rounds from then on, the
 * transactions kept included ({@link RoundChecker#leaveOut}); reads that may have seen a write the
 * log gave and no recorded transaction claimed yet wait for a later round ({@link RecordedRounds}).
 * So a violation of strict serializability a round finds is final: with
 * {@value Configuration#ROUNDS_FAIL_EARLY} it stops the test at once (each recorded statement after
 * it throws). At a weaker level the first violation of that level a round's own transactions show
 * does (a later write could still explain it: the outcome at the end decides, and says so).
 */
public final class TestRounds {

    /** A round is taken at least this often while transactions finish, so that memory and findings keep up with a slow test. */
    private static final long ROUND_EVERY_NANOS = TimeUnit.SECONDS.toNanos(2);
    /**
     * How often the write logs are read between rounds: a transaction of the log not claimed yet
     * holds back every read that ended after the read before the one that gave it.
     */
    private static final long DRAIN_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    /** How often the rounds' thread looks whether a round's worth has finished. */
    private static final long LOOK_EVERY_MILLIS = 50;
    /** Rounds' worth of finished transactions the recording holds before the application's threads wait for a round. */
    private static final int HELD_ROUNDS = 4;
    /**
     * Rounds' worth of transactions the checker may hold after a round before the rounds give up
     * (undecided): held past this, something keeps every round from forgetting (a transaction that
     * never ends), and memory would grow with the test as if it were checked whole.
     */
    private static final int GIVE_UP_ROUNDS = 16;
    private final Recording recording;
    private final String testName;
    private final IsolationLevel level;
    private final int roundSize;
    private final boolean failEarly;
    private final RecordedRounds batches;
    private final RoundChecker checker;
    /** The first violation found; {@code null} while none is. */
    private RoundChecker.Found first;
    /** Why a round failed; {@code null} while none has. */
    private String broken;
    private final Thread thread;
    private volatile boolean stopping;
    private final int giveUpAt;

    private TestRounds(Recording recording, String testName, IsolationLevel level, Configuration configuration, int roundSize,
            boolean failEarly) {
        this.recording = recording;
        this.testName = testName;
        this.level = level;
        this.roundSize = roundSize;
        this.failEarly = failEarly;
        this.batches = new RecordedRounds(recording);
        // Past what a round may take (the recording's backlog) and two rounds more held, undecided
        // last writers are let go (said so in the result).
        this.checker = new RoundChecker(level, (h, l) -> Isocheck.check(h, l, configuration.checkOptions()),
                rounds(HELD_ROUNDS + 2, roundSize, 1000)).onViolation(this::found);
        // A table the recorder finds it cannot see exactly leaves the rounds, kept transactions included.
        checker.leaveOut(batches::leavesOutKey);
        // Not the test's thread's binding: the rounds' thread records nothing itself.
        this.thread = new Thread(null, this::run, "isocheck-rounds: " + testName, 0, false);
        thread.setDaemon(true);
        recording.holdAt(rounds(HELD_ROUNDS, roundSize, 1));
        this.giveUpAt = rounds(GIVE_UP_ROUNDS, roundSize, 1000);
    }

    /** {@code n} rounds of {@code size}, at least {@code floor}, at most {@link Integer#MAX_VALUE}. */
    private static int rounds(int n, int size, int floor) {
        return (int) Math.max(floor, Math.min(Integer.MAX_VALUE, (long) n * size));
    }

    /**
     * Starts checking {@code recording} in rounds of at most {@code roundSize} transactions, at
     * {@code level}, while the test runs.
     */
    public static TestRounds start(Recording recording, String testName, IsolationLevel level, Configuration configuration,
            int roundSize, boolean failEarly) {
        TestRounds rounds = new TestRounds(Objects.requireNonNull(recording, "recording is null"), testName, level,
                configuration, roundSize, failEarly);
        rounds.thread.start();
        return rounds;
    }

    private void run() {
        long last = System.nanoTime();
        long drained = last;
        while (!stopping) {
            if (broken != null) {
                // No verdict will come, but the test goes on: what it records is dropped, so that
                // memory stays bounded still.
                recording.take();
                sleep();
                continue;
            }
            int waiting = recording.waiting();
            if (waiting >= roundSize || waiting > 0 && System.nanoTime() - last >= ROUND_EVERY_NANOS) {
                round();
                last = System.nanoTime();
                drained = last;
                continue;
            }
            if (System.nanoTime() - drained >= DRAIN_EVERY_NANOS) {
                drain();
                drained = System.nanoTime();
            }
            sleep();
        }
    }

    private void sleep() {
        try {
            Thread.sleep(LOOK_EVERY_MILLIS);
        } catch (InterruptedException e) {
            // Only abandon() interrupts, and it stops the loop too.
            Thread.currentThread().interrupt();
            stopping = true;
        }
    }

    /** Reads the write logs between rounds; a failure ends the rounds, and the test's outcome says why. */
    private synchronized void drain() {
        if (broken != null) {
            return;
        }
        try {
            batches.drainNow();
        } catch (Throwable e) {
            giveUp("checking in rounds failed reading the write log: " + e);
        }
    }

    /** One round; a failure ends the rounds, and the test's outcome says why. */
    private synchronized void round() {
        if (broken != null) {
            return;
        }
        try {
            RecordedRounds.Batch batch = batches.next();
            checker.round(batch.history(), batch.watermark());
            int held = checker.stats().held();
            if (held > giveUpAt && batch.watermark() != Long.MAX_VALUE) {
                giveUp(heldBack(held, batch.watermark()));
            }
        } catch (Throwable e) {
            // Whatever it was (an assertion of the engine's, a linkage error): no pass, and no one waits.
            giveUp("checking in rounds failed in round " + (checker.stats().rounds() + 1) + ": " + e);
        }
    }

    /**
     * Ends the rounds without a verdict, for {@code why}: no more rounds take what finishes, so the
     * application must not wait for them; and the write logs are closed, so that a replication
     * slot no longer holds the server's write-ahead log for the rest of the test.
     */
    private void giveUp(String why) {
        broken = why;
        recording.holdAt(0);
        try {
            batches.close();
        } catch (RuntimeException e) {
            // Closed at the end again; the reason stands.
        }
    }

    /**
     * Why the rounds gave up with {@code held} transactions held after a round whose watermark was
     * {@code watermark} (since the recording began): what holds it back, named for the developer.
     */
    private String heldBack(int held, long watermark) {
        String why = recording.oldestInProgress().filter(open -> open.start() - recording.began() <= watermark)
                .map(open -> "a transaction that thread " + open.thread() + " started "
                        + seconds(open.start() - recording.began()) + " into the test has not ended " + seconds(
                                System.nanoTime() - open.start()) + " later: no transaction that started after it can be"
                        + " forgotten until it ends. A test checked in rounds needs its transactions to end: a"
                        + " transaction around the whole test (a test method's own @Transactional, a connection left"
                        + " in a transaction) keeps one open")
                .orElse("a write the database's log gave, which no recorded transaction has claimed, holds back every"
                        + " read that may have seen it");
        return "checking in rounds gave up after round " + checker.stats().rounds() + ": " + held
                + " transactions are held (the rounds give up past " + giveUpAt + "), because " + why
                + ". The rest of the test was not checked";
    }

    private static String seconds(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.1f s", nanos / 1e9);
    }

    private void found(RoundChecker.Found violation) {
        if (first != null) {
            return;
        }
        first = violation;
        if (failEarly) {
            // Below strict serializability a write later in the test may still explain the reads:
            // the message says so, and the outcome at the end (added as suppressed) decides.
            String soFar = level == IsolationLevel.STRICT_SERIALIZABLE ? ""
                    : ", as far as what the test wrote so far shows: a write later in the test of a value these reads saw"
                    + " could still explain them, and the outcome when the test ends decides";
            recording.stopWith(new AssertionFailedError("isocheck: the transactions of " + testName + " violate "
                    + level.cliName() + " (found in round " + violation.round()
                    + " while the test ran" + soFar + "; " + Configuration.ROUNDS_FAIL_EARLY + " = true stops the test at"
                    + " the first violation, and the test fails with the whole explanation when it ends)\n\n"
                    + violation.result().explanationText().orElse("")));
        }
    }

    /**
     * Stops the recording, checks what is left and decides the test's outcome through {@code check}.
     *
     * @param fileName the files' name without extension, unique per test
     */
    public TestCheck.Outcome finish(TestCheck check, String fileName) {
        stopping = true;
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        recording.stop();
        CheckResult result;
        synchronized (this) {
            round();
            try {
                result = broken == null ? checker.finish() : null;
            } catch (Throwable e) {
                broken = "checking in rounds failed in its last round: " + e;
                result = null;
            }
        }
        batches.close();
        List<NotModelled> notModelled = new ArrayList<>(batches.notModelled());
        List<String> writesFrom = batches.writesFrom();
        String rounds = "\nChecked in rounds (" + Configuration.ROUNDS + "): " + summary() + ".\n";
        boolean strict = level == IsolationLevel.STRICT_SERIALIZABLE;
        // A violation of strict serializability found stands whatever failed after it; a weaker
        // level's candidate needs every later write heard of, which a broken round did not.
        if (broken != null && (!strict || first == null)) {
            return check.outcome(testName, fileName, null, TestCheck.undecided(level, broken), rounds, notModelled, writesFrom,
                    level);
        }
        Optional<RoundChecker.Found> violation = strict ? Optional.ofNullable(first) : checker.violation();
        if (violation.isPresent()) {
            return check.outcome(testName, fileName, violation.get().checked(), violation.get().result(),
                    roundsNote(rounds, violation.get(), strict), notModelled, writesFrom, level);
        }
        Optional<RoundChecker.Found> strictViolation = checker.firstFound();
        if (strictViolation.isPresent()) {
            // At a weaker level, a violation of strict serializability that none of its candidates confirmed.
            CheckResult unknown = TestCheck.undecided(level, ((Verdict.Unknown) result.verdict()).reason() + "\n\n"
                    + strictViolation.get().result().explanationText().orElse(""));
            return check.outcome(testName, fileName, strictViolation.get().checked(), unknown,
                    roundsNote(rounds, strictViolation.get(), true), notModelled, writesFrom, level);
        }
        if (result.isUnknown()) {
            return check.outcome(testName, fileName, checker.undecidedRound().orElse(null), result,
                    rounds + "The history file is the undecided round's.\n", notModelled, writesFrom, level);
        }
        ((Verdict.Satisfied) result.verdict()).caveats().forEach(c -> notModelled.add(new NotModelled("checking in rounds", c)));
        return check.outcome(testName, fileName, null, result, rounds, notModelled, writesFrom, level);
    }

    /** What the rounds did, and what the history file written for {@code found} holds. */
    private static String roundsNote(String rounds, RoundChecker.Found found, boolean roundsHistory) {
        return rounds + (roundsHistory ? "The history file is round " + found.round() + "'s: its first transactions stand"
                + " for what earlier rounds folded away, each with the last value it wrote of a key the round touched.\n"
                : "The history file holds the transactions of the violation found in round " + found.round() + ", and the"
                + " writes they may have read, with those reads only whose values nothing else the test wrote could have"
                + " given.\n");
    }

    /** How the writes were recorded, a line per database: for the test's report entry. */
    public synchronized List<String> writesFrom() {
        return batches.writesFrom();
    }

    /** What the rounds did so far, in a line: for the test's report entry. */
    public synchronized String summary() {
        RoundChecker.Stats stats = checker.stats();
        long[] waited = recording.held();
        return stats.rounds() + " rounds, " + stats.transactions() + " transactions, at most " + stats.peakHeld()
                + " held at once, " + stats.held() + " held after the last" + (waited[0] == 0 ? ""
                : ", the application's threads waited " + waited[0] + " times for a round (" + waited[1] / 1_000_000 + " ms in all)");
    }

    /** Stops the rounds without a verdict (the test ended before it could be checked). */
    public void abandon() {
        stopping = true;
        thread.interrupt();
        recording.stop();
        synchronized (this) {
            batches.close();
        }
    }
}
