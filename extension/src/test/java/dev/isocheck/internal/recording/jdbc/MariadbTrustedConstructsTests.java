package dev.isocheck.internal.recording.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.recording.RecordedHistory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link TrustedConstructs} on a real MariaDB, where the writes come from the statements (RETURNING,
 * reads back by key, hidden aggregate arrays): a trigger, cascades two levels deep, TRUNCATE, a
 * stored function that writes, keys written as literals the server reads otherwise, and MariaDB's
 * own forms (ON DUPLICATE KEY UPDATE, REPLACE, a multi-table UPDATE, generated keys and UPDATEs in
 * auto-commit mode, rows listed by key, batches). Each runs serially with no false alarm and what
 * was left out listed, and (but TRUNCATE) interleaved in a reading transaction, caught or listed.
 */
class MariadbTrustedConstructsTests extends StatementsTrustedConstructs {

    private static MariadbDatabase mariadb;

    @BeforeAll
    static void server() throws Throwable {
        mariadb = MariadbDatabase.database("constructs");
    }

    @Override
    TestDatabase database() {
        return mariadb;
    }

    /** What a test adds to the schema, set up again with it after an interleaved run. */
    private String[] added = {};

    private void add(String... sql) throws SQLException {
        added = sql;
        database().run(sql);
    }

    @BeforeEach
    void schema() throws SQLException {
        database().run("DROP TRIGGER IF EXISTS acct_audit", "DROP FUNCTION IF EXISTS bump",
                "DROP TABLE IF EXISTS grandchild, child, parent, acct, audit, keyed_char, keyed_int, tickets",
                "CREATE TABLE acct (id INT PRIMARY KEY, balance INT NOT NULL)",
                "INSERT INTO acct VALUES (1, 100), (2, 100)",
                "CREATE TABLE audit (id INT AUTO_INCREMENT PRIMARY KEY, acct INT, delta INT)",
                "CREATE TABLE parent (id INT PRIMARY KEY)",
                "CREATE TABLE child (id INT PRIMARY KEY, parent INT, FOREIGN KEY (parent) REFERENCES parent (id) ON DELETE CASCADE)",
                "CREATE TABLE grandchild (id INT PRIMARY KEY, child INT, FOREIGN KEY (child) REFERENCES child (id) ON DELETE CASCADE)",
                "INSERT INTO parent VALUES (1), (2)",
                "INSERT INTO child VALUES (10, 1), (20, 2)",
                "INSERT INTO grandchild VALUES (100, 10), (200, 20)",
                "CREATE TABLE keyed_char (k CHAR(4) PRIMARY KEY, v INT)",
                "INSERT INTO keyed_char VALUES ('ab', 1)",
                "CREATE TABLE keyed_int (id INT PRIMARY KEY, v INT)",
                "INSERT INTO keyed_int VALUES (1, 1)",
                "CREATE TABLE tickets (id BIGINT AUTO_INCREMENT PRIMARY KEY, title VARCHAR(20) NOT NULL)",
                "CREATE FUNCTION bump(i INT) RETURNS INT MODIFIES SQL DATA BEGIN"
                        + " UPDATE acct SET balance = balance + 1 WHERE id = i; RETURN 1; END");
        database().run(added);
    }

    /**
     * The construct interleaved in a READ COMMITTED transaction that reads every table before and
     * after it: caught, or a table listed as left out, never a silent pass. The schema is then set
     * up afresh.
     */
    @Override
    void interleaved(String name, List<String> tables, Work construct) throws Exception {
        RecordedHistory recorded = recordInterleaved(name, tables, construct);
        boolean caught = !RecordedRun.check(recorded, IsolationLevel.SERIALIZABLE).isSatisfied();
        boolean leftOut = recorded.notModelled().stream().anyMatch(n -> n.leavesTableOut());
        assertThat(caught || leftOut).as("%s interleaved: caught or listed%n%s", name, recorded.history().transactions())
                .isTrue();
        schema();
    }

