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
 * {@code CAUSAL}.
 */
class WeakLevelsRealDatabaseTests {

    @TempDir
    Path reports;

    @Test
    void readCommittedHoldsOnPostgresReadCommitted() {
        EngineExecutionResults results = run(ReadCommittedTestCase.class);
        assertThat(results.testEvents().failed().list()).extracting(e -> e.getRequiredPayload(TestExecutionResult.class)
                .getThrowable().map(Throwable::toString).orElse("")).isEmpty();
        assertThat(results.testEvents().succeeded().count()).isEqualTo(1);
    }

    @Test
    void postgresReadCommittedLetsATransactionSeeHalfATransferAndReadAtomicCatchesIt() {
        EngineExecutionResults results = run(ReadAtomicTestCase.class);
        List<Event> failed = results.testEvents().failed().list();
        assertThat(failed).hasSize(1);
        Throwable failure = failed.get(0).getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();
        assertThat(failure).isInstanceOf(IsolationViolationError.class);
        assertThat(((IsolationViolationError) failure).level()).isEqualTo(IsolationLevel.READ_ATOMIC);
        assertThat(failure.getMessage().replaceAll("\\s+", " ")).contains("Read Atomic", "accounts/2", "accounts/1");
    }

    @Test
    void repeatableReadReadsOneSnapshotAndIsCausal() {
        EngineExecutionResults results = run(CausalTestCase.class);
        assertThat(results.testEvents().failed().list()).extracting(e -> e.getRequiredPayload(TestExecutionResult.class)
                .getThrowable().map(Throwable::toString).orElse("")).isEmpty();
        assertThat(results.testEvents().succeeded().count()).isEqualTo(1);
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

    private static int balance(Connection c, int id) throws SQLException {
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
}
