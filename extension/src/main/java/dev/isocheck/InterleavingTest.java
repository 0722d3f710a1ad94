package dev.isocheck;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * A test whose body runs once per schedule, each run's transactions checked as
 * {@link SerializableCheck} checks a test's: written in place of {@code @Test}, like
 * {@code @RepeatedTest}. In each run the test's threads (the test's own, the threads it starts,
 * directly or through an executor it creates) are held at every statement, commit, rollback and
 * {@code getConnection} of a recorded {@code DataSource}, and let through one at a time in the
 * order the schedule chooses, so that two requests started "at once" really overlap, in the
 * orders that break them, without latches or hooks in the application.
 *
 * <pre>{@code
 * @SerializableCheck
 * class TransferTests {
 *
 *     DataSource db = Isocheck.record(dataSource());
 *
 *     @BeforeEach
 *     void freshAccounts() { ... }      // runs before every schedule: each starts from the same rows
 *
 *     @InterleavingTest
 *     void twoPaymentsAtOnce() throws Exception {
 *         Thread a = new Thread(() -> bank.transfer("alice", "bob", 80));
 *         Thread b = new Thread(() -> bank.transfer("alice", "carol", 80));
 *         a.start(); b.start();
 *         a.join(); b.join();
 *     }
 * }
 * }</pre>
 *
 * <p><strong>The schedules.</strong> The first run goes round robin, one statement of each thread
 * in turn: the order that interleaves most, in which a lost update or a write skew (both reads
 * before both writes) shows at once. When every order of the points the first run reached fits
 * the budget (two threads of 3 statements have 20, of 4 have 70), the following runs take each,
 * the most interleaved first; otherwise the orders with at most two switches between threads (one
 * thread run whole between two steps of another, as a read skew needs), then random walks, each
 * choosing the next thread at random from a seed. Each run is an invocation of its own in the test tree, {@code @BeforeEach} and
 * {@code @AfterEach} around it: reset the database there. A run that violates the level fails
 * with the explanation, the statements in the order they ran, and the order to replay it; it is
 * then replayed {@value dev.isocheck.internal.schedule.Exploration#REPLAYS} times, each replay an
 * invocation that fails again when the anomaly comes back, and the exploration ends. With
 * {@link SerializableCheck#expect()}, the exploration ends at the first run that shows the
 * anomaly expected, and the last run fails when none did.
 *
 * <p><strong>What the gate cannot see.</strong> A statement still in the database after a few
 * milliseconds is taken to wait for a lock, and another thread goes; a thread that waits outside
 * the database (an application lock, a pool, a future) is let be, and the run says it was not fully
 * controlled. A run in which no thread reaches the database for
 * {@code isocheck.schedules.stall} (10 s) while some wait outside it is stopped and fails, saying
 * where they wait, rather than hang. A database or pool timeout in a run (statement, lock,
 * idle-in-transaction, connection) may come of the holding, so such a run aborts unless it
 * shows an anomaly, which stands whatever the timing. A thread that sees more than three of its
 * transactions fail with a serialization failure or deadlock runs alone from then on.
 *
 * <p>Configuration parameters: {@code isocheck.schedules}, the budget when {@link #schedules()}
 * is not given (default 20), and {@code isocheck.schedules.stall}. The runs of one test run one
 * after another, whatever the parallel execution configured.
 */
@Target({ElementType.ANNOTATION_TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@TestTemplate
@Execution(ExecutionMode.SAME_THREAD)
@ExtendWith({SerializableCheckExtension.class, InterleavingExtension.class})
@API(status = EXPERIMENTAL, since = "0.3")
public @interface InterleavingTest {

    /** How many schedules to explore at most, replays not counted; 0 (the default) reads {@code isocheck.schedules}, else 20. */
    int schedules() default 0;

    /**
     * One order to run, as a failure printed it ({@code "ABAB"}: one letter per step, the threads
     * lettered in the order they were created), instead of exploring; the test runs once.
     */
    String replay() default "";

    /** The seed before the random walks' own: the walks use {@code seed + 2}, {@code seed + 3}, … */
    long seed() default 0;
}
