package dev.isocheck.internal.recording;

/**
 * Where a recorded thread may be held before it sends a statement, a commit or a rollback, or
 * asks for a connection: the scheduler of an interleaving test, which lets one of the test's
 * threads through at a time in the order it explores. The recorder only calls it; what it holds
 * and releases is its own. Without one (every ordinary test) a point costs one volatile read.
 */
public interface StatementGate {

    /**
     * Called by the thread about to act on the database; returns once the gate lets it through.
     *
     * @param what   the statement's SQL, or {@code commit}, {@code rollback}, {@code getConnection}
     * @param ticket what the thread was given when it was created by one of the test's threads
     *               ({@link #threadCreated()}), or {@code null}
     * @param probe  asks the database whether the call waits for a lock, or {@code null}
     */
    Passage enter(String what, Object ticket, LockProbe probe);

    /**
     * Called on the creating thread when a thread the recording is bound to creates another: the
     * new thread will likely come to the gate soon, and the gate may wait a moment for it.
     *
     * @return a ticket the new thread carries to {@link #enter(String, Object, LockProbe)}
     */
    Object threadCreated();

    /** A thread let through: it says when its call is back from the database, and how it ended. */
    interface Passage {

        /** A passage that holds nothing. */
        Passage FREE = new Passage() {
            @Override
            public void threw(Throwable failure) {
            }

            @Override
            public void left() {
            }
        };

        /** The call threw {@code failure} (before {@link #left()}). */
        void threw(Throwable failure);

        /** The call is back from the database. */
        void left();
    }
}
