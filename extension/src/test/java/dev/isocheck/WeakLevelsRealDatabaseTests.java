package dev.isocheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * The weak levels on embedded PostgreSQL, through {@code @SerializableCheck}: at READ COMMITTED a
 * transaction reads one account, a transfer between both accounts commits, and the transaction
 * reads the other account: half of the transfer. PostgreSQL's READ COMMITTED is read committed,
 * so the test passes at {@code READ_COMMITTED} and fails at {@code READ_ATOMIC}, naming the axiom;
 * at REPEATABLE READ (snapshot isolation) the same steps read one snapshot and pass at
 * {@code CAUSAL} and {@code PREFIX}, while at READ COMMITTED they break {@code PREFIX}. A lost
 * increment under READ COMMITTED is prefix-consistent (both read a snapshot, both commit) and
 * breaks {@code SNAPSHOT_ISOLATION}.
 */
class WeakLevelsRealDatabaseTests {

    @TempDir
    Path reports;

    @Test
    void readCommittedHoldsOnPostgresReadCommitted() {
        assertAllPass(ReadCommittedTestCase.class, 1);
    }

    @Test
    void postgresReadCommittedLetsATransactionSeeHalfATransferAndReadAtomicCatchesIt() {
        EngineExecutionResults results = run(ReadAtomicTestCase.class);
        List<Event> failed = results.testEvents().failed().list();
        assertThat(failed).hasSize(1);
        IsolationViolationError failure = violation(failed.get(0));
        assertThat(failure.level()).isEqualTo(IsolationLevel.READ_ATOMIC);
        assertThat(failure.getMessage().replaceAll("\\s+", " ")).contains("Read Atomic", "accounts/2", "accounts/1");
    }

    @Test
    void repeatableReadReadsOneSnapshotAndIsCausal() {
        assertAllPass(CausalTestCase.class, 1);
    }

    @Test
    void repeatableReadIsPrefixConsistentAndSoIsALostUpdateUnderReadCommitted() {
        assertAllPass(PrefixTestCase.class, 2);
    }

    @Test
    void halfATransferSeenUnderReadCommittedBreaksPrefixConsistencyAndTheLostUpdateSnapshotIsolation() {
        EngineExecutionResults results = run(NotPrefixTestCase.class);
        List<Event> failed = results.testEvents().failed().list();
        assertThat(failed).hasSize(2);
        for (Event event : failed) {
            IsolationViolationError failure = violation(event);
            String message = failure.getMessage().replaceAll("\\s+", " ");
            if (failure.level() == IsolationLevel.PREFIX) {
                assertThat(message).contains("at prefix", "(snapshot)", "(commit)", "accounts/1", "accounts/2");
            } else {
                assertThat(failure.level()).isEqualTo(IsolationLevel.SNAPSHOT_ISOLATION);
                assertThat(message).contains("counters/1");
            }
        }
    }

    /** The failed test's throwable, which must be the extension's violation error. */
    private static IsolationViolationError violation(Event failed) {
        Throwable failure = failed.getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();
        assertThat(failure).isInstanceOf(IsolationViolationError.class);
        return (IsolationViolationError) failure;
    }

    /** Runs {@code testCase}: its {@code tests} tests pass, and none fails (a failure's message shown). */
    private void assertAllPass(Class<?> testCase, int tests) {
        EngineExecutionResults results = run(testCase);
        assertThat(results.testEvents().failed().list()).extracting(e -> e.getRequiredPayload(TestExecutionResult.class)
                .getThrowable().map(Throwable::toString).orElse("")).isEmpty();
        assertThat(results.testEvents().succeeded().count()).isEqualTo(tests);
    }

