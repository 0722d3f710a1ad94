package dev.isocheck.examples.jooq;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Holds the first {@code parties} threads that arrive until all of them have, then lets everyone
 * through, for good: two requests then overlap for certain, whatever the scheduler does, and a
 * request the database made the application retry is not held a second time. (The examples
 * module's own, copied: this module depends on nothing of it.)
 */
final class Rendezvous {

    private static final long PATIENCE_SECONDS = 10;

    private final CountDownLatch arrivals;

    /** A rendezvous of {@code parties} threads. */
    Rendezvous(int parties) {
        arrivals = new CountDownLatch(parties);
    }

    /** Waits until every party has arrived (at most ten seconds: a party may never come). */
    void arrive() {
        arrivals.countDown();
        try {
            arrivals.await(PATIENCE_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
