package dev.isocheck.internal.recording.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.internal.recording.RecordedHistory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link TrustedConstructs} on H2, where the writes come from the statements: a trigger, cascades
 * two levels deep, TRUNCATE, a function that writes, several statements in one string, and keys
 * written as literals, each serially with no false alarm and what was left out listed, and (but
 * TRUNCATE) interleaved in a reading transaction, caught or listed.
 */
class H2TrustedConstructsTests extends StatementsTrustedConstructs {

    private final TestDatabase database = () -> {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:constructs;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000");
        return ds;
    };

    @Override
    TestDatabase database() {
        return database;
    }

    /** An H2 trigger: each row updated in {@code acct} is counted in {@code audit}. */
    public static final class Audited implements org.h2.api.Trigger {

        @Override
        public void fire(Connection c, Object[] oldRow, Object[] newRow) throws SQLException {
            try (PreparedStatement s = c.prepareStatement("INSERT INTO audit (acct, delta) VALUES (?, 1)")) {
                s.setObject(1, newRow[0]);
                s.executeUpdate();
            }
        }
    }

    /** H2 functions (public, for H2 to call). */
    public static final class Functions {

        private Functions() {
        }

        /** Writes: adds one to an account's balance. */
        public static int bump(Connection c, int id) throws SQLException {
            try (PreparedStatement s = c.prepareStatement("UPDATE acct SET balance = balance + 1 WHERE id = ?")) {
                s.setInt(1, id);
                return s.executeUpdate();
            }
        }
    }

    /**
     * The construct interleaved in a reading transaction, a real anomaly: caught, or a table listed
     * as left out, never a silent pass (H2 keeps no log of its writes). The database is put back as
     * it was before from a script of it (its tables, rows, triggers and functions).
     */
    @Override
    void interleaved(String name, List<String> tables, Work construct) throws Exception {
        java.nio.file.Path script = java.nio.file.Files.createTempFile("isocheck-h2-constructs", ".sql");
        try {
            database().run("SCRIPT TO '" + script + "'");
            RecordedHistory recorded = recordInterleaved(name, tables, construct);
            boolean caught = !RecordedRun.check(recorded, dev.isocheck.IsolationLevel.SERIALIZABLE).isSatisfied();
            boolean leftOut = recorded.notModelled().stream().anyMatch(n -> n.leavesTableOut());
            assertThat(caught || leftOut).as("%s interleaved: caught or listed%n%s", name, recorded.history().transactions())
                    .isTrue();
            database().run("DROP ALL OBJECTS", "RUNSCRIPT FROM '" + script + "'");
        } finally {
            java.nio.file.Files.deleteIfExists(script);
        }
    }

    @BeforeEach
    void schema() throws SQLException {
        database().run("DROP ALL OBJECTS",
                "CREATE TABLE acct (id INT PRIMARY KEY, balance INT NOT NULL)",
                "INSERT INTO acct VALUES (1, 100), (2, 100)",
                "CREATE TABLE audit (id INT AUTO_INCREMENT PRIMARY KEY, acct INT, delta INT)",
                "CREATE TABLE parent (id INT PRIMARY KEY)",
                "CREATE TABLE child (id INT PRIMARY KEY, parent INT REFERENCES parent ON DELETE CASCADE)",
                "CREATE TABLE grandchild (id INT PRIMARY KEY, child INT REFERENCES child ON DELETE CASCADE)",
                "INSERT INTO parent VALUES (1), (2)",
                "INSERT INTO child VALUES (10, 1), (20, 2)",
                "INSERT INTO grandchild VALUES (100, 10), (200, 20)",
                "CREATE TABLE keyed_char (k CHAR(4) PRIMARY KEY, v INT)",
                "INSERT INTO keyed_char VALUES ('ab', 1)",
                "CREATE TABLE keyed_int (id INT PRIMARY KEY, v INT)",
                "INSERT INTO keyed_int VALUES (1, 1)",
                "CREATE ALIAS bump FOR '" + Functions.class.getName() + ".bump'");
    }

    @Override
    void createAuditTrigger() throws Exception {
        database().run("CREATE TRIGGER acct_audit AFTER UPDATE ON acct FOR EACH ROW CALL '" + Audited.class.getName() + "'");
    }

    @Test
    void twoStatementsInOneString() throws Exception {
        RecordedHistory recorded = serially("two statements", List.of("acct"), ds -> {
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(false);
                try (Statement s = c.createStatement()) {
                    s.execute("SET LOCK_TIMEOUT 10000; UPDATE acct SET balance = 5 WHERE id = 1");
                }
                c.commit();
            }
        });
        assertThat(String.join("; ", subjects(recorded))).contains("every table");
    }

    @Test
    void keysWrittenAsLiteralsTheDatabaseReadsOtherwise() throws Exception {
        serially("literal keys", List.of("keyed_char", "keyed_int"), ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                s.executeQuery("SELECT v FROM keyed_char WHERE k = 'ab'").close();
                s.executeUpdate("UPDATE keyed_char SET v = 2 WHERE k = 'ab'");
                try (var rs = s.executeQuery("SELECT v FROM keyed_char WHERE k = 'ab'")) {
                    while (rs.next()) {
                        rs.getInt(1);
                    }
                }
                try (var rs = s.executeQuery("SELECT v FROM keyed_int WHERE id = '01'")) {
                    while (rs.next()) {
                        rs.getInt(1);
                    }
                }
                s.executeUpdate("UPDATE keyed_int SET v = 2 WHERE id = '01'");
                try (var rs = s.executeQuery("SELECT v FROM keyed_int WHERE id = '01'")) {
                    while (rs.next()) {
                        rs.getInt(1);
                    }
                }
            }
        });
    }
}