    private EngineExecutionResults run(Class<?> testCase) {
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(testCase))
                .configurationParameter("isocheck.report.dir", reports.toString())
                .execute();
    }

    /**
     * The steps, on one recorded connection for the reader (which also opened the accounts, so that
     * its session saw them written) and one for the transfer. Returns the two balances the reader
     * saw.
     */
    static int[] readAcrossATransfer(DataSource plain, int isolation) throws SQLException {
        try (Connection c = plain.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS accounts");
            s.execute("CREATE TABLE accounts (id INT PRIMARY KEY, balance INT NOT NULL)");
        }
        DataSource recorded = Isocheck.record(plain);
        try (Connection reader = recorded.getConnection(); Connection transfer = recorded.getConnection()) {
            reader.setAutoCommit(false);
            try (Statement s = reader.createStatement()) {
                s.execute("INSERT INTO accounts (id, balance) VALUES (1, 50), (2, 50)");
            }
            reader.commit();
            reader.setTransactionIsolation(isolation);
            int first = balance(reader, 1);
            transfer.setAutoCommit(false);
            try (Statement s = transfer.createStatement()) {
                s.executeUpdate("UPDATE accounts SET balance = 0 WHERE id = 1");
                s.executeUpdate("UPDATE accounts SET balance = 100 WHERE id = 2");
            }
            transfer.commit();
            int second = balance(reader, 2);
            reader.commit();
            return new int[] {first, second};
        }
    }

    /**
     * Two transactions on two recorded connections read counter 1, then each writes back what it
     * read plus one, the first committing before the second writes: under READ COMMITTED the second
     * overwrites the first's increment. Returns the final value.
     */
    static int lostIncrement(DataSource plain) throws SQLException {
        try (Connection c = plain.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS counters");
            s.execute("CREATE TABLE counters (id INT PRIMARY KEY, n INT NOT NULL)");
            // Before recording: a recorded insert would leave the row's earlier state unknown, and
            // either transaction might then have read that, taken to be the same row.
            s.execute("INSERT INTO counters (id, n) VALUES (1, 0)");
        }
        return lostIncrementOn(Isocheck.record(plain));
    }

    /**
     * The steps of {@link #lostIncrement} on {@code recorded}, whose counter 1 exists: two
     * increments at READ COMMITTED, the second overwriting the first. Returns the final value.
     */
    static int lostIncrementOn(DataSource recorded) throws SQLException {
        try (Connection first = recorded.getConnection(); Connection second = recorded.getConnection()) {
            first.setAutoCommit(false);
            second.setAutoCommit(false);
            first.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            second.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            int a = counter(first);
            int b = counter(second);
            setCounter(first, a + 1);
            first.commit();
            setCounter(second, b + 1);
            second.commit();
            int result = counter(first);
            first.commit();
            return result;
        }
    }

    static int counter(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT n FROM counters WHERE id = 1")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static void setCounter(Connection c, int n) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("UPDATE counters SET n = ? WHERE id = 1")) {
            p.setInt(1, n);
            p.executeUpdate();
        }
    }

    /** Account {@code id}'s balance, read on {@code c}. */
    static int balance(Connection c, int id) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("SELECT balance FROM accounts WHERE id = ?")) {
            p.setInt(1, id);
            try (ResultSet rs = p.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    @SerializableCheck(level = IsolationLevel.READ_COMMITTED)
    static class ReadCommittedTestCase {

        @org.junit.jupiter.api.Test
        void readAcross() throws Exception {
            assertThat(readAcrossATransfer(RealDatabasesCheckTests.postgres("weak_rc"), Connection.TRANSACTION_READ_COMMITTED))
                    .containsExactly(50, 100);
        }
    }

    @SerializableCheck(level = IsolationLevel.READ_ATOMIC)
    static class ReadAtomicTestCase {

        @org.junit.jupiter.api.Test
        void readAcross() throws Exception {
            assertThat(readAcrossATransfer(RealDatabasesCheckTests.postgres("weak_ra"), Connection.TRANSACTION_READ_COMMITTED))
                    .containsExactly(50, 100);
        }
    }

    @SerializableCheck(level = IsolationLevel.CAUSAL)
    static class CausalTestCase {

        @org.junit.jupiter.api.Test
        void readAcross() throws Exception {
            assertThat(readAcrossATransfer(RealDatabasesCheckTests.postgres("weak_cc"), Connection.TRANSACTION_REPEATABLE_READ))
                    .containsExactly(50, 50);
        }
    }

    @SerializableCheck(level = IsolationLevel.PREFIX)
    static class PrefixTestCase {

        @org.junit.jupiter.api.Test
        void readAcross() throws Exception {
            assertThat(readAcrossATransfer(RealDatabasesCheckTests.postgres("weak_pc"), Connection.TRANSACTION_REPEATABLE_READ))
                    .containsExactly(50, 50);
        }

        @org.junit.jupiter.api.Test
        void lostIncrement() throws Exception {
            assertThat(WeakLevelsRealDatabaseTests.lostIncrement(RealDatabasesCheckTests.postgres("weak_pc_lost")))
                    .isEqualTo(1);
        }
    }

    static class NotPrefixTestCase {

        @org.junit.jupiter.api.Test
        @SerializableCheck(level = IsolationLevel.PREFIX)
        void readAcross() throws Exception {
            assertThat(readAcrossATransfer(RealDatabasesCheckTests.postgres("weak_not_pc"),
                    Connection.TRANSACTION_READ_COMMITTED)).containsExactly(50, 100);
        }

        @org.junit.jupiter.api.Test
        @SerializableCheck(level = IsolationLevel.SNAPSHOT_ISOLATION)
        void lostIncrement() throws Exception {
            assertThat(WeakLevelsRealDatabaseTests.lostIncrement(RealDatabasesCheckTests.postgres("weak_not_si_lost")))
                    .isEqualTo(1);
        }
    }
}
