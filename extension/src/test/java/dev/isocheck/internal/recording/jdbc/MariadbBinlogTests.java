package dev.isocheck.internal.recording.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.AnomalyType;
import dev.isocheck.CheckResult;
import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.recording.RecordedHistory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The writes of a test on MariaDB taken from the server's row-based binary log: the lost update
 * at REPEATABLE READ caught with every column as the server wrote it, the same code with
 * {@code FOR UPDATE} passing, values of every common type read back as the driver reads them.
 */
class MariadbBinlogTests {

    private static MariadbDatabase mariadb;

    @BeforeAll
    static void server() throws Throwable {
        mariadb = MariadbDatabase.logged("binlog");
    }

    private static Connection open(DataSource ds, int isolation) throws Exception {
        Connection c = ds.getConnection();
        c.setTransactionIsolation(isolation);
        c.setAutoCommit(false);
        return c;
    }

    private static long balance(Connection c, String lock) throws Exception {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT balance FROM accounts WHERE id = 1" + lock)) {
            assertThat(rs.next()).isTrue();
            return rs.getLong(1);
        }
    }

    private static RecordedHistory twoDeposits(DataSource plain, int isolation, String lock) throws Exception {
        mariadb.run("DROP TABLE IF EXISTS accounts", "CREATE TABLE accounts (id INT PRIMARY KEY, balance BIGINT NOT NULL, note VARCHAR(20))",
                "INSERT INTO accounts VALUES (1, 100, 'x')");
        return RecordedRun.record("deposits", plain, ds -> {
            try (Connection a = open(ds, isolation); Connection b = open(ds, isolation)) {
                long seenByA = balance(a, lock);
                if (lock.isEmpty()) {
                    long seenByB = balance(b, lock);
                    try (Statement s = b.createStatement()) {
                        s.executeUpdate("UPDATE accounts SET balance = " + (seenByB + 10) + " WHERE id = 1");
                    }
                    b.commit();
                }
                try (Statement s = a.createStatement()) {
                    s.executeUpdate("UPDATE accounts SET balance = " + (seenByA + 20) + " WHERE id = 1");
                }
                a.commit();
                if (!lock.isEmpty()) {
                    long seenByB = balance(b, lock);
                    try (Statement s = b.createStatement()) {
                        s.executeUpdate("UPDATE accounts SET balance = " + (seenByB + 10) + " WHERE id = 1");
                    }
                    b.commit();
                }
            }
        });
    }

    @Test
    void theLostUpdateAtRepeatableReadIsCaughtFromTheBinaryLog() throws Exception {
        RecordedHistory recorded = twoDeposits(mariadb.dataSource(), Connection.TRANSACTION_REPEATABLE_READ, "");
        assertThat(recorded.writesFrom()).anySatisfy(line -> assertThat(line).contains("MariaDB's binary log"));
        assertThat(recorded.notModelled()).isEmpty();
        CheckResult result = RecordedRun.check(recorded, IsolationLevel.SERIALIZABLE);
        assertThat(result.isViolated()).as("%s", result.verdict()).isTrue();
        assertThat(RecordedRun.cycleTypes(result)).as("%s", result.explanationText().orElse("")).contains(AnomalyType.G2_ITEM);
        assertThat(result.explanationText().orElse("")).contains("lost update", "UPDATE accounts SET balance = 120 WHERE id = 1");
    }

    @Test
    void theSameDepositsWithForUpdatePass() throws Exception {
        RecordedHistory recorded = twoDeposits(mariadb.dataSource(), Connection.TRANSACTION_REPEATABLE_READ, " FOR UPDATE");
        assertThat(recorded.writesFrom()).anySatisfy(line -> assertThat(line).contains("MariaDB's binary log"));
        assertThat(recorded.notModelled()).isEmpty();
        assertThat(recorded.history().transactions()).extracting(Object::toString)
                .anySatisfy(t -> assertThat(t).contains("w(accounts/1, {\"balance\":130,\"id\":1,\"note\":\"x\"})"));
        assertThat(RecordedRun.check(recorded, IsolationLevel.SERIALIZABLE).isSatisfied()).isTrue();
    }

    /**
     * Every common column type, written by one transaction and read by the next: each value the
     * log gives, read back through a temporary table of the table's own columns, equals what the
     * driver reads from the table, so the history is checked whole and passes. Unsigned integers
     * at their maximum (the log keeps their bits), fractional seconds, a date before 1970, a
     * TIMESTAMP, 4-byte UTF-8, Latin-1, ENUM and SET by their members, BIT, JSON, NULLs. (A FLOAT
     * leaves its table out: below.)
     */
    @Test
    void valuesOfEveryCommonTypeFromTheLogEqualWhatTheDriverReads() throws Exception {
        mariadb.run("DROP TABLE IF EXISTS typed", "CREATE TABLE typed (id BIGINT UNSIGNED PRIMARY KEY, ti TINYINT, tu TINYINT UNSIGNED,"
                + " si SMALLINT UNSIGNED, mi MEDIUMINT, mu MEDIUMINT UNSIGNED, iu INT UNSIGNED, bi BIGINT, bo BOOLEAN,"
                + " de DECIMAL(12,3), old DATE, db DOUBLE, da DATE, dt DATETIME(6), ts TIMESTAMP(3) NULL, tm TIME(2), yr YEAR,"
                + " ch CHAR(5), vc VARCHAR(20) CHARACTER SET utf8mb4, la VARCHAR(10) CHARACTER SET latin1, bn BINARY(3),"
                + " vb VARBINARY(8), tx TEXT, bl BLOB, en ENUM('red','green','blue'), st SET('a','b','c'), bt BIT(5), js JSON)");
        RecordedHistory recorded = RecordedRun.record("types", mariadb.dataSource(), ds -> {
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(false);
                try (Statement s = c.createStatement()) {
                    s.executeUpdate("INSERT INTO typed VALUES (18446744073709551615, -128, 255, 65535, -8388608, 16777215, 4294967295,"
                            + " -9223372036854775808, TRUE, -123456789.125, '1960-05-01', 2.718281828459045, '2024-02-29',"
                            + " '2024-03-31 02:30:00.123456', '2024-10-27 01:30:00.5', '23:59:59.99', 2155, 'ab', 'h\u00e9llo \ud83d\ude00',"
                            + " 'caf\u00e9', x'000102', x'ff00', 'long text', x'deadbeef', 'green', 'a,c', b'10101', '{\"k\": [1, 2]}')");
                    s.executeUpdate("INSERT INTO typed (id) VALUES (1)");
                }
                c.commit();
                try (Statement s = c.createStatement()) {
                    s.executeUpdate("UPDATE typed SET vc = 'z', ts = '1970-01-01 05:30:01', tm = '00:00:00', yr = 1901 WHERE id = 1");
                }
                c.commit();
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM typed")) {
                    int rows = 0;
                    while (rs.next()) {
                        rows++;
                    }
                    assertThat(rows).isEqualTo(2);
                }
                c.commit();
            }
        });
        assertThat(recorded.notModelled()).isEmpty();
        assertThat(recorded.history().transactions()).extracting(Object::toString)
                .anySatisfy(t -> assertThat(t).contains("w(typed/18446744073709551615,", "\"tu\":255", "\"en\":\"green\"",
                        "\"st\":\"a,c\"", "\"vc\":\"h\u00e9llo \ud83d\ude00\""));
        CheckResult result = RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE);
        assertThat(result.isSatisfied()).as("%s\n%s", recorded.history().transactions(), result.explanationText().orElse("")).isTrue();
    }

    /**
     * Columns the application does not write: a generated column (VIRTUAL and STORED), an
     * INVISIBLE one with a default, an AUTO_INCREMENT key, a DEFAULT. The log gives every column
     * of the row as the server stored it, in auto-commit mode too, and the reads that follow
     * (SELECT * leaves the invisible column out, a read names it) see the same values.
     */
    @Test
    void columnsTheServerFillsComeFromTheLog() throws Exception {
        mariadb.run("DROP TABLE IF EXISTS filled", "CREATE TABLE filled (id INT AUTO_INCREMENT PRIMARY KEY, a INT NOT NULL,"
                + " doubled INT AS (a * 2) VIRTUAL, tripled INT AS (a * 3) STORED, hidden INT INVISIBLE DEFAULT 7,"
                + " note VARCHAR(10) DEFAULT 'new')");
        RecordedHistory recorded = RecordedRun.record("filled", mariadb.dataSource(), ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                s.executeUpdate("INSERT INTO filled (a) VALUES (5)");
                s.executeUpdate("UPDATE filled SET a = a + 1 WHERE note = 'new'");
                assertThat(RecorderScenarios.drain(s.executeQuery("SELECT * FROM filled"))).isOne();
                assertThat(RecorderScenarios.drain(s.executeQuery("SELECT id, hidden FROM filled WHERE id = 1"))).isOne();
            }
        });
        assertThat(recorded.notModelled()).isEmpty();
        assertThat(recorded.history().transactions()).extracting(Object::toString).anySatisfy(t -> assertThat(t)
                .contains("w(filled/1, {\"a\":6,\"doubled\":12,\"hidden\":7,\"id\":1,\"note\":\"new\",\"tripled\":18})"));
        assertThat(RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();
    }

    /**
     * The driver reads a TIMESTAMP in its session's time zone, and the log's are rendered in the
     * recorder's own session's: where the application changes its session's zone, a table with a
     * TIMESTAMP column is left out, saying why, and one without is checked as before.
     */
    @Test
    void aSessionTimeZoneOfTheApplicationsOwnLeavesTablesWithTimestampsOut() throws Exception {
        mariadb.run("DROP TABLE IF EXISTS stamps", "CREATE TABLE stamps (id INT PRIMARY KEY, at TIMESTAMP(3) NULL)",
                "DROP TABLE IF EXISTS plain", "CREATE TABLE plain (id INT PRIMARY KEY, n INT)");
        RecordedHistory recorded = RecordedRun.record("zones", mariadb.dataSource(), ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                s.execute("SET time_zone = '+05:30'");
                s.executeUpdate("INSERT INTO stamps VALUES (1, '2024-10-27 01:30:00.5')");
                s.executeUpdate("INSERT INTO plain VALUES (1, 1)");
                assertThat(RecorderScenarios.drain(s.executeQuery("SELECT * FROM stamps"))).isOne();
            }
        });
        assertThat(recorded.notModelled()).singleElement().satisfies(n -> {
            assertThat(n.subject()).startsWith("table stamps");
            assertThat(n.reason()).contains("time_zone");
        });
        assertThat(recorded.history().transactions()).extracting(Object::toString)
                .anySatisfy(t -> assertThat(t).contains("w(plain/1, {\"id\":1,\"n\":1})"));
        assertThat(RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();
    }

    /**
     * What the log encodes in a way the recorder does not turn back into SQL leaves its table out,
     * saying why, and never a guess: a TIME outside a day.
     */
    @Test
    void aValueTheLogDoesNotRenderLeavesItsTableOut() throws Exception {
        mariadb.run("DROP TABLE IF EXISTS spans", "CREATE TABLE spans (id INT PRIMARY KEY, t TIME)",
                "DROP TABLE IF EXISTS floats", "CREATE TABLE floats (id INT PRIMARY KEY, x FLOAT)");
        RecordedHistory recorded = RecordedRun.record("spans", mariadb.dataSource(), ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                s.executeUpdate("INSERT INTO spans VALUES (1, '-25:00:00')");
                s.executeUpdate("INSERT INTO floats VALUES (1, 1.2345678)");
            }
        });
        assertThat(recorded.notModelled()).hasSize(2).anySatisfy(n -> {
            assertThat(n.subject()).startsWith("table spans");
            assertThat(n.reason()).contains("TIME");
        }).anySatisfy(n -> {
            // Rounded to 6 digits as text, whole through server-side prepared statements.
            assertThat(n.subject()).startsWith("table floats");
            assertThat(n.reason()).contains("FLOAT");
        });
    }

    /**
     * What changes rows without the log listing them leaves its table out, saying so: a TRUNCATE,
     * and the rows a foreign key's ON DELETE CASCADE removes (InnoDB removes them itself; the log
     * holds only the parent's row). What a trigger writes is in the log, in its transaction.
     */
    @Test
    void truncateAndCascadesLeaveTheirTablesOutAndTriggersAreRecorded() throws Exception {
        mariadb.run("DROP TABLE IF EXISTS order_lines", "DROP TABLE IF EXISTS orders", "DROP TABLE IF EXISTS audit", "DROP TABLE IF EXISTS scratch",
                "CREATE TABLE orders (id INT PRIMARY KEY, total INT)",
                "CREATE TABLE order_lines (id INT PRIMARY KEY, order_id INT, FOREIGN KEY (order_id) REFERENCES orders (id) ON DELETE CASCADE)",
                "CREATE TABLE audit (id INT AUTO_INCREMENT PRIMARY KEY, what VARCHAR(20))",
                "CREATE TABLE scratch (id INT PRIMARY KEY)",
                "CREATE TRIGGER orders_audit AFTER INSERT ON orders FOR EACH ROW INSERT INTO audit (what) VALUES (CONCAT('order ', NEW.id))",
                "INSERT INTO scratch VALUES (1)");
        RecordedHistory recorded = RecordedRun.record("cascades", mariadb.dataSource(), ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                s.executeUpdate("INSERT INTO orders VALUES (1, 10)");
                s.executeUpdate("INSERT INTO order_lines VALUES (1, 1), (2, 1)");
                s.executeUpdate("DELETE FROM orders WHERE id = 1");
                assertThat(RecorderScenarios.drain(s.executeQuery("SELECT * FROM order_lines"))).isZero();
                s.execute("TRUNCATE TABLE scratch");
                assertThat(RecorderScenarios.drain(s.executeQuery("SELECT * FROM scratch"))).isZero();
            }
        });
        assertThat(recorded.notModelled()).extracting(n -> n.subject().split(" ")[1]).contains("order_lines", "scratch")
                .doesNotContain("orders", "audit");
        assertThat(recorded.notModelled()).filteredOn(n -> n.subject().startsWith("table order_lines"))
                .anySatisfy(n -> assertThat(n.reason()).contains("cascade"));
        assertThat(recorded.history().transactions()).extracting(Object::toString)
                .anySatisfy(t -> assertThat(t).contains("w(orders/1, {\"id\":1,\"total\":10})", "w(audit/1, {\"id\":1,\"what\":\"order 1\"})"));
        assertThat(RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();
    }

    /**
     * The log is the server's: rows another database's tables of the same names hold, written by
     * another test's connections meanwhile, are not this test's.
     */
    @Test
    void anotherDatabasesWritesAreNotTheTests() throws Throwable {
        MariadbDatabase other = MariadbDatabase.logged("binlog_other");
        for (MariadbDatabase db : new MariadbDatabase[] {mariadb, other}) {
            db.run("DROP TABLE IF EXISTS shared", "CREATE TABLE shared (id INT PRIMARY KEY, v INT)", "INSERT INTO shared VALUES (1, 0)");
        }
        RecordedHistory recorded = RecordedRun.record("other database", mariadb.dataSource(), ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                s.executeUpdate("UPDATE shared SET v = 1 WHERE id = 1");
                other.run("UPDATE shared SET v = 7 WHERE id = 1");
                try (ResultSet rs = s.executeQuery("SELECT v FROM shared WHERE id = 1")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).isOne();
                }
            }
        });
        assertThat(recorded.notModelled()).isEmpty();
        assertThat(recorded.history().transactions()).extracting(Object::toString).noneSatisfy(t -> assertThat(t).contains("\"v\":7"));
        assertThat(RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();
    }

    /**
     * Where the recorder cannot read the log, the writes come from the statements and the report
     * says why: a data source that hands out neither its password nor its URL, until the
     * password is configured ({@code isocheck.binlog.password}); a user without the right to read
     * the log.
     */
    @Test
    void withoutTheLogsPasswordOrRightTheWritesComeFromTheStatementsSayingWhy() throws Exception {
        mariadb.run("DROP TABLE IF EXISTS plain", "CREATE TABLE plain (id INT PRIMARY KEY, n INT)");
        DataSource real = mariadb.dataSource();
        DataSource opaque = new OpaqueDataSource(real);
        RecordedHistory unknown = RecordedRun.record("no password", opaque, ds -> insert(ds, 1));
        assertThat(unknown.writesFrom()).singleElement().asString()
                .contains("from the statements", "Access denied", "isocheck.binlog.password");

        dev.isocheck.internal.recording.Recording configured = new dev.isocheck.internal.recording.Recording("configured");
        configured.logAccount(new dev.isocheck.internal.recording.Recording.LogAccount(null, mariadb.password()));
        try (dev.isocheck.internal.recording.Recording.Binding ignored = configured.bind()) {
            insert(dev.isocheck.Isocheck.record(opaque), 2);
        }
        RecordedHistory withPassword = configured.finish();
        assertThat(withPassword.writesFrom()).singleElement().asString().contains("MariaDB's binary log");
        assertThat(withPassword.history().transactions()).extracting(Object::toString)
                .anySatisfy(t -> assertThat(t).contains("w(plain/2, {\"id\":2,\"n\":2})"));

        mariadb.run("CREATE USER IF NOT EXISTS 'norepl'@'%' IDENTIFIED BY 'norepl'", "GRANT ALL ON " + mariadb.name() + ".* TO 'norepl'@'%'");
        RecordedHistory noRight = RecordedRun.record("no right", mariadb.as("norepl", "norepl").dataSource(), ds -> insert(ds, 3));
        assertThat(noRight.writesFrom()).singleElement().asString().contains("from the statements");
        assertThat(noRight.history().transactions()).extracting(Object::toString)
                .anySatisfy(t -> assertThat(t).contains("w(plain/3, {\"id\":3,\"n\":3})"));
    }

    private static void insert(DataSource ds, int id) throws Exception {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO plain VALUES (" + id + ", " + id + ")");
        }
    }

    /** A data source that tells nothing of itself: connections only, as a wrapper of an application's own may. */
    private static final class OpaqueDataSource implements DataSource {
        private final DataSource real;

        OpaqueDataSource(DataSource real) {
            this.real = real;
        }

        @Override
        public Connection getConnection() throws java.sql.SQLException {
            return real.getConnection();
        }

        @Override
        public Connection getConnection(String user, String pass) throws java.sql.SQLException {
            return real.getConnection(user, pass);
        }

        @Override
        public java.io.PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(java.io.PrintWriter out) {
        }

        @Override
        public void setLoginTimeout(int seconds) {
        }

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public java.util.logging.Logger getParentLogger() {
            return java.util.logging.Logger.getGlobal();
        }

        @Override
        public <T> T unwrap(Class<T> type) throws java.sql.SQLException {
            throw new java.sql.SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> type) {
            return false;
        }
    }
}
