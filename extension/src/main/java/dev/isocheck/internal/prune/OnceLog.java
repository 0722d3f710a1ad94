package dev.isocheck.internal.prune;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Logs the first message it is given and drops the rest: the pruner computes a closure every
 * round, and a fallback reason repeated every round would drown the log.
 */
final class OnceLog {

    /** The logger's name, when it is found on the first message; {@code null} when given. */
    private final String name;
    private final AtomicBoolean logged = new AtomicBoolean();
    private Logger logger;

    OnceLog(Logger logger) {
        this.name = null;
        this.logger = logger;
    }

    private OnceLog(String name) {
        this.name = name;
    }

    /**
     * A log to {@link System#getLogger(String) System.getLogger(name)}, found when the first
     * message comes: finding it starts the platform's logging (java.util.logging and its
     * configuration, some 20 ms on a cold JVM), which a check that logs nothing never needs.
     */
    static OnceLog named(String name) {
        return new OnceLog(name);
    }

    /** Logs {@code message} at {@code INFO} if nothing was logged before; whether it did. */
    boolean log(String message) {
        if (!logged.compareAndSet(false, true)) {
            return false;
        }
        // Only the one thread that won the flag gets here, once.
        if (logger == null) {
            logger = System.getLogger(name);
        }
        logger.log(Level.INFO, message);
        return true;
    }
}
