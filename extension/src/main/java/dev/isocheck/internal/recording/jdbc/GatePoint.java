package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.recording.LockProbe;
import dev.isocheck.internal.recording.Recording;
import dev.isocheck.internal.recording.StatementGate;

/**
 * A call on the database at which an interleaving test's scheduler may hold the calling thread
 * (see {@link StatementGate}): the thread waits for its turn, makes the call, and the gate hears
 * when it is back and how it ended. Held before any of the recorder's own work for the call, so
 * that a held thread holds none of the recorder's locks.
 */
final class GatePoint {

    private GatePoint() {
    }

    /** A call on the database, as the proxies make it. */
    @FunctionalInterface
    interface Call {

        Object call() throws Throwable;
    }

    /**
     * Makes {@code call} once the gate (if any) lets the thread through; {@code probe} (or
     * {@code null}) tells the gate whether the call waits for a lock.
     */
    static Object pass(String what, java.util.function.Supplier<LockProbe> probe, Call call) throws Throwable {
        StatementGate.Passage passage = Recording.enterGate(what, probe);
        try {
            return call.call();
        } catch (Throwable e) {
            passage.threw(e);
            throw e;
        } finally {
            passage.left();
        }
    }
}
