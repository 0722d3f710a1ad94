package dev.isocheck;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Checks that the transactions a test runs through recorded connections are serializable (or
 * satisfy another {@link #level() level}): after the test method, the history its connections
 * recorded is checked, and the test fails with an {@link IsolationViolationError} that explains
 * the anomaly when the database allowed one.
 *
 * <pre>{@code
 * @SerializableCheck
 * class TransferTests {
 *
 *     DataSource dataSource = Isocheck.record(pooledDataSource());
 *
 *     @Test
 *     void concurrentTransfersKeepTheTotal() throws Exception {
 *         Thread a = new Thread(() -> transfer(dataSource, "alice", "bob", 10));
 *         Thread b = new Thread(() -> transfer(dataSource, "bob", "alice", 20));
 *         a.start(); b.start();
 *         a.join(); b.join();
 *     }
 *
 *     @Test
 *     @SerializableCheck(level = IsolationLevel.SNAPSHOT_ISOLATION)
 *     void reportsRunAtSnapshotIsolation() { ... }
 * }
 * }</pre>
 *
 * <p><strong>What is recorded.</strong> Each test method has a history of its own, started before
 * its {@code @BeforeEach} methods (so their work and the connections field initialisers open are
 * recorded too) and checked after the method's body, before its {@code @AfterEach} methods. Its
 * connections record into it from the test's thread and from every thread the test starts,
 * directly or through an executor it creates. A thread bound to one test never records into
 * another. A thread that is not (one that existed before the test, such as a shared executor's or
 * a pool's, or an executor's thread one test started and another test uses) records into the test
 * in progress; with several tests in progress, which one its work is for cannot be told, and its
 * transactions are recorded in each of their histories (they ran, so no history is made wrong by
 * them) and listed as such in the report entry.
 *
 * <p><strong>Defaults and configuration.</strong> A {@link #level() level} written on the
 * annotation always applies; an annotation on a method overrides one on its class. Unwritten, the
 * level is the configuration parameter {@code isocheck.level}, else
 * {@link IsolationLevel#SERIALIZABLE}. Configuration parameters
 * (in {@code junit-platform.properties}, as system properties, or given to the launcher):
 * <ul>
 *   <li>{@code isocheck.level}: the default level, {@code serializable},
 *       {@code strict-serializable} or {@code snapshot-isolation};</li>
 *   <li>{@code isocheck.report.dir}: where report and history files go; defaults to
 *       {@code target/isocheck};</li>
 *   <li>{@code isocheck.timeout}: how long a test's check may take, such as {@code 30 s},
 *       {@code 500ms} or {@code 1m30s} (the {@code check} command's {@code --timeout} reads the
 *       same forms); defaults to {@code 60 s}; a check still running then is stopped;</li>
 *   <li>{@code isocheck.undecided}: {@code fail} (the default) fails a test whose check cannot
 *       decide, {@code abort} aborts it; it never passes;</li>
 *   <li>{@code isocheck.gpu}: {@code auto} (the default), {@code on} or {@code off};</li>
 *   <li>{@code isocheck.left-out}: what a test whose check passed does when a table it touched
 *       was left out of the check (its writes not seen exactly): {@code abort} (the default),
 *       {@code fail}, or {@code report} (pass, listing it in a report entry).</li>
 * </ul>
 * A value not listed, or any other {@code isocheck.*} key in {@code junit-platform.properties},
 * fails the test with an {@link org.junit.jupiter.api.extension.ExtensionConfigurationException}
 * naming it (and the key it is nearest to). Another {@code isocheck.*} key among the system
 * properties ({@code mvn test -Disocheck.version=0.1.0}, which a build passes on to the tests) is
 * ignored, as JUnit ignores keys it does not know, with a warning logged once.
 *
 * <p><strong>The recording in the test.</strong> A test method (or a {@code @BeforeEach} or
 * {@code @AfterEach} method) may declare a {@link Recording} parameter: the history so far, slices
 * of it from a mark, a check now at any level, and what was left out, for assertions of the test's
 * own ({@code dev.isocheck.assertj}, {@code dev.isocheck.hamcrest}). The check after the body is
 * unchanged by them.
 *
 * <p><strong>Limits.</strong> Only connections of a {@code DataSource} wrapped by
 * {@code Isocheck.record} are recorded. A history records what the test's transactions read and
 * wrote, not the rows they found already there: initial values are unknown, so some anomalies
 * over rows the test never wrote cannot be shown. What the recording saw but could not model is
 * listed in the failure message and, for a passing test, published as a report entry (a table
 * left out keeps the test from a plain pass, as {@code isocheck.left-out} says). The check
 * runs after the body, not during it; a test that hangs is never checked.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Documented
@ExtendWith(SerializableCheckExtension.class)
@API(status = EXPERIMENTAL, since = "0.1")
public @interface SerializableCheck {

    /**
     * The level the test's transactions must satisfy: one level, written
     * {@code level = IsolationLevel.SNAPSHOT_ISOLATION}. A level written out always wins; left
     * unset, a method's annotation takes its class's level (or an enclosing class's), and
     * failing that the configuration parameter {@code isocheck.level}, and failing that
     * {@link IsolationLevel#SERIALIZABLE}.
     *
     * <p>An array only so that "unset" can be told from any level (an annotation's member has no
     * {@code null}, and {@code SERIALIZABLE} written out must win over {@code isocheck.level}
     * too): naming more than one level is a configuration error.
     */
    IsolationLevel[] level() default {};

    /**
     * The anomalies the test's run is expected to show at its {@link #level() level}, for a test
     * that documents a known weakness (a level or a database that lets a write skew through):
     * the test passes when the check finds a violation showing one of them, and fails, saying
     * so, when the run satisfies the level (it did not overlap, or the database got better) or
     * shows another. Each is a familiar name ({@code "write skew"}, {@code "lost update"},
     * {@code "read skew"}, {@code "phantom write skew"}, {@code "stale read"},
     * {@code "long fork"}) or an {@link AnomalyType}'s short name or description
     * ({@code "G2-item"}), in any case. Empty (the default): the run must satisfy the level.
     */
    @API(status = EXPERIMENTAL, since = "0.2")
    String[] expect() default {};
}
