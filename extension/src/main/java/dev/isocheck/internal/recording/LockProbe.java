package dev.isocheck.internal.recording;

/**
 * Asks the database whether one connection's statement waits for a lock, as PostgreSQL's
 * isolation tester asks it: the gate of an interleaving test then lets another thread go at once,
 * rather than guess from how long the statement takes.
 */
@FunctionalInterface
public interface LockProbe {

    /**
     * Whether the connection's statement waits for a lock now.
     *
     * @param sessions the run's connections of the recorder's own, one per database
     */
    Answer waitsForLock(SideSessions sessions);

    /** Starts opening the recorder's connection the questions go on, so that the first is answered. */
    default void prepare(SideSessions sessions) {
    }

    /** The database's id of the connection's session (PostgreSQL's process id), if it has one. */
    default java.util.OptionalInt session() {
        return java.util.OptionalInt.empty();
    }

    /** The sessions the statement waited for when last asked and found waiting; empty otherwise. */
    default java.util.List<Integer> blockers() {
        return java.util.List.of();
    }

    /** What the database said. */
    enum Answer {
        /** The statement waits for a lock another session holds. */
        WAITS,
        /** The statement waits for no lock: it is working. */
        WORKS,
        /** The recorder's own connection is being opened: ask again. */
        NOT_YET,
        /** The database cannot be asked. */
        UNKNOWN
    }
}
