package dev.isocheck.internal.prune;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Logs the first message it is given and drops the rest: the pruner computes a closure every
 * round, and a fallback reason repeated every round would drown the log.
 */
final class OnceLog {

    private final Logger logger;
    private final AtomicBoolean logged = new AtomicBoolean();

    OnceLog(Logger logger) {
        this.logger = logger;
    }

    /** Logs {@code message} at {@code INFO} if nothing was logged before; whether it did. */
    boolean log(String message) {
        if (!logged.compareAndSet(false, true)) {
            return false;
        }
        logger.log(Level.INFO, message);
        return true;
    }
}
