package dev.isocheck.internal.recording;

import java.util.Optional;

/**
 * Asks the database whether one connection's statement waits for a lock, as PostgreSQL's
 * isolation tester asks it: the gate of an interleaving test then lets another thread go at once,
 * rather than guess from how long the statement takes.
 */
public interface LockProbe {

    /**
     * Whether the connection's statement waits for a lock now.
     *
     * @param sessions the run's connections of the recorder's own, one per database
     * @return empty when it cannot be told (yet): no connection of the recorder's own is open
     */
    Optional<Boolean> waitsForLock(SideSessions sessions);

    /** Starts opening the connection the questions will go on, so that the first is answered. */
    void prepare(SideSessions sessions);
}