    @Override
    void createAuditTrigger() throws Exception {
        add("CREATE TRIGGER acct_audit AFTER UPDATE ON acct FOR EACH ROW INSERT INTO audit (acct, delta) VALUES (NEW.id, 1)");
    }

    @Test
    void keysWrittenAsLiteralsTheDatabaseReadsOtherwise() throws Exception {
        serially("literal keys", List.of("keyed_char", "keyed_int"), ds -> {
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(false);
                try (Statement s = c.createStatement()) {
                    drain(s.executeQuery("SELECT v FROM keyed_char WHERE k = 'AB '"));
                    s.executeUpdate("UPDATE keyed_char SET v = 2 WHERE k = 'AB '");
                    drain(s.executeQuery("SELECT v FROM keyed_char WHERE k = 'ab'"));
                    drain(s.executeQuery("SELECT v FROM keyed_int WHERE id = '01'"));
                    s.executeUpdate("UPDATE keyed_int SET v = 2 WHERE id = '01'");
                    drain(s.executeQuery("SELECT v FROM keyed_int WHERE id = 1"));
                }
                c.commit();
            }
        });
    }

    /** MariaDB's own forms of write: each leaves its table out, and the run passes. */
    @Test
    void upsertsAndMultiTableWrites() throws Exception {
        RecordedHistory recorded = serially("upserts", List.of("acct", "keyed_int"), inTransaction(
                "INSERT INTO acct VALUES (1, 7) ON DUPLICATE KEY UPDATE balance = 7",
                "REPLACE INTO keyed_int VALUES (1, 9)",
                "UPDATE acct a JOIN keyed_int k ON a.id = k.id SET a.balance = 3, k.v = 3"));
        assertThat(String.join("; ", subjects(recorded))).contains("acct", "keyed_int");
    }

    /**
     * In auto-commit mode an UPDATE whose statement does not say the whole row, and an INSERT asking
     * for generated keys whose value is an expression, cannot be read back: listed.
     */
    @Test
    void writesInAutoCommitModeThatCannotBeReadBack() throws Exception {
        RecordedHistory recorded = serially("auto-commit", List.of("acct", "tickets"), ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                s.executeUpdate("UPDATE acct SET balance = balance + 1 WHERE id = 1");
                s.executeUpdate("INSERT INTO tickets (title) VALUES (CONCAT('a', 'b'))", Statement.RETURN_GENERATED_KEYS);
                try (ResultSet keys = s.getGeneratedKeys()) {
                    assertThat(keys.next()).isTrue();
                }
            }
        });
        assertThat(String.join("; ", subjects(recorded))).contains("table acct", "table tickets");
    }

    /**
     * What the recorder reads back or gets through RETURNING, in a transaction: rows listed by key,
     * a numbered insert asking for its key, a batch, a count. Nothing is left out, so interleaved,
     * the anomaly is caught.
     */
    @Test
    void writesReadBackInATransaction() throws Exception {
        RecordedHistory recorded = serially("read back", List.of("acct", "tickets"), ds -> {
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(false);
                try (Statement s = c.createStatement()) {
                    s.executeUpdate("UPDATE acct SET balance = balance + 1 WHERE id IN (1, 2)");
                    s.executeUpdate("INSERT INTO tickets (title) VALUES ('t')", Statement.RETURN_GENERATED_KEYS);
                    drain(s.executeQuery("SELECT count(*) FROM acct WHERE balance > 0"));
                }
                try (var batch = c.prepareStatement("UPDATE acct SET balance = ? WHERE id = ?")) {
                    for (int id = 1; id <= 2; id++) {
                        batch.setInt(1, 50 + id);
                        batch.setInt(2, id);
                        batch.addBatch();
                    }
                    batch.executeBatch();
                }
                c.commit();
            }
        });
        assertThat(recorded.notModelled()).isEmpty();
    }

    private static void drain(ResultSet rs) throws SQLException {
        try (rs) {
            while (rs.next()) {
                rs.getObject(1);
            }
        }
    }
}
