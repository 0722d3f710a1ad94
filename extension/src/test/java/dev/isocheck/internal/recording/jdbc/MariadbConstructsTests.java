package dev.isocheck.internal.recording.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.recording.RecordedHistory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a recorder can trip over on MariaDB, each construct run on a plain and a recorded database
 * with what the application observed compared, then a serial run that must pass with what it
 * changed unseen left out: triggers, cascading foreign keys, partitions, a stored function that
 * writes, a user who may write but not read, statements ending in comments of MariaDB's kinds.
 */
class MariadbConstructsTests {

    private static MariadbDatabase plain;
    private static MariadbDatabase recorded;

    @BeforeAll
    static void servers() throws Throwable {
        plain = MariadbDatabase.database("constructs_plain");
        recorded = MariadbDatabase.database("constructs_recorded");
    }

    /** Runs {@code setUp} on both databases, then {@code work} on the plain and the recorded one; what the recorded run observed must equal the plain's. */
    private static RecordedHistory same(String[] setUp, Work work) throws Exception {
        plain.run(setUp);
        recorded.run(setUp);
        List<String> expected = new ArrayList<>();
        work.run(plain.dataSource(), expected);
        List<String> actual = new ArrayList<>();
        RecordedHistory history = RecordedRun.record("construct", recorded.dataSource(), ds -> work.run(ds, actual));
        assertThat(actual).containsExactlyElementsOf(expected);
        assertThat(RecordedRun.check(history, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied())
                .as("%s", history.history().transactions()).isTrue();
        return history;
    }

    @FunctionalInterface
    interface Work {
        void run(DataSource ds, List<String> seen) throws Exception;
    }

    /** Runs each statement in a transaction of its own, then reads {@code tables}; notes counts, rows and errors. */
    private static Work statements(List<String> tables, String... sql) {
        return (ds, seen) -> {
            try (Connection c = ds.getConnection()) {
                for (String table : tables) {
                    seen.add(table + " " + rows(c, table));
                }
                c.setAutoCommit(false);
                for (String statement : sql) {
                    try (Statement s = c.createStatement()) {
                        seen.add(statement + " -> " + s.executeUpdate(statement));
                        c.commit();
                    } catch (SQLException e) {
                        seen.add(statement + " -> " + e.getErrorCode() + " " + e.getSQLState());
                        c.rollback();
                    }
                }
                c.setAutoCommit(true);
                for (String table : tables) {
                    seen.add(table + " " + rows(c, table));
                }
            }
        };
    }

    private static String rows(Connection c, String table) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM " + table)) {
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    row.append(rs.getString(i)).append(' ');
                }
                rows.add(row.toString().strip());
            }
        }
        java.util.Collections.sort(rows);
        return rows.toString();
    }

    @Test
    void aTriggerWritingAnotherTableLeavesItsTableOut() throws Exception {
        RecordedHistory history = same(new String[] {"DROP TABLE IF EXISTS audit", "DROP TABLE IF EXISTS orders",
                "CREATE TABLE orders (id INT PRIMARY KEY, qty INT NOT NULL)", "CREATE TABLE audit (id INT AUTO_INCREMENT PRIMARY KEY, order_id INT)",
                "CREATE TRIGGER orders_audit AFTER INSERT ON orders FOR EACH ROW INSERT INTO audit (order_id) VALUES (NEW.id)"},
                statements(List.of("orders", "audit"), "INSERT INTO orders VALUES (1, 1)", "UPDATE orders SET qty = 2 WHERE id = 1",
                        "DELETE FROM orders WHERE id = 1"));
        assertThat(history.notModelled()).anySatisfy(n -> assertThat(n.reason()).contains("triggers"));
    }

    @Test
    void aCascadingForeignKeyLeavesTheChildTableOut() throws Exception {
        RecordedHistory history = same(new String[] {"DROP TABLE IF EXISTS cart_lines", "DROP TABLE IF EXISTS carts",
                "CREATE TABLE carts (id INT PRIMARY KEY)", "CREATE TABLE cart_lines (id INT PRIMARY KEY, cart INT,"
                        + " FOREIGN KEY (cart) REFERENCES carts (id) ON DELETE CASCADE)",
                "INSERT INTO carts VALUES (1)", "INSERT INTO cart_lines VALUES (10, 1)"},
                statements(List.of("carts", "cart_lines"), "DELETE FROM carts WHERE id = 1"));
        assertThat(history.notModelled()).anySatisfy(n -> assertThat(n.subject()).contains("cart_lines"));
    }

    @Test
    void aPartitionedTableIsOneTable() throws Exception {
        RecordedHistory history = same(new String[] {"DROP TABLE IF EXISTS readings",
                "CREATE TABLE readings (id INT PRIMARY KEY, v INT) PARTITION BY RANGE (id)"
                        + " (PARTITION low VALUES LESS THAN (100), PARTITION high VALUES LESS THAN MAXVALUE)"},
                statements(List.of("readings"), "INSERT INTO readings VALUES (1, 1), (200, 2)",
                        "UPDATE readings SET v = 3 WHERE id = 200", "DELETE FROM readings WHERE id = 1"));
        assertThat(history.notModelled()).isEmpty();
    }

    @Test
    void statementsEndingInCommentsOfEveryKindAreRecorded() throws Exception {
        RecordedHistory history = same(new String[] {"DROP TABLE IF EXISTS notes", "CREATE TABLE notes (id INT PRIMARY KEY, body VARCHAR(20))"},
                statements(List.of("notes"), "INSERT INTO notes VALUES (1, 'a') -- dash", "INSERT INTO notes VALUES (2, 'b') # hash",
                        "INSERT INTO notes VALUES (3, 'c') /* block */", "UPDATE notes SET body = 'z' WHERE id = 1 -- dash",
                        "DELETE FROM notes WHERE id = 2 # hash", "INSERT INTO notes VALUES (4, 'd');"));
        // A # comment is MySQL's alone, which the SQL parser does not read: every table is left out,
        // never guessed at; a statement ending in a semicolon cannot be appended to.
        assertThat(history.notModelled()).extracting(n -> n.subject()).containsExactlyInAnyOrder(
                "every table (statement: INSERT INTO notes VALUES (2, 'b') # hash)",
                "table notes (statement: INSERT INTO notes VALUES (4, 'd');)");
    }

    /**
     * An executable comment runs on MySQL and MariaDB but is a comment to the SQL parser: read as
     * the parser sees it, this DELETE would have no WHERE, and its rows would claim to be every row
     * of the table. Every table is left out instead, and the application sees the same.
     */
    @Test
    void anExecutableCommentLeavesEveryTableOut() throws Exception {
        RecordedHistory history = same(new String[] {"DROP TABLE IF EXISTS notes", "CREATE TABLE notes (id INT PRIMARY KEY, body VARCHAR(20))",
                        "INSERT INTO notes VALUES (1, 'a'), (2, 'b')"},
                statements(List.of("notes"), "DELETE FROM notes /*! WHERE id = 2 */",
                        "INSERT INTO notes VALUES (1, 'c') /*!40000 ON DUPLICATE KEY UPDATE body = 'c' */"));
        assertThat(history.notModelled()).extracting(n -> n.subject()).contains(
                "every table (statement: DELETE FROM notes /*! WHERE id = 2 */)");
    }

    /** A stored function that writes, called from a SELECT: it may change any table, so every table is left out. */
    @Test
    void aFunctionThatWritesLeavesEveryTableOut() throws Exception {
        RecordedHistory history = same(new String[] {"DROP FUNCTION IF EXISTS bump", "DROP TABLE IF EXISTS bumps",
                "CREATE TABLE bumps (id INT PRIMARY KEY, n INT NOT NULL)", "INSERT INTO bumps VALUES (1, 0)",
                "CREATE FUNCTION bump() RETURNS INT MODIFIES SQL DATA BEGIN UPDATE bumps SET n = n + 1 WHERE id = 1; RETURN 1; END"},
                (ds, seen) -> {
                    try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                        seen.add("bumps " + rows(c, "bumps"));
                        try (ResultSet rs = s.executeQuery("SELECT bump()")) {
                            rs.next();
                            seen.add("bump " + rs.getInt(1));
                        }
                        seen.add("bumps " + rows(c, "bumps"));
                    }
                });
        assertThat(history.notModelled()).anySatisfy(n -> assertThat(n.subject()).startsWith("every table"));
    }

    /**
     * A user who may insert, update and delete, but read the key alone, on a server that checks
     * privileges: RETURNING and the read back of an UPDATE would need the right to read every
     * column, so its writes are sent as written and the table is left out. The application sees
     * its statements succeed (and its SELECT * fail) as they would.
     */
    @Test
    void aUserWhoMayWriteButNotReadSeesItsWritesSucceed() throws Throwable {
        List<MariadbDatabase> writers = new ArrayList<>();
        for (String name : List.of("writer_plain", "writer_recorded")) {
            MariadbDatabase database = MariadbDatabase.secured(name);
            database.run("CREATE TABLE drops (id INT PRIMARY KEY, v INT)", "INSERT INTO drops VALUES (5, 5)",
                    "CREATE USER IF NOT EXISTS 'writer'@'%' IDENTIFIED BY 'w'",
                    "GRANT INSERT, UPDATE, DELETE, SELECT (id) ON " + name + ".drops TO 'writer'@'%'");
            writers.add(database.as("writer", "w"));
        }
        Work work = (ds, seen) -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                for (boolean transaction : new boolean[] {false, true}) {
                    c.setAutoCommit(!transaction);
                    for (String sql : List.of("INSERT INTO drops VALUES (1, 1)", "UPDATE drops SET v = 2 WHERE id = 5",
                            "DELETE FROM drops WHERE id = 1", "SELECT * FROM drops")) {
                        try {
                            seen.add(sql + " -> " + s.execute(sql) + " " + s.getUpdateCount());
                        } catch (SQLException e) {
                            seen.add(sql + " -> " + e.getErrorCode() + " " + e.getSQLState());
                        }
                    }
                    if (transaction) {
                        c.commit();
                    }
                }
            }
        };
        List<String> expected = new ArrayList<>();
        work.run(writers.get(0).dataSource(), expected);
        List<String> actual = new ArrayList<>();
        RecordedHistory history = RecordedRun.record("writer", writers.get(1).dataSource(), ds -> work.run(ds, actual));
        assertThat(actual).containsExactlyElementsOf(expected);
        assertThat(expected).contains("INSERT INTO drops VALUES (1, 1) -> false 1", "UPDATE drops SET v = 2 WHERE id = 5 -> false 1",
                "DELETE FROM drops WHERE id = 1 -> false 1").anyMatch(seen -> seen.startsWith("SELECT * FROM drops -> 114"));
        assertThat(history.notModelled()).extracting(n -> n.subject().split(" ")[1]).containsOnly("drops");
        assertThat(RecordedRun.check(history, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();
    }
}
