package dev.isocheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import dev.isocheck.internal.recording.jdbc.PostgresDatabase;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.EventType;
import org.opentest4j.AssertionFailedError;

/**
 * Tests checked in rounds while they run ({@code isocheck.rounds}), on embedded PostgreSQL with
 * the writes from its logical decoding: a correct load of transfers from several threads passes,
 * round after round; a lost update made in its middle fails the test with the explanation, as the
 * whole check would; with {@code isocheck.rounds.fail-early} the test's statements stop soon
 * after it; at serializable a violation of strict serializability is no pass either.
 */
class CheckedInRoundsTests {

    @TempDir
    Path reports;

    @Test
    void aCorrectLoadPassesRoundAfterRound() {
        EngineExecutionResults results = run(CorrectLoadTestCase.class, "50", false);
        assertThat(failures(results)).isEmpty();
        assertThat(results.testEvents().succeeded().count()).isEqualTo(1);
        String rounds = entry(results, "isocheck.rounds");
        // 4 threads x 150 transfers and the set-up: many rounds, each holding little.
        assertThat(rounds).matches("(\\d+) rounds, .*");
        assertThat(Integer.parseInt(rounds.substring(0, rounds.indexOf(' ')))).isGreaterThan(3);
        // The sum over every account at the end is a predicate read: its rows are checked, not the WHERE.
        assertThat(entry(results, "isocheck.notModelled")).contains("the rows a WHERE did not return");
    }

    @Test
    void aLostUpdateInTheMiddleFailsTheTestWithItsExplanation() {
        EngineExecutionResults results = run(LostUpdateTestCase.class, "40", false);
        List<Throwable> failures = failures(results);
        assertThat(failures).hasSize(1);
        assertThat(failures.get(0)).isInstanceOf(IsolationViolationError.class);
        IsolationViolationError violation = (IsolationViolationError) failures.get(0);
        assertThat(violation.anomaly().type().shortName()).startsWith("G2");
        assertThat(violation.getMessage()).contains("lost update", "counters/1", "Checked in rounds", "round ",
                "logical decoding", "drained each round");
        assertThat(violation.historyFile()).exists();
        assertThat(violation.reportFile()).exists();
    }

    @Test
    void atSerializableALostUpdateFailsTheTestAsAViolationOfSerializable() throws Exception {
        List<Throwable> failures = failures(run(LostUpdateAtSerializableTestCase.class, "40", false));
        assertThat(failures).hasSize(1);
        assertThat(failures.get(0)).isInstanceOf(IsolationViolationError.class);
        IsolationViolationError violation = (IsolationViolationError) failures.get(0);
        assertThat(violation.level()).isEqualTo(IsolationLevel.SERIALIZABLE);
        assertThat(violation.getMessage()).contains("lost update", "counters/1", "Checked in rounds",
                "The history file holds the transactions of the violation found in round");
        assertThat(new dev.isocheck.format.JsonlHistoryReader().read(violation.historyFile()).size())
                .as("the violation's transactions and the writers of what they read, not the round's").isLessThan(10);
    }

    @Test
    void atSnapshotIsolationAWriteSkewIsUndecidedNeverAViolation() {
        // A write skew is allowed at snapshot isolation but breaks strict serializability, which
        // rounds check: the candidate violation at snapshot isolation does not hold, so no verdict.
        assertThat(undecided(WriteSkewAtSnapshotIsolationTestCase.class, "40"))
                .contains("could not decide", "not strictly serializable", "none did");
    }

    @Test
    void failingEarlyStopsTheTestsStatementsSoonAfterTheViolation() {
        EngineExecutionResults results = run(FailEarlyTestCase.class, "40", true);
        List<Throwable> failures = failures(results);
        assertThat(failures).hasSize(1);
        Throwable failure = failures.get(0);
        assertThat(failure.getMessage()).contains("found in round", "isocheck.rounds.fail-early", "lost update");
        // And the whole explanation when the test ended.
        assertThat(failure.getSuppressed()).anySatisfy(s -> assertThat(s).isInstanceOf(IsolationViolationError.class));
    }

