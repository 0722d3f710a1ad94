package dev.isocheck.internal.schedule;

import java.time.Duration;

/**
 * How long the {@link Gate} waits before it decides without a thread: for threads just created to
 * arrive, for a statement to come back from the database, for a thread to come back to the gate
 * from the application's code. Each wait bounds how long the gate can be wrong about a thread;
 * being wrong costs control over one step, never a wrong verdict, which only the recorded history
 * decides.
 *
 * @param arrival     how long a thread created by one of the test's threads is waited for, and
 *                    how long the first decision of a run waits for more threads after the first
 * @param database    how long a statement may stay in the database before the gate takes it to
 *                    wait for a lock and lets another thread go, where the database cannot be
 *                    asked whether it does
 * @param slow        how long a statement the database says waits for no lock, or a connection
 *                    being opened, may take before the gate lets another thread go
 * @param parked      how long a thread may wait outside the database (an application lock, a pool,
 *                    a future) before the gate lets another thread go
 * @param application how long a thread may run the application's code without reaching the gate
 *                    before the gate lets another go (the recorder's own work, such as parsing a
 *                    statement the first time, is not counted)
 * @param stall       how long no thread may reach the database, with threads waiting outside it,
 *                    before the run is stopped as stalled
 * @param retries     how many transactions one thread may see fail (serialization failure or
 *                    deadlock) before it runs alone, always chosen when held, so that a forced
 *                    order cannot make threads fail each other forever
 */
public record Timing(Duration arrival, Duration database, Duration slow, Duration parked, Duration application, Duration stall,
        int retries) {

    /** The defaults: 30 ms, 50 ms, 2 s, 20 ms, 500 ms, 10 s and 3. */
    public static Timing defaults() {
        return new Timing(Duration.ofMillis(30), Duration.ofMillis(50), Duration.ofSeconds(2), Duration.ofMillis(20),
                Duration.ofMillis(500), Duration.ofSeconds(10), 3);
    }

    /** The same with another stall timeout. */
    public Timing withStall(Duration stall) {
        return new Timing(arrival, database, slow, parked, application, stall, retries);
    }
}
