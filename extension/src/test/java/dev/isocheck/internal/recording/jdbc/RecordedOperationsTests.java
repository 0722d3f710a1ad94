package dev.isocheck.internal.recording.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.AnomalyType;
import dev.isocheck.CheckResult;
import dev.isocheck.IsocheckDriver;
import dev.isocheck.IsolationLevel;
import dev.isocheck.history.History;
import dev.isocheck.history.SqlStatement;
import dev.isocheck.history.Transaction;
import dev.isocheck.internal.recording.RecordedHistory;
import dev.isocheck.internal.recording.Recording;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What each kind of statement becomes in the history, on H2. */
class RecordedOperationsTests {

    private final DataSource h2 = H2RecorderTests.h2("operations");

    @BeforeEach
    void tables() throws SQLException {
        try (Connection c = h2.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS cards");
            s.execute("DROP TABLE IF EXISTS accounts");
            s.execute("DROP TABLE IF EXISTS logbook");
            s.execute("CREATE TABLE accounts (id INT PRIMARY KEY, owner VARCHAR(20), balance INT NOT NULL, doc CLOB)");
            s.execute("INSERT INTO accounts (id, owner, balance, doc) VALUES (1, 'ann', 10, NULL), (2, 'ben', 20, 'x'), (3, 'cid', 30, 'y')");
            s.execute("CREATE TABLE logbook (line VARCHAR(20))");
        }
    }

    private static List<String> ops(RecordedHistory recorded) {
        return recorded.history().transactions().stream().map(Transaction::toString).toList();
    }