    @Test
    void aTransactionThatDoesNotEndMakesTheRoundsGiveUpNamingIt() {
        // Rounds of 20: past 1,000 held (the floor of 16 rounds' worth) they give up.
        assertThat(undecided(TransactionLeftOpenTestCase.class, "20")).contains("could not decide", "gave up after round",
                "a transaction that thread " + TransactionLeftOpenTestCase.thread + " started", "has not ended",
                "@Transactional", "The rest of the test was not checked");
        assertThat(TransactionLeftOpenTestCase.slotsLeftWhileOpen).isZero();
    }

    @Test
    void onMariadbACorrectLoadPassesAndALostUpdateFailsRoundByRound() {
        EngineExecutionResults correct = run(MariadbCorrectLoadTestCase.class, "50", false);
        assertThat(failures(correct)).isEmpty();
        assertThat(correct.testEvents().succeeded().count()).isEqualTo(1);
        String rounds = entry(correct, "isocheck.rounds");
        assertThat(Integer.parseInt(rounds.substring(0, rounds.indexOf(' ')))).isGreaterThan(3);
        assertThat(entry(correct, "isocheck.writes")).contains("binary log", "drained each round");

        EngineExecutionResults lost = run(MariadbLostUpdateTestCase.class, "40", false);
        List<Throwable> failures = failures(lost);
        assertThat(failures).hasSize(1);
        assertThat(failures.get(0)).isInstanceOf(IsolationViolationError.class);
        assertThat(failures.get(0).getMessage()).contains("lost update", "counters/1", "Checked in rounds", "binary log");
    }

    /**
     * Two tests in parallel, each on a database of its own with the same tables, each with an
     * executor of its own, checked in rounds. An executor's thread only inherits its test's binding,
     * so its transactions go to both tests' histories (junit.md: which test a pool's work is for
     * cannot be told); the two databases' rows stay apart there (keys of the second database
     * prefixed with its name). So the lost update fails its test, and the other test passes or
     * fails with that same lost update, never with a made-up one between the databases' accounts.
     */
    @Test
    void testsRunningInParallelOnTwoDatabasesAreNotFailedByTheirRowsSharingKeys() {
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter").selectors(selectClass(ParallelTestCase.class))
                .configurationParameter("isocheck.report.dir", reports.toString())
                .configurationParameter("isocheck.rounds", "40")
                .configurationParameter("junit.jupiter.execution.parallel.enabled", "true")
                .configurationParameter("junit.jupiter.execution.parallel.mode.default", "concurrent")
                .configurationParameter("junit.jupiter.execution.parallel.config.strategy", "fixed")
                .configurationParameter("junit.jupiter.execution.parallel.config.fixed.parallelism", "2")
                .execute();
        // Each test's rounds ran beside the other's: both were in progress at once.
        assertThat(ParallelTestCase.together.getCount()).isZero();
        results.testEvents().assertStatistics(stats -> stats.started(2));
        assertThat(results.testEvents().failed().list()).extracting(e -> e.getTestDescriptor().getDisplayName())
                .contains("transfersAndALostUpdate()");
        for (Throwable failure : failures(results)) {
            assertThat(failure).isInstanceOf(IsolationViolationError.class);
            assertThat(((IsolationViolationError) failure).anomaly().transactions()).hasSize(2);
            assertThat(failure.getMessage()).contains("counters/1-> ").doesNotContain("accounts/");
        }
    }

    @Test
    void theHistorySoFarIsNotKeptAndAskingForItSaysSo() {
        EngineExecutionResults results = run(HistoryAskedTestCase.class, "on", false);
        List<Throwable> failures = failures(results);
        assertThat(failures).hasSize(1);
        assertThat(failures.get(0)).isInstanceOf(IllegalStateException.class).hasMessageContaining("checked in rounds");
    }

    @Test
    void aBadRoundSizeIsAConfigurationError() {
        EngineExecutionResults results = run(CorrectLoadTestCase.class, "-3", false);
        List<Throwable> failures = failures(results);
        assertThat(failures).hasSize(1);
        assertThat(failures.get(0).getMessage()).contains("isocheck.rounds", "-3", "off, on, or the transactions a round takes");
    }

