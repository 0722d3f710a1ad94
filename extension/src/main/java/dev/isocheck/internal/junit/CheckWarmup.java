package dev.isocheck.internal.junit;

import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.warmup.Warmup;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The first check of a JVM, warmed up while the first test's body runs: started once per JVM
 * before the first {@code @SerializableCheck} test (or its class), a daemon thread runs
 * {@link Warmup} at that test's level, so that the check after the body finds the checker's
 * classes loaded and its hot code compiled. Measured in {@code docs/benchmarks.md}: the first
 * check costs several times the second in a fresh JVM, and a test run pays it on its first test.
 *
 * <p>It stops before its next check once a test's check starts ({@link #checkStarting()}), so that
 * it competes with the real check for one small check at most, and it never holds the JVM open
 * (a daemon thread) or fails a test (whatever it throws is dropped: its histories are its own).
 * {@value Configuration#WARMUP} {@code = false} turns it off.
 */
public final class CheckWarmup {

    private static final AtomicBoolean STARTED = new AtomicBoolean();
    private static volatile boolean checking;

    private CheckWarmup() {
    }

    /** Starts the warm-up at {@code level} unless it started before in this JVM. */
    public static void startOnce(IsolationLevel level) {
        if (!STARTED.compareAndSet(false, true)) {
            return;
        }
        Thread warming = new Thread(() -> warmUp(level), "isocheck-warmup");
        warming.setDaemon(true);
        // A hint only (most platforms ignore it unprivileged): the test's own threads come first.
        warming.setPriority(Thread.MIN_PRIORITY);
        warming.start();
    }

    /** Tells the warm-up that a test's check starts: it checks nothing more. */
    public static void checkStarting() {
        checking = true;
    }

    private static void warmUp(IsolationLevel level) {
        try {
            Warmup.run(level, () -> checking);
        } catch (Throwable dropped) {
            // Nothing of the warm-up is any test's business, a failure included.
        }
    }
}
