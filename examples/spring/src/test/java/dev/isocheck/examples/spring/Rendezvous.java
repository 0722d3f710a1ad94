package dev.isocheck.examples.spring;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * Holds the first {@code parties} requests that arrive until all of them have, then lets everyone
 * through, for good: the requests then overlap for certain, and a request retried is not held again.
 *
 * <p>A request that locks what it reads never lets the other one arrive: the other waits in the
 * database for the lock. {@link #orLockWait} makes a rendezvous that PostgreSQL's
 * {@code pg_stat_activity} can also end: a request is let through as soon as another session waits
 * for a lock, which is the overlap the test wants (both requests in their transactions, one
 * blocked by the other's lock), without waiting for an arrival that cannot come.
 */
final class Rendezvous {

    private static final long PATIENCE_MILLIS = 10_000;
    private static final long POLL_MILLIS = 10;

    private final CountDownLatch arrivals;
    private final DataSource lockWatch;

    private Rendezvous(int parties, DataSource lockWatch) {
        this.arrivals = new CountDownLatch(parties);
        this.lockWatch = lockWatch;
    }

    /** A rendezvous of {@code parties} requests. */
    static Rendezvous of(int parties) {
        return new Rendezvous(parties, null);
    }

    /**
     * A rendezvous of {@code parties} requests that also ends when a session of {@code database}
     * (asked on a connection of its own, not recorded) waits for a lock.
     */
    static Rendezvous orLockWait(int parties, DataSource database) {
        return new Rendezvous(parties, database);
    }

    /** Waits until every party has arrived (at most ten seconds: a party may never come). */
    void arrive() {
        arrivals.countDown();
        try {
            if (lockWatch == null) {
                arrivals.await(PATIENCE_MILLIS, TimeUnit.MILLISECONDS);
            } else {
                awaitArrivalsOrALockWait();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void awaitArrivalsOrALockWait() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PATIENCE_MILLIS);
        try (Connection c = lockWatch.getConnection(); Statement s = c.createStatement()) {
            while (!arrivals.await(POLL_MILLIS, TimeUnit.MILLISECONDS) && System.nanoTime() < deadline) {
                try (ResultSet waiting = s.executeQuery("SELECT count(*) FROM pg_stat_activity"
                        + " WHERE wait_event_type = 'Lock' AND backend_type = 'client backend'")) {
                    waiting.next();
                    if (waiting.getInt(1) > 0) {
                        return;
                    }
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot ask PostgreSQL who waits for a lock", e);
        }
    }
}