    private static void query(Connection c, String sql, int rowsToRead) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            for (int i = 0; i < rowsToRead && rs.next(); i++) {
                rs.getObject(1);
            }
        }
    }

    @Test
    void autoCommitStatementsAreOneTransactionEach() throws Exception {
        RecordedHistory recorded = RecordedRun.record("reads", h2, ds -> {
            try (Connection c = ds.getConnection()) {
                query(c, "SELECT balance FROM accounts WHERE id = 2", 10);
                query(c, "SELECT owner FROM accounts WHERE id = 9", 10);
                query(c, "SELECT * FROM accounts WHERE balance >= 20", 10);
                query(c, "SELECT id, balance FROM accounts WHERE balance >= 20", 1);
                query(c, "SELECT a.id FROM accounts a JOIN accounts b ON a.id = b.id", 10);
                query(c, "SELECT owner FROM accounts WHERE owner = 'ann'", 10);
                query(c, "SELECT count(*) FROM accounts", 10);
                query(c, "SELECT owner FROM accounts WHERE id = 1 OFFSET 1 ROWS", 10);
            }
        });

        assertThat(ops(recorded)).containsExactly(
                "T1: r(accounts/2, {\"balance\":20})",
                "T2: r(accounts/9, null)",
                "T3: " + predicate(recorded, 2),
                "T4: r(accounts/2, {\"balance\":20,\"id\":2})",
                "T5: r(accounts/1, {\"balance\":10,\"doc\":null,\"id\":1,\"owner\":\"ann\"})"
                        + " r(accounts/2, {\"balance\":20,\"id\":2,\"owner\":\"ben\"}) r(accounts/3, {\"balance\":30,\"id\":3,\"owner\":\"cid\"})"
                        + " r(accounts/1, {\"balance\":10,\"doc\":null,\"id\":1,\"owner\":\"ann\"})"
                        + " r(accounts/2, {\"balance\":20,\"id\":2,\"owner\":\"ben\"}) r(accounts/3, {\"balance\":30,\"id\":3,\"owner\":\"cid\"})",
                "T6: predicate(accounts where owner = 'ann') -> [accounts/1={\"id\":1,\"owner\":\"ann\"}]",
                "T7: predicate(accounts where TRUE) -> [accounts/1={\"id\":1}, accounts/2={\"id\":2}, accounts/3={\"id\":3}]",
                "T8: ");
        // The join's rows are read (the second alias's joined on its key), its first table's as the
        // rows returned; the OFFSET's WHERE is not checked; both say so. The point lookups need no
        // predicate, and a result not read to its end is the application's choice.
        assertThat(recorded.notModelled()).extracting(Object::toString).containsExactly(
                "the reads of accounts in a join: checked as the rows returned, not as a predicate (a row the join could"
                        + " have matched and did not, a phantom, goes unseen)",
                "the reads of accounts WHERE id = 1: checked as the rows returned, not as a predicate (a phantom goes unseen):"
                        + " LIMIT, OFFSET or FETCH may leave rows out");
        assertThat(ops(recorded).get(2)).contains("balance >= 20").contains("accounts/2").contains("accounts/3")
                .as("a CLOB has no comparable value: left out of the row").doesNotContain("doc");
        assertThat(ops(recorded)).as("but NULL is NULL").allSatisfy(t -> assertThat(t).doesNotContain("\"doc\":\"x"));
    }

    private static String predicate(RecordedHistory recorded, int transaction) {
        return recorded.history().transactions().get(transaction).predicate(0).toString();
    }

    @Test
    void transactionsKeepTheirSessionThreadStatementsAndParameters() throws Exception {
        RecordedHistory recorded = RecordedRun.record("origin", h2, ds -> {
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(false);
                try (PreparedStatement s = c.prepareStatement("UPDATE accounts SET balance = balance - ? WHERE id = ?")) {
                    s.setInt(1, 5);
                    s.setInt(2, 1);
                    s.executeUpdate();
                }
                c.commit();
            }
        });

        Transaction t = recorded.history().transactions().get(0);
        assertThat(t.thread()).contains(Thread.currentThread().getName());
        assertThat(recorded.history().sessionOf(t).name()).startsWith("connection-");
        assertThat(t.statements()).containsExactly(SqlStatement.of("UPDATE accounts SET balance = balance - ? WHERE id = ?", List.of("5", "1")));
        assertThat(t.toString()).isEqualTo("T1: r(accounts/1, {\"id\":1}) w(accounts/1, {\"balance\":5,\"doc\":null,\"id\":1,\"owner\":\"ann\"})");
        assertThat(t.statementOf(0)).hasValue(0);
        assertThat(t.endTime()).isGreaterThan(t.startTime());
    }

    @Test
    void parametersAreShownAsTheyWereBoundWhenTheStatementRan() throws Exception {
        try (Connection c = h2.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS events");
            s.execute("CREATE TABLE events (id INT PRIMARY KEY, at TIMESTAMP, note VARCHAR(20))");
        }
        String insert = "INSERT INTO events (id, at, note) VALUES (?, ?, ?)";
        RecordedHistory recorded = RecordedRun.record("parameters", h2, ds -> {
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(false);
                try (PreparedStatement s = c.prepareStatement(insert)) {
                    java.sql.Timestamp at = java.sql.Timestamp.valueOf("2026-01-02 03:04:05");
                    s.setInt(1, 1);
                    s.setTimestamp(2, at);
                    s.setNull(3, java.sql.Types.VARCHAR);
                    s.executeUpdate();
                    // Changed after it ran: the first statement still shows the value it was sent with;
                    // the second, bound to the same object, the value it has now.
                    at.setTime(java.sql.Timestamp.valueOf("2027-05-06 07:08:09").getTime());
                    s.setInt(1, 2);
                    s.setString(3, "x");
                    s.executeUpdate();
                    s.clearParameters();
                    s.setInt(1, 3);
                    s.setNull(2, java.sql.Types.TIMESTAMP);
                    s.setString(3, "y");
                    s.executeUpdate();
                }
                c.commit();
            }
        });

        assertThat(recorded.history().transactions().get(0).statements()).containsExactly(
                SqlStatement.of(insert, List.of("1", "2026-01-02 03:04:05.0", "NULL")),
                SqlStatement.of(insert, List.of("2", "2027-05-06 07:08:09.0", "x")),
                SqlStatement.of(insert, List.of("3", "NULL", "y")));
    }

    @Test
    void tablesWithoutPrimaryKeysAndUnanalysedStatementsAreLeftOut() throws Exception {
        RecordedHistory recorded = RecordedRun.record("left out", h2, ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                s.executeUpdate("INSERT INTO logbook VALUES ('hello')");
                s.executeUpdate("UPDATE accounts SET balance = 0 WHERE id = 3");
                s.execute("TRUNCATE TABLE logbook");
            }
        });

        assertThat(recorded.notModelled()).extracting(n -> n.subject()).containsExactly(
                "table logbook (statement: INSERT INTO logbook VALUES ('hello'))");
        assertThat(recorded.notModelled().get(0).reason()).contains("no primary key");
        // The CLOB is left out of the row written, as it is out of every read.
        assertThat(ops(recorded)).containsExactly("T1: ", "T2: r(accounts/3, {\"id\":3}) w(accounts/3, {\"balance\":0,\"id\":3,\"owner\":\"cid\"})", "T3: ");
    }

    @Test
    void aStoredProcedureLeavesEveryTableOut() throws Exception {
        RecordedHistory recorded = RecordedRun.record("call", h2, ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                query(c, "SELECT balance FROM accounts WHERE id = 2", 10);
                s.execute("CALL 1");
            }
        });

        assertThat(recorded.notModelled()).singleElement().satisfies(n -> assertThat(n.subject()).startsWith("every table"));
        assertThat(ops(recorded)).containsExactly("T1: ", "T2: ");
    }

    @Test
    void aPhantomIsCaughtThroughPredicateReads() throws Exception {
        RecordedHistory recorded = RecordedRun.record("phantom", h2, ds -> {
            try (Connection a = ds.getConnection(); Connection b = ds.getConnection()) {
                for (Connection c : List.of(a, b)) {
                    c.setAutoCommit(false);
                    c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
                }
                // Each inserts an account only if the total stays under 100, which both see.
                query(a, "SELECT * FROM accounts WHERE balance > 0", 100);
                query(b, "SELECT * FROM accounts WHERE balance > 0", 100);
                try (Statement s = a.createStatement()) {
                    s.executeUpdate("INSERT INTO accounts (id, owner, balance) VALUES (4, 'dan', 30)");
                }
                try (Statement s = b.createStatement()) {
                    s.executeUpdate("INSERT INTO accounts (id, owner, balance) VALUES (5, 'eve', 30)");
                }
                a.commit();
                b.commit();
            }
        });

        CheckResult result = RecordedRun.check(recorded, IsolationLevel.SERIALIZABLE);
        assertThat(result.isViolated()).as("%s", result.verdict()).isTrue();
        assertThat(RecordedRun.cycleTypes(result)).containsExactly(AnomalyType.G2);
    }

    @Test
    void h2SerializableLetsWriteSkewCommitAndItIsCaught() throws Exception {
        H2RecorderTests scenarios = new H2RecorderTests();
        scenarios.tables();
        RecordedHistory recorded = scenarios.writeSkew("h2 serializable", Connection.TRANSACTION_SERIALIZABLE);

        CheckResult result = RecordedRun.check(recorded, IsolationLevel.SERIALIZABLE);
        assertThat(result.isViolated()).isTrue();
        assertThat(RecordedRun.cycleTypes(result)).containsExactly(AnomalyType.G2_ITEM);
    }

    @Test
    void theJdbcUrlRecordsToo() throws Exception {
        Recording recording = new Recording("url");
        try (Recording.Binding ignored = recording.bind();
             Connection c = DriverManager.getConnection("jdbc:isocheck:h2:mem:operations");
             Statement s = c.createStatement()) {
            assertThat(s.executeUpdate("UPDATE accounts SET balance = 1 WHERE id = 1")).isEqualTo(1);
            assertThat(c.getMetaData().getConnection()).isSameAs(c);
            assertThat(s.getConnection()).isSameAs(c);
        }
        History history = recording.finish().history();
        assertThat(history.transactions()).singleElement().hasToString("T1: r(accounts/1, {\"id\":1}) w(accounts/1, {\"balance\":1,\"doc\":null,\"id\":1,\"owner\":\"ann\"})");
        assertThat(DriverManager.getDriver("jdbc:h2:mem:x")).isNotInstanceOf(IsocheckDriver.class);
        assertThat(DriverManager.getDriver("jdbc:isocheck:h2:mem:x")).isInstanceOf(IsocheckDriver.class);
        // One driver answers for the prefix: the public class, not its implementation as well.
        long claiming = 0;
        for (java.sql.Driver d : java.util.Collections.list(DriverManager.getDrivers())) {
            claiming += d.acceptsURL("jdbc:isocheck:h2:mem:x") ? 1 : 0;
        }
        assertThat(claiming).isEqualTo(1);
    }

    @Test
    void theDriverNamedByClassRecordsAsFrameworksUseIt() throws Exception {
        // What Spring Boot's spring.datasource.driver-class-name and HikariCP's driverClassName do:
        // load the class by name, instantiate it, and connect through it, bypassing DriverManager.
        java.sql.Driver driver = (java.sql.Driver) Class.forName("dev.isocheck.IsocheckDriver")
                .getDeclaredConstructor().newInstance();
        assertThat(driver.acceptsURL("jdbc:h2:mem:operations")).isFalse();
        assertThat(driver.connect("jdbc:h2:mem:operations", new java.util.Properties())).isNull();
        Recording recording = new Recording("by class name");
        try (Recording.Binding ignored = recording.bind();
             Connection c = driver.connect("jdbc:isocheck:h2:mem:operations", new java.util.Properties());
             Statement s = c.createStatement()) {
            assertThat(s.executeUpdate("UPDATE accounts SET balance = 2 WHERE id = 1")).isEqualTo(1);
        }
        assertThat(recording.finish().history().transactions()).singleElement()
                .hasToString("T1: r(accounts/1, {\"id\":1}) w(accounts/1, {\"balance\":2,\"doc\":null,\"id\":1,\"owner\":\"ann\"})");
    }

    /**
     * A thread bound to no test runs a transaction while two tests are in progress: it goes to
     * both, and so does what of it is not checked, so that neither passes in silence.
     */
    @Test
    void whatATransactionOfTwoTestsLeavesOutIsSaidInBoth() throws Exception {
        Recording first = new Recording("first");
        Recording second = new Recording("second");
        DataSource recorded = dev.isocheck.Isocheck.record(h2);
        try (Connection c = recorded.getConnection()) {
            query(c, "SELECT balance FROM accounts WHERE LOWER(owner) = 'ann'", 10);
        }
        for (Recording recording : List.of(first, second)) {
            RecordedHistory history = recording.finish();
            assertThat(history.history().transactions()).as(recording.name()).hasSize(1);
            assertThat(history.notModelled()).as(recording.name())
                    .anyMatch(n -> n.subject().startsWith("the reads of accounts WHERE LOWER(owner)"));
        }
    }

    @Test
    void withoutARecordingNothingIsKept() throws Exception {
        DataSource recorded = dev.isocheck.Isocheck.record(h2);
        try (Connection c = recorded.getConnection(); Statement s = c.createStatement()) {
            assertThat(s.executeUpdate("UPDATE accounts SET balance = 1 WHERE id = 1")).isEqualTo(1);
        }
        Recording later = new Recording("later");
        assertThat(later.finish().history().transactions()).isEmpty();
    }

    @Test
    void writesWithUnseenEffectsLeaveTheTablesTheyChangeOut() throws Exception {
        try (Connection c = h2.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE cards (id INT PRIMARY KEY, account INT REFERENCES accounts (id) ON DELETE CASCADE)");
            s.execute("INSERT INTO cards VALUES (7, 2)");
        }
        RecordedHistory recorded = RecordedRun.record("unseen effects", h2, ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                query(c, "SELECT * FROM cards WHERE id = 7", 10);
                // Moves the row to another key: the removal of accounts/1 is not seen.
                s.executeUpdate("UPDATE accounts SET id = 10 WHERE id = 1");
                // Deletes the card through the cascade.
                s.executeUpdate("DELETE FROM accounts WHERE id = 2");
            }
        });

        assertThat(recorded.notModelled()).extracting(n -> n.subject().split(" ")[1]).containsExactlyInAnyOrder("accounts", "cards");
        assertThat(ops(recorded)).containsExactly("T1: ", "T2: ", "T3: ");
    }

    @Test
    void ddlThatCommitsImplicitlyMakesARollbacksOutcomeUnknown() throws Exception {
        RecordedHistory recorded = RecordedRun.record("implicit commit", h2, ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                c.setAutoCommit(false);
                s.executeUpdate("UPDATE accounts SET balance = 0 WHERE id = 1");
                // H2 commits the update before it creates the table: the rollback undoes nothing.
                s.execute("CREATE TABLE IF NOT EXISTS scratch (id INT PRIMARY KEY)");
                c.rollback();
            }
            try (Connection c = h2.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT balance FROM accounts WHERE id = 1")) {
                rs.next();
                assertThat(rs.getInt(1)).isZero();
            }
        });

        assertThat(recorded.notModelled()).singleElement().satisfies(n -> assertThat(n.reason()).contains("unknown"));
    }

    @Test
    void oneTableNamedTwoWaysIsOneTableAndTwoTablesOfOneNameAreLeftOut() throws Exception {
        RecordedHistory recorded = RecordedRun.record("names", h2, ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                s.executeUpdate("UPDATE PUBLIC.\"ACCOUNTS\" SET balance = 7 WHERE id = 1");
                query(c, "SELECT balance FROM Accounts WHERE id = 1", 10);
            }
        });
        assertThat(ops(recorded)).containsExactly(
                "T1: r(accounts/1, {\"id\":1}) w(accounts/1, {\"balance\":7,\"doc\":null,\"id\":1,\"owner\":\"ann\"})", "T2: r(accounts/1, {\"balance\":7})");

        try (Connection c = h2.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA IF NOT EXISTS other");
            s.execute("CREATE TABLE IF NOT EXISTS other.accounts (id INT PRIMARY KEY, balance INT)");
        }
        try {
            RecordedHistory ambiguous = RecordedRun.record("ambiguous", h2, ds -> {
                try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                    s.executeUpdate("UPDATE accounts SET balance = 8 WHERE id = 1");
                }
            });
            assertThat(ambiguous.notModelled()).anySatisfy(n -> assertThat(n.reason()).contains("several tables"));
        } finally {
            try (Connection c = h2.getConnection(); Statement s = c.createStatement()) {
                s.execute("DROP TABLE other.accounts");
            }
        }
    }
}
