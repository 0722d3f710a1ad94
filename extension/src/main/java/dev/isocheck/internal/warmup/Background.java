package dev.isocheck.internal.warmup;

import dev.isocheck.IsolationLevel;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@link Warmup} in the background, as the JUnit extension runs it: on a daemon thread,
 * {@code isocheck-warmup}, at most once per JVM, and never beside another check: every
 * {@link dev.isocheck.Isocheck#check Isocheck.check} of another thread first calls
 * {@link #beforeCheck()}, which stops the warm-up and waits for the step it is in to end (a small
 * check, tens to a few hundred milliseconds), so that no check, and no time limit of one, shares
 * the machine with it. Kept apart from {@link Warmup} so that a check loads this small class
 * only.
 */
public final class Background {

    /**
     * The longest a check waits for the warm-up's step to end: far more than a step takes (each is
     * bounded by {@link Warmup}'s time limits), so that only a warm-up gone wrong is left running rather
     * than holding the check.
     */
    static final long WAIT_MILLIS = 10_000;

    private static final AtomicBoolean STARTED = new AtomicBoolean();
    private static volatile boolean stopped;
    /** The background warm-up's thread until it is seen to have ended; {@code null} before and after. */
    private static volatile Thread background;

    private Background() {
    }

    /**
     * Runs the warm-up at {@code level} on a daemon thread, {@code isocheck-warmup}, unless one
     * was started before in this JVM; whatever it throws is dropped.
     */
    public static void start(IsolationLevel level) {
        if (STARTED.compareAndSet(false, true)) {
            startNow(level);
        }
    }

    /** Runs the warm-up at {@code level} on a daemon thread, once more (tests): none may be running. */
    static void startNow(IsolationLevel level) {
        if (running()) {
            throw new IllegalStateException("a warm-up runs already");
        }
        stopped = false;
        Thread thread = new Thread(() -> {
            try {
                Warmup.run(level, () -> stopped);
            } catch (Throwable dropped) {
                // Nothing of the warm-up is anyone's business, a failure included.
            }
        }, "isocheck-warmup");
        thread.setDaemon(true);
        // A hint only (most platforms ignore it unprivileged): the test's own threads come first.
        thread.setPriority(Thread.MIN_PRIORITY);
        background = thread;
        thread.start();
    }

    /**
     * Stops the background warm-up, if one runs, and waits for the step it is in to end
     * ({@link #WAIT_MILLIS} at most): it checks nothing more.
     */
    public static void stop() {
        stopped = true;
        Thread thread = background;
        if (thread == null || thread == Thread.currentThread()) {
            return;
        }
        try {
            thread.join(WAIT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!thread.isAlive()) {
            background = null;
        }
    }

    /**
     * Before a check: unless it is the warm-up's own, the background warm-up, if one runs, is
     * stopped and its step waited for ({@link #stop()}). One volatile read otherwise.
     */
    public static void beforeCheck() {
        Thread thread = background;
        if (thread != null && thread != Thread.currentThread()) {
            stop();
        }
    }

    /** Whether the background warm-up's thread is alive (tests). */
    static boolean running() {
        Thread thread = background;
        return thread != null && thread.isAlive();
    }
}