    private EngineExecutionResults run(Class<?> testCase, String rounds, boolean failEarly) {
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(testCase))
                .configurationParameter("isocheck.report.dir", reports.toString())
                .configurationParameter("isocheck.rounds", rounds)
                .configurationParameter("isocheck.rounds.fail-early", String.valueOf(failEarly))
                .execute();
    }

    /** The message of the one failure of {@code testCase} run in rounds of {@code rounds}: undecided, no violation. */
    private String undecided(Class<?> testCase, String rounds) {
        List<Throwable> failures = failures(run(testCase, rounds, false));
        assertThat(failures).hasSize(1);
        assertThat(failures.get(0)).isInstanceOf(AssertionFailedError.class).isNotInstanceOf(IsolationViolationError.class);
        return failures.get(0).getMessage();
    }

    private static List<Throwable> failures(EngineExecutionResults results) {
        return results.testEvents().failed().list().stream()
                .map(e -> e.getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow()).toList();
    }

    private static String entry(EngineExecutionResults results, String key) {
        return results.allEvents().list().stream().filter(e -> e.getType() == EventType.REPORTING_ENTRY_PUBLISHED)
                .map(e -> e.getRequiredPayload(ReportEntry.class).getKeyValuePairs().get(key))
                .filter(java.util.Objects::nonNull).findFirst().orElseThrow(() -> new AssertionError("no report entry " + key));
    }

    /**
     * Accounts 1..8 with 100 each, and counter 1 at 0, made before the recorded connections, on
     * the server with {@code wal_level = logical} (writes from its log) or the one without (writes
     * from the statements).
     */
    static DataSource database(String name, boolean logical) throws Throwable {
        PostgresDatabase server = logical ? PostgresDatabase.logical() : PostgresDatabase.get();
        try (Connection c = server.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name);
            s.execute("CREATE DATABASE " + name);
        }
        DataSource plain = server.database(name);
        try (Connection c = plain.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE accounts (id INT PRIMARY KEY, balance INT NOT NULL)");
            s.execute("INSERT INTO accounts SELECT g, 100 FROM generate_series(1, 8) g");
            s.execute("CREATE TABLE counters (id INT PRIMARY KEY, n INT NOT NULL)");
            s.execute("INSERT INTO counters VALUES (1, 0)");
        }
        return plain;
    }

    /**
     * {@code threads} threads each make {@code transfers} transfers between random accounts at
     * SERIALIZABLE, retrying those PostgreSQL rolls back; {@code between} runs on the test's thread
     * meanwhile. Returns the total balance.
     */
    static int transfers(DataSource recorded, int threads, int transfers, long seed, Between between) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Random random = new Random(seed + t);
                running.add(pool.submit(() -> {
                    try (Connection c = recorded.getConnection()) {
                        c.setAutoCommit(false);
                        c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
                        for (int i = 0; i < transfers; i++) {
                            int from = 1 + random.nextInt(8);
                            int to = 1 + (from + random.nextInt(7)) % 8;
                            transfer(c, from, to, 1 + random.nextInt(5));
                        }
                    }
                    return null;
                }));
            }
            between.run(recorded);
            for (Future<?> f : running) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        try (Connection c = recorded.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT sum(balance) FROM accounts")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /** What the test's thread does while the transfers run. */
    @FunctionalInterface
    interface Between {
        void run(DataSource recorded) throws Exception;
    }

    private static void transfer(Connection c, int from, int to, int amount) throws SQLException {
        while (true) {
            try {
                int a = WeakLevelsRealDatabaseTests.balance(c, from);
                int b = WeakLevelsRealDatabaseTests.balance(c, to);
                set(c, from, a - amount);
                set(c, to, b + amount);
                c.commit();
                return;
            } catch (SQLException e) {
                c.rollback();
                if (!"40001".equals(e.getSQLState()) && !"40P01".equals(e.getSQLState())) {
                    throw e;
                }
            }
        }
    }

    private static void set(Connection c, int id, int balance) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("UPDATE accounts SET balance = ? WHERE id = ?")) {
            p.setInt(1, balance);
            p.setInt(2, id);
            p.executeUpdate();
        }
    }

    /** The lost increment of {@link WeakLevelsRealDatabaseTests#lostIncrementOn}, on counter 1. */
    static void lostIncrement(DataSource recorded) throws SQLException {
        WeakLevelsRealDatabaseTests.lostIncrementOn(recorded);
    }

    /**
     * 3 threads' {@code transfers} transfers each, and a lost increment on the test's thread after
     * some rounds (300 ms in), while the transfers go on.
     */
    static void withALostUpdate(DataSource recorded, int transfers, long seed) throws Exception {
        CheckedInRoundsTests.transfers(recorded, 3, transfers, seed, r -> {
            Thread.sleep(300);
            lostIncrement(r);
        });
    }

    @SerializableCheck(level = IsolationLevel.STRICT_SERIALIZABLE)
    static class CorrectLoadTestCase {

        @org.junit.jupiter.api.Test
        void transfers() throws Throwable {
            DataSource recorded = Isocheck.record(database("rounds_correct", true));
            assertThat(CheckedInRoundsTests.transfers(recorded, 4, 150, 1, r -> { })).isEqualTo(800);
        }
    }

    @SerializableCheck(level = IsolationLevel.STRICT_SERIALIZABLE)
    static class LostUpdateTestCase {

        @org.junit.jupiter.api.Test
        void transfersAndALostUpdate() throws Throwable {
            CheckedInRoundsTests.withALostUpdate(Isocheck.record(database("rounds_lost", true)), 120, 2);
        }
    }

    @SerializableCheck
    static class LostUpdateAtSerializableTestCase {

        @org.junit.jupiter.api.Test
        void transfersAndALostUpdate() throws Throwable {
            CheckedInRoundsTests.withALostUpdate(Isocheck.record(database("rounds_lost_ser", false)), 120, 3);
        }
    }

    @SerializableCheck(level = IsolationLevel.SNAPSHOT_ISOLATION)
    static class WriteSkewAtSnapshotIsolationTestCase {

        @org.junit.jupiter.api.Test
        void transfersAndAWriteSkew() throws Throwable {
            DataSource plain = database("rounds_skew_si", true);
            try (Connection c = plain.getConnection(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE doctors (id INT PRIMARY KEY, on_call BOOLEAN NOT NULL)");
                s.execute("INSERT INTO doctors VALUES (1, TRUE), (2, TRUE)");
            }
            DataSource recorded = Isocheck.record(plain);
            CheckedInRoundsTests.transfers(recorded, 3, 120, 4, r -> {
                Thread.sleep(300);
                // Each doctor goes off call after seeing the other on call, at REPEATABLE READ.
                try (Connection alice = r.getConnection(); Connection bob = r.getConnection()) {
                    for (Connection c : List.of(alice, bob)) {
                        c.setAutoCommit(false);
                        c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
                        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                                "SELECT on_call FROM doctors WHERE id IN (1, 2) ORDER BY id")) {
                            while (rs.next()) {
                                assertThat(rs.getBoolean(1)).isTrue();
                            }
                        }
                    }
                    int id = 1;
                    for (Connection c : List.of(alice, bob)) {
                        try (Statement s = c.createStatement()) {
                            s.executeUpdate("UPDATE doctors SET on_call = FALSE WHERE id = " + id++);
                        }
                    }
                    alice.commit();
                    bob.commit();
                }
            });
        }
    }

    @SerializableCheck(level = IsolationLevel.STRICT_SERIALIZABLE)
    static class FailEarlyTestCase {

        @org.junit.jupiter.api.Test
        void aLostUpdateThenMoreUntilStopped() throws Throwable {
            DataSource recorded = Isocheck.record(database("rounds_early", true));
            lostIncrement(recorded);
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
            try (Connection c = recorded.getConnection()) {
                while (System.nanoTime() < deadline) {
                    WeakLevelsRealDatabaseTests.counter(c);
                    Thread.sleep(5);
                }
            }
            throw new AssertionError("the statements were not stopped within 60 s of the violation");
        }
    }

    /** Accounts 1..8 with 100 each and counter 1 at 0, on the MariaDB server that keeps a row-based binary log. */
    static DataSource mariadb(String name) throws Throwable {
        DataSource plain = dev.isocheck.internal.recording.jdbc.MariadbDatabase.logged(name).dataSource();
        try (Connection c = plain.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE accounts (id INT PRIMARY KEY, balance INT NOT NULL)");
            for (int id = 1; id <= 8; id++) {
                s.execute("INSERT INTO accounts VALUES (" + id + ", 100)");
            }
            s.execute("CREATE TABLE counters (id INT PRIMARY KEY, n INT NOT NULL)");
            s.execute("INSERT INTO counters VALUES (1, 0)");
        }
        return plain;
    }

    @SerializableCheck(level = IsolationLevel.STRICT_SERIALIZABLE)
    static class MariadbCorrectLoadTestCase {

        @org.junit.jupiter.api.Test
        void transfers() throws Throwable {
            DataSource recorded = Isocheck.record(mariadb("rounds_maria_correct"));
            assertThat(CheckedInRoundsTests.transfers(recorded, 4, 100, 5, r -> { })).isEqualTo(800);
        }
    }

    @SerializableCheck(level = IsolationLevel.STRICT_SERIALIZABLE)
    static class MariadbLostUpdateTestCase {

        @org.junit.jupiter.api.Test
        void transfersAndALostUpdate() throws Throwable {
            CheckedInRoundsTests.withALostUpdate(Isocheck.record(mariadb("rounds_maria_lost")), 80, 6);
        }
    }

    @SerializableCheck(level = IsolationLevel.STRICT_SERIALIZABLE)
    static class ParallelTestCase {

        /** Each test waits here for the other to start, so that both run (and are checked in rounds) at once. */
        static final java.util.concurrent.CountDownLatch together = new java.util.concurrent.CountDownLatch(2);

        private static void meet() throws InterruptedException {
            together.countDown();
            together.await(30, java.util.concurrent.TimeUnit.SECONDS);
        }

        @org.junit.jupiter.api.Test
        void transfers() throws Throwable {
            DataSource recorded = Isocheck.record(database("rounds_parallel_correct", true));
            meet();
            assertThat(CheckedInRoundsTests.transfers(recorded, 3, 120, 7, r -> { })).isEqualTo(800);
        }

        @org.junit.jupiter.api.Test
        void transfersAndALostUpdate() throws Throwable {
            DataSource recorded = Isocheck.record(database("rounds_parallel_lost", true));
            meet();
            CheckedInRoundsTests.withALostUpdate(recorded, 120, 8);
        }
    }

    @SerializableCheck(level = IsolationLevel.STRICT_SERIALIZABLE)
    static class TransactionLeftOpenTestCase {

        static volatile String thread;

        @org.junit.jupiter.api.Test
        void transfersWhileOneTransactionStaysOpen() throws Throwable {
            DataSource recorded = Isocheck.record(database("rounds_open", true));
            thread = Thread.currentThread().getName();
            try (Connection open = recorded.getConnection()) {
                open.setAutoCommit(false);
                // Its first statement starts the transaction, which lasts as long as the transfers.
                WeakLevelsRealDatabaseTests.counter(open);
                assertThat(CheckedInRoundsTests.transfers(recorded, 4, 400, 4, r -> { })).isEqualTo(800);
                // The rounds gave up meanwhile: their replication slot no longer holds the server's log.
                slotsLeftWhileOpen = slotsOf("rounds_open", 10);
                open.commit();
            }
        }

        static volatile long slotsLeftWhileOpen = -1;

        /** The replication slots of {@code database}, once there are none or {@code seconds} have passed. */
        private static long slotsOf(String database, int seconds) throws Throwable {
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(seconds);
            while (true) {
                try (Connection c = PostgresDatabase.logical().dataSource().getConnection();
                     PreparedStatement p = c.prepareStatement("SELECT count(*) FROM pg_replication_slots WHERE database = ?")) {
                    p.setString(1, database);
                    try (ResultSet rs = p.executeQuery()) {
                        rs.next();
                        long slots = rs.getLong(1);
                        if (slots == 0 || System.nanoTime() > deadline) {
                            return slots;
                        }
                    }
                }
                Thread.sleep(100);
            }
        }
    }

    @SerializableCheck
    static class HistoryAskedTestCase {

        @org.junit.jupiter.api.Test
        void asks(Recording recording) throws Throwable {
            DataSource recorded = Isocheck.record(database("rounds_asked", false));
            lostIncrement(recorded);
            recording.history();
        }
    }
}
