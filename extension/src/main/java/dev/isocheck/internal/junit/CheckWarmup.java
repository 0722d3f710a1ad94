package dev.isocheck.internal.junit;

import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.warmup.Background;
import dev.isocheck.internal.warmup.Warmup;

/**
 * The first check of a JVM, warmed up while the first test's body runs: started once per JVM
 * before the first {@code @SerializableCheck} test (or its class), a daemon thread runs
 * {@link Warmup} at that test's level ({@link Background}), so that the check after the body finds
 * the checker's classes loaded and its hot code compiled. Measured in {@code docs/benchmarks.md}:
 * the first check costs several times the second in a fresh JVM, and a test run pays it on its
 * first test.
 *
 * <p>It never runs beside a check: once a test's check starts ({@link #checkStarting()}), or any
 * other check ({@link dev.isocheck.Isocheck#check Isocheck.check} in a test's body), the warm-up
 * does nothing more and the check waits for the step it is in to end. It never outlives the run
 * ({@link #runEnded()}, which the extension leaves in JUnit's root store), never holds the JVM open
 * (a daemon thread), and never fails a test (whatever it throws is dropped: its histories are its
 * own). {@value Configuration#WARMUP} {@code = false} turns it off.
 */
public final class CheckWarmup {

    private CheckWarmup() {
    }

    /** Starts the warm-up at {@code level} unless it started before in this JVM. */
    public static void startOnce(IsolationLevel level) {
        Background.start(level);
    }

    /** A test's check starts: the warm-up checks nothing more, and the step it is in is waited for. */
    public static void checkStarting() {
        Background.stop();
    }

    /** The run ends: the warm-up, if it still runs, stops, and is waited for. */
    public static void runEnded() {
        Background.stop();
    }
}
