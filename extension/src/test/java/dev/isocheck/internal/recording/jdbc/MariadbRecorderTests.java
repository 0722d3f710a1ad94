package dev.isocheck.internal.recording.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.AnomalyType;
import dev.isocheck.CheckResult;
import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.recording.NotModelled;
import dev.isocheck.internal.recording.RecordedHistory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The recorder on a real MariaDB through MariaDB's JDBC driver: the scenarios every database with a
 * dialect passes, and what MariaDB does otherwise. INSERT and DELETE come back through RETURNING;
 * an UPDATE, which has none, and an INSERT asking for generated keys are read back by key inside
 * their transaction, in batches too; aggregates over integer and decimal columns through JSON_ARRAYAGG; what
 * cannot be read back (an UPDATE in auto-commit mode, of rows not named by key) leaves its table
 * out and says so.
 * MariaDB's strings compare in a case-insensitive collation by default, so no string WHERE is a
 * predicate read.
 */
class MariadbRecorderTests extends MariadbScenarios {

    private static MariadbDatabase mariadb;

    @BeforeAll
    static void server() throws Throwable {
        mariadb = MariadbDatabase.database("recorder");
    }

    @Override
    TestDatabase database() {
        return mariadb;
    }

    /**
     * The box office's phantom over a count, on integer columns: each transaction counts the
     * tickets of a concert, finds a seat left, and inserts a ticket. The counts are predicate reads
     * of the rows they ranged over, and the phantom is caught; an aggregate over more rows than the
     * recorder reads, or over strings, is said not to be checked.
     */
    @Test
    void aCountOverIntegersIsAPredicateReadAndItsPhantomIsCaught() throws Exception {
        database().run("DROP TABLE IF EXISTS seats", "CREATE TABLE seats (id INT PRIMARY KEY, concert INT NOT NULL, note VARCHAR(10))",
                "INSERT INTO seats VALUES (1, 7, 'a')");
        RecordedHistory recorded = RecordedRun.record("count phantom", mariadb.dataSource(), ds -> {
            try (Connection a = open(ds, weakIsolation()); Connection b = open(ds, weakIsolation())) {
                assertThat(seatsTaken(a)).isOne();
                assertThat(seatsTaken(b)).isOne();
                try (Statement s = a.createStatement()) {
                    s.executeUpdate("INSERT INTO seats VALUES (2, 7, 'b')");
                }
                try (Statement s = b.createStatement()) {
                    s.executeUpdate("INSERT INTO seats VALUES (3, 7, 'c')");
                }
                a.commit();
                b.commit();
            }
        });
        assertThat(recorded.notModelled()).isEmpty();
        assertThat(recorded.history().transactions()).extracting(Object::toString)
                .anySatisfy(t -> assertThat(t).contains("predicate(seats where concert = 7) -> [seats/1={\"concert\":7,\"id\":1}]"));
        CheckResult result = RecordedRun.check(recorded, IsolationLevel.SERIALIZABLE);
        assertThat(result.isViolated()).as("%s", result.verdict()).isTrue();
        assertThat(RecordedRun.cycleTypes(result)).as("%s", result.explanationText().orElse("")).containsExactly(AnomalyType.G2);

        database().run("INSERT INTO seats SELECT seq, 8, 'x' FROM seq_10_to_10020");
        RecordedHistory many = RecordedRun.record("count of many", mariadb.dataSource(), ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT count(*), max(note) FROM seats WHERE concert = 8")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(10_011);
                assertThat(rs.getMetaData().getColumnCount()).isEqualTo(2);
            }
        });
        assertThat(many.notModelled()).singleElement().satisfies(n -> assertThat(n.reason()).contains("more than 10000 rows"));
    }

    /**
     * Money in DECIMAL columns: a sum over them reads each row's amount through the hidden
     * {@code JSON_ARRAYAGG}, written with the column's scale and read as the driver reads it
     * ({@code BigDecimal}, 60.00; one of scale 0 as 7, not 7.0), so the write skew of two
     * withdrawals each checking the owner's total is caught.
     */
    @Test
    void aSumOverDecimalsReadsTheAmountsAndItsWriteSkewIsCaught() throws Exception {
        database().run("DROP TABLE IF EXISTS purses", "CREATE TABLE purses (id INT PRIMARY KEY, owner INT NOT NULL,"
                + " balance DECIMAL(10,2) NOT NULL, points DECIMAL(5,0))", "INSERT INTO purses VALUES (1, 1, 60, 7), (2, 1, 60.00, -3)");
        RecordedHistory recorded = RecordedRun.record("decimal skew", mariadb.dataSource(), ds -> {
            try (Connection a = open(ds, weakIsolation()); Connection b = open(ds, weakIsolation())) {
                assertThat(total(a)).isEqualByComparingTo("120");
                assertThat(total(b)).isEqualByComparingTo("120");
                try (Statement s = a.createStatement()) {
                    assertThat(s.executeUpdate("UPDATE purses SET balance = balance - 100 WHERE id = 1")).isOne();
                }
                try (Statement s = b.createStatement()) {
                    assertThat(s.executeUpdate("UPDATE purses SET balance = balance - 100 WHERE id = 2")).isOne();
                }
                a.commit();
                b.commit();
            }
        });
        assertThat(recorded.notModelled()).isEmpty();
        assertThat(recorded.history().transactions()).extracting(Object::toString).anySatisfy(t -> assertThat(t).contains(
                "predicate(purses where owner = 1) -> [purses/1={\"balance\":60,\"id\":1,\"owner\":1,\"points\":7},"
                        + " purses/2={\"balance\":60,\"id\":2,\"owner\":1,\"points\":-3}]"));
        CheckResult result = RecordedRun.check(recorded, IsolationLevel.SERIALIZABLE);
        assertThat(result.isViolated()).as("%s", result.verdict()).isTrue();
        assertThat(RecordedRun.cycleTypes(result)).as("%s", result.explanationText().orElse("")).containsExactly(AnomalyType.G2_ITEM);
    }

    private static java.math.BigDecimal total(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT sum(balance), max(points) FROM purses WHERE owner = ?")) {
            s.setInt(1, 1);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getBigDecimal(1);
            }
        }
    }

    private static int seatsTaken(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT count(*) FROM seats WHERE concert = ?")) {
            s.setInt(1, 7);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    /**
     * MariaDB's driver answers generated keys with the auto-increment value whatever is asked, from
     * the server's reply: such an INSERT is sent as written, so the application gets the driver's
     * own answer, and its row is read back by key inside its transaction. In auto-commit mode it
     * cannot be, but this one's VALUES say every column of its row.
     */
    @Override
    @Test
    void keysTheApplicationAsksForByNameAreItsAndTheRecorderLearnsTheFullRow() throws Exception {
        RecordedHistory recorded = RecordedRun.record("keys", mariadb.dataSource(), ds -> {
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(false);
                insertNoteAskingForKeys(c, 8, "eight");
                c.commit();
            }
        });
        assertThat(recorded.notModelled()).isEmpty();
        assertThat(recorded.history().transactions()).extracting(Object::toString)
                .anySatisfy(t -> assertThat(t).contains("w(notes/8, {\"body\":\"eight\",\"id\":8})"));
        RecordedHistory autoCommit = RecordedRun.record("keys in auto-commit mode", mariadb.dataSource(), ds -> {
            try (Connection c = ds.getConnection()) {
                insertNoteAskingForKeys(c, 7, "seven");
            }
        });
        assertThat(autoCommit.notModelled()).isEmpty();
        assertThat(autoCommit.history().transactions()).extracting(Object::toString)
                .anySatisfy(t -> assertThat(t).contains("w(notes/7, {\"body\":\"seven\",\"id\":7})"));
    }

    /**
     * An INSERT in auto-commit mode that asks for generated keys (or any, through MySQL's driver)
     * cannot be read back after its commit: it is recorded as its VALUES say each row (each an
     * integer or a VARCHAR literal or parameter, no warning, every key column given), the key the
     * database numbers, for one row, included as {@code LAST_INSERT_ID()}, and a column left to
     * its default left out of the table's check, said so; otherwise the table is listed, never guessed.
     */
    @Test
    void anInsertInAutoCommitModeIsRecordedWhereItSaysTheWholeRow() throws Exception {
        database().run("DROP TABLE IF EXISTS tickets", "CREATE TABLE tickets (id BIGINT AUTO_INCREMENT PRIMARY KEY, title VARCHAR(20) NOT NULL)",
                "DROP TABLE IF EXISTS labelled", "CREATE TABLE labelled (id INT PRIMARY KEY, title VARCHAR(20), code CHAR(4),"
                        + " state VARCHAR(10) DEFAULT 'open')",
                "DROP TABLE IF EXISTS defaulted", "CREATE TABLE defaulted (id INT NOT NULL DEFAULT 9 PRIMARY KEY, v INT)");
        for (DataSource driver : new DataSource[] {mariadb.dataSource(), mariadb.mysqlDriver()}) {
            database().run("DELETE FROM tickets", "DELETE FROM counters WHERE id > 1");
            long[] numbered = new long[1];
            RecordedHistory recorded = RecordedRun.record("auto-commit inserts", driver, ds -> {
                try (Connection c = ds.getConnection()) {
                    numbered[0] = insertTicketAskingForItsKey(c, "first");
                    try (Statement s = c.createStatement()) {
                        assertThat(s.executeUpdate("INSERT INTO counters (id, n) VALUES (2, 20), (3, -3)",
                                Statement.RETURN_GENERATED_KEYS)).isEqualTo(2);
                        assertThat(drain(s.executeQuery("SELECT * FROM counters WHERE id = 3"))).isOne();
                    }
                }
            });
            assertThat(recorded.notModelled()).as("%s", driver).isEmpty();
            assertThat(recorded.history().transactions()).extracting(Object::toString).asString().contains(
                    "w(tickets/" + numbered[0] + ", {\"id\":" + numbered[0] + ",\"title\":\"first\"})",
                    "w(counters/2, {\"id\":2,\"n\":20})", "w(counters/3, {\"id\":3,\"n\":-3})", "r(counters/3, {\"id\":3,\"n\":-3})");
            assertThat(RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();
        }
        String[][] cases = {
                {"INSERT INTO tickets (title) VALUES ('a'), ('b')", "tickets", "2"},
                {"INSERT INTO tickets (title) VALUES (CONCAT('c', LAST_INSERT_ID(7)))", "tickets", "1"},
                {"INSERT INTO tickets (id, title) VALUES (0, 'zero')", "tickets", "1"},
                {"INSERT INTO labelled (id, title, code, state) VALUES (2, 'x', 'y', 'z')", "labelled", "1"},
                {"INSERT INTO defaulted (v) VALUES (1)", "defaulted", "1"},
                {"INSERT INTO labelled (id, title, code, state) VALUES (3, NULL, 'y', 'z')", "labelled", "1"},
                {"INSERT INTO counters (id, n) VALUES (4, 1 + 1)", "counters", "1"},
                {"INSERT INTO counters (id, n) VALUES ('5', 1)", "counters", "1"},
                {"INSERT IGNORE INTO counters (id, n) VALUES (1, 1)", "counters", "0"},
        };
        // A column it leaves to its default is left out of the table's check, and said so.
        RecordedHistory partly = RecordedRun.record("auto-commit insert, defaults", mariadb.dataSource(), ds -> {
            try (Connection conn = ds.getConnection(); Statement s = conn.createStatement()) {
                assertThat(s.executeUpdate("INSERT INTO labelled (id, title) VALUES (1, 'x')", Statement.RETURN_GENERATED_KEYS)).isOne();
                assertThat(drain(s.executeQuery("SELECT * FROM labelled WHERE id = 1"))).isOne();
            }
        });
        assertThat(partly.notModelled()).singleElement().satisfies(n -> {
            assertThat(n.subject()).isEqualTo("columns code, state of table labelled (statement: INSERT INTO labelled (id, title)"
                    + " VALUES (1, 'x'))");
            assertThat(n.reason()).contains("leaves the column to the database");
        });
        assertThat(partly.history().transactions()).extracting(Object::toString).asString()
                .contains("w(labelled/1, {\"id\":1,\"title\":\"x\"})", "r(labelled/1, {\"id\":1,\"title\":\"x\"})");
        assertThat(RecordedRun.check(partly, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();
        for (String[] c : cases) {
            RecordedHistory left = RecordedRun.record("auto-commit insert, not said", mariadb.dataSource(), ds -> {
                try (Connection conn = ds.getConnection(); Statement s = conn.createStatement()) {
                    assertThat(s.executeUpdate(c[0], Statement.RETURN_GENERATED_KEYS)).as(c[0]).isEqualTo(Integer.parseInt(c[2]));
                }
            });
            assertThat(left.notModelled()).as(c[0]).singleElement().satisfies(n -> {
                assertThat(n.subject()).isEqualTo("table " + c[1] + " (statement: " + c[0] + ")");
                assertThat(n.reason()).contains("auto-commit mode");
            });
        }
    }

    /** Inserts a ticket titled {@code title}, asking for its key, which the server numbers; returns it. */
    private static long insertTicketAskingForItsKey(Connection c, String title) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO tickets (title) VALUES (?)", Statement.RETURN_GENERATED_KEYS)) {
            s.setString(1, title);
            assertThat(s.executeUpdate()).isOne();
            try (ResultSet keys = s.getGeneratedKeys()) {
                assertThat(keys.next()).isTrue();
                return keys.getLong(1);
            }
        }
    }

    private static void insertNoteAskingForKeys(Connection c, int id, String body) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO notes (id, body) VALUES (?, ?)", new String[] {"id"})) {
            s.setInt(1, id);
            s.setString(2, body);
            assertThat(s.executeUpdate()).isEqualTo(1);
            try (ResultSet keys = s.getGeneratedKeys()) {
                // No AUTO_INCREMENT on notes: the driver has no number to answer with.
                assertThat(keys.next()).isFalse();
            }
        }
    }

    /**
     * A key the database numbers (AUTO_INCREMENT), asked for as generated keys by both drivers, as
     * Spring's KeyHolder and Hibernate's IDENTITY do: the application gets the driver's answer,
     * the recorder reads the row back by {@code LAST_INSERT_ID()}; several rows listed with their
     * keys are read back by them. Rows whose key the INSERT neither gives nor leaves to one number
     * (several rows numbered) leave the table out, saying why.
     */
    @Test
    void insertsAskingForGeneratedKeysInATransactionAreReadBackByTheirKeys() throws Exception {
        database().run("DROP TABLE IF EXISTS tickets",
                "CREATE TABLE tickets (id BIGINT AUTO_INCREMENT PRIMARY KEY, title VARCHAR(20) NOT NULL, state VARCHAR(10) DEFAULT 'open')");
        for (DataSource driver : new DataSource[] {mariadb.dataSource(), mariadb.mysqlDriver()}) {
            database().run("DELETE FROM tickets");
            long[] numbered = new long[2];
            RecordedHistory recorded = RecordedRun.record("numbered keys", driver, ds -> {
                try (Connection c = ds.getConnection()) {
                    c.setAutoCommit(false);
                    numbered[0] = insertTicketAskingForItsKey(c, "first");
                    try (Statement s = c.createStatement()) {
                        assertThat(s.executeUpdate("INSERT INTO tickets (title, state) VALUES ('second', LOWER('CLOSED'))",
                                Statement.RETURN_GENERATED_KEYS)).isOne();
                        try (ResultSet keys = s.getGeneratedKeys()) {
                            assertThat(keys.next()).isTrue();
                            numbered[1] = keys.getLong(1);
                        }
                        assertThat(s.executeUpdate("INSERT INTO tickets (id, title) VALUES (1000, 'x'), (1001, 'y')",
                                Statement.RETURN_GENERATED_KEYS)).isEqualTo(2);
                        try (ResultSet last = s.executeQuery("SELECT LAST_INSERT_ID()")) {
                            assertThat(last.next()).isTrue();
                            assertThat(last.getLong(1)).as("the read back leaves LAST_INSERT_ID() as it was").isEqualTo(numbered[1]);
                        }
                    }
                    c.commit();
                }
            });
            assertThat(recorded.notModelled()).as("%s", driver).isEmpty();
            assertThat(recorded.history().transactions()).extracting(Object::toString).singleElement().asString().contains(
                    "w(tickets/" + numbered[0] + ", {\"id\":" + numbered[0] + ",\"state\":\"open\",\"title\":\"first\"})",
                    "w(tickets/" + numbered[1] + ", {\"id\":" + numbered[1] + ",\"state\":\"closed\",\"title\":\"second\"})",
                    "w(tickets/1000, {\"id\":1000,\"state\":\"open\",\"title\":\"x\"})",
                    "w(tickets/1001, {\"id\":1001,\"state\":\"open\",\"title\":\"y\"})");
            assertThat(RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();
        }
        for (String unknown : new String[] {"INSERT INTO tickets (title) VALUES ('a'), ('b')",
                "INSERT INTO tickets (title) VALUES (CONCAT('c', LAST_INSERT_ID(7)))"}) {
            RecordedHistory left = RecordedRun.record("numbered, not known", mariadb.dataSource(), ds -> {
                try (Connection c = ds.getConnection()) {
                    c.setAutoCommit(false);
                    try (Statement s = c.createStatement()) {
                        assertThat(s.executeUpdate(unknown, Statement.RETURN_GENERATED_KEYS)).isPositive();
                    }
                    c.commit();
                }
            });
            assertThat(left.notModelled()).singleElement().satisfies(n -> {
                assertThat(n.subject()).isEqualTo("table tickets (statement: " + unknown + ")");
                assertThat(n.reason()).contains("VALUES do not give every key column");
            });
        }
    }

    /**
     * Writes whose rows a read back could find otherwise than the write did, or lock where it did
     * not, are not read back: their table is left out, saying why, and the application sees what
     * it would have. A table named with its database (read back in the connection's own, it could
     * be another), a key given as another type than its column's (compared without the key's
     * index), an AUTO_INCREMENT key given as 0 (the server numbers the row), a literal the parser
     * reads otherwise than the server (b'1', an UNSIGNED BIGINT beyond a long).
     */
    @Test
    void writesWhoseRowsAReadBackCouldMissAreNotReadBack() throws Exception {
        database().run("DROP TABLE IF EXISTS tickets",
                "CREATE TABLE tickets (id BIGINT UNSIGNED AUTO_INCREMENT PRIMARY KEY, title VARCHAR(20) NOT NULL)",
                "INSERT INTO tickets VALUES (1, 'one'), (5, 'five')");
        String[][] cases = {
                {"UPDATE recorder.tickets SET title = 'x' WHERE id = 1", "1", "with a database or schema"},
                {"UPDATE tickets SET title = 'y' WHERE id = '1'", "1", "another type than its column's"},
                {"INSERT INTO tickets (id, title) VALUES (0, 'zero')", "1", "as 0"},
                {"UPDATE tickets SET title = 'z' WHERE id = b'101'", "1", "does not name its rows by every key column"},
                {"UPDATE tickets SET title = 'w' WHERE id IN (18446744073709551615, 1) AND title < CONCAT('z', '')", "1",
                        "changed 1 of the 2 rows"},
        };
        for (String[] c : cases) {
            // The INSERT asks for generated keys, as one MariaDB's RETURNING does not answer for.
            assertThat(leftOutInATransaction(c[0], Integer.parseInt(c[1]), c[0].startsWith("INSERT"))).satisfies(n -> {
                assertThat(n.subject()).isEqualTo("table tickets (statement: " + c[0] + ")");
                assertThat(n.reason()).contains(c[2]);
            });
        }
    }

    /**
     * The one thing a transaction of the one statement {@code sql}, which writes {@code count}
     * rows, leaves out ({@code keys}: asking for generated keys).
     */
    private NotModelled leftOutInATransaction(String sql, int count, boolean keys) throws Exception {
        RecordedHistory recorded = RecordedRun.record("left out", mariadb.dataSource(), ds -> {
            try (Connection conn = ds.getConnection()) {
                conn.setAutoCommit(false);
                try (Statement s = conn.createStatement()) {
                    assertThat(keys ? s.executeUpdate(sql, Statement.RETURN_GENERATED_KEYS) : s.executeUpdate(sql))
                            .as(sql).isEqualTo(count);
                }
                conn.commit();
            }
        });
        assertThat(recorded.notModelled()).as(sql).hasSize(1);
        return recorded.notModelled().get(0);
    }

    /**
     * An UPDATE naming its rows by an IN list of keys is read back when it changed every row it
     * names (then it locked each); when it changed fewer, by its own WHERE where that is stable,
     * and otherwise, which ones is not known, and the table is left out.
     */
    @Test
    void anUpdateOfRowsListedByKeyIsReadBackWhenItChangedEveryOne() throws Exception {
        database().run("INSERT INTO counters VALUES (2, 0), (3, 0)");
        RecordedHistory recorded = RecordedRun.record("listed", mariadb.dataSource(), ds -> {
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(false);
                try (PreparedStatement s = c.prepareStatement("UPDATE counters SET n = n + 1 WHERE id IN (?, ?, 3) AND n >= 0")) {
                    s.setInt(1, 1);
                    s.setLong(2, 2L);
                    assertThat(s.executeUpdate()).isEqualTo(3);
                }
                c.commit();
            }
        });
        assertThat(recorded.notModelled()).isEmpty();
        assertThat(recorded.history().transactions()).extracting(Object::toString).singleElement().asString()
                .contains("w(counters/1, {\"id\":1,\"n\":1})", "w(counters/2, {\"id\":2,\"n\":1})",
                        "w(counters/3, {\"id\":3,\"n\":1})");
        assertThat(RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();

        RecordedHistory fewer = RecordedRun.record("fewer", mariadb.dataSource(), ds -> {
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(false);
                try (Statement s = c.createStatement()) {
                    assertThat(s.executeUpdate("UPDATE counters SET n = 5 WHERE id IN (1, 2, 99)")).isEqualTo(2);
                    assertThat(s.executeUpdate("UPDATE counters SET n = 6 WHERE id IN (1, '1')")).isOne();
                }
                c.commit();
            }
        });
        // Fewer than named: read back by the UPDATE's own WHERE, which is stable.
        assertThat(fewer.notModelled()).isEmpty();
        assertThat(fewer.history().transactions()).extracting(Object::toString).singleElement().asString()
                .contains("w(counters/1, {\"id\":1,\"n\":5})", "w(counters/2, {\"id\":2,\"n\":5})",
                        "w(counters/1, {\"id\":1,\"n\":6})").doesNotContain("counters/99");

        RecordedHistory unstable = RecordedRun.record("fewer, not stable", mariadb.dataSource(), ds -> {
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(false);
                try (Statement s = c.createStatement()) {
                    assertThat(s.executeUpdate("UPDATE counters SET n = 7 WHERE id IN (1, 2, 99) AND n < ABS(100)")).isEqualTo(2);
                }
                c.commit();
            }
        });
        assertThat(unstable.notModelled()).singleElement().satisfies(n -> {
            assertThat(n.subject()).startsWith("table counters");
            assertThat(n.reason()).contains("changed 2 of the 3 rows");
        });
    }

    @Override
    @Test
    void aFailedBatchInATransactionThatRolledBackLeavesNothingOut() {
        // A batch leaves its table out on MariaDB whatever becomes of its transaction: above.
    }

    /**
     * MySQL's BOOLEAN is TINYINT(1), which may hold 2: the driver reads it as true, yet
     * {@code WHERE on_call = TRUE} does not select it. A WHERE over a boolean column is no
     * predicate read on MariaDB (the rows returned are still read): the four scenarios whose
     * predicates range over {@code on_call} are replaced by this one and by the phantom over an
     * integer column below.
     */
    @Test
    void aWhereOverABooleanColumnIsNoPredicateReadSinceTinyintOneMayHoldTwo() throws Exception {
        database().run("INSERT INTO doctors VALUES (3, 'carol', 2)");
        RecordedHistory recorded = RecordedRun.record("boolean", mariadb.dataSource(), ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                assertThat(drain(s.executeQuery("SELECT * FROM doctors WHERE on_call = TRUE"))).isEqualTo(2);
                try (ResultSet rs = s.executeQuery("SELECT on_call FROM doctors WHERE id = 3")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getBoolean(1)).as("2 reads as true").isTrue();
                }
            }
        });
        assertThat(recorded.notModelled()).singleElement().satisfies(n -> {
            assertThat(n.subject()).isEqualToIgnoringCase("the reads of doctors WHERE on_call = TRUE");
            assertThat(n.reason()).contains("cannot compare column on_call");
        });
        assertThat(RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();
    }

    /** The serial workload with its UPDATE by key: in auto-commit mode, recorded from the statement (below). */
    @Override
    @Test
    void serialWorkloadIsFine() throws Exception {
        RecordedHistory recorded = RecordedRun.record("serial", mariadb.dataSource(), ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                assertThat(s.executeUpdate("INSERT INTO notes (id, body) VALUES (4, 'a'), (5, 'b')")).isEqualTo(2);
                assertThat(s.executeUpdate("UPDATE notes SET body = 'edited' WHERE id = 4")).isEqualTo(1);
                assertThat(s.executeUpdate("DELETE FROM notes WHERE id = 5")).isEqualTo(1);
                assertThat(drain(s.executeQuery("SELECT * FROM notes"))).isEqualTo(1);
            }
        });
        assertThat(recorded.notModelled()).isEmpty();
        assertThat(RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();
    }

    /**
     * Without UPDATE ... RETURNING, an UPDATE in auto-commit mode cannot be read back (after its
     * commit the row may be another transaction's): it is recorded as the statement itself says it
     * (the table's integer key and the columns it sets, each an integer or a VARCHAR literal or
     * parameter, no warning), a column it does not set left out of the table's check, said so, and
     * otherwise listed, never guessed.
     */
    @Test
    void anUpdateInAutoCommitModeIsRecordedWhereItSaysTheWholeRow() throws Exception {
        database().run("DROP TABLE IF EXISTS wide", "CREATE TABLE wide (id INT PRIMARY KEY, n INT, note VARCHAR(10), code CHAR(4))",
                "INSERT INTO wide VALUES (1, 0, 'a', 'x')");
        RecordedHistory recorded = RecordedRun.record("auto-commit updates", mariadb.dataSource(), ds -> {
            try (Connection c = ds.getConnection()) {
                try (PreparedStatement s = c.prepareStatement("UPDATE counters SET n = ? WHERE id = ?")) {
                    s.setInt(1, 41);
                    s.setInt(2, 1);
                    assertThat(s.executeUpdate()).isOne();
                    s.setInt(2, 99);
                    assertThat(s.executeUpdate()).isZero();
                }
                try (Statement s = c.createStatement()) {
                    assertThat(s.executeUpdate("UPDATE notes SET body = 'x' WHERE id = 1")).isZero();
                }
            }
        });
        assertThat(recorded.notModelled()).isEmpty();
        assertThat(recorded.history().transactions()).extracting(Object::toString)
                .anySatisfy(t -> assertThat(t).contains("w(counters/1, {\"id\":1,\"n\":41})"));
        assertThat(RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();

        // A column it does not set is left out of the table's check, and said so.
        RecordedHistory partly = RecordedRun.record("auto-commit, some columns", mariadb.dataSource(), ds -> {
            try (Connection conn = ds.getConnection(); Statement s = conn.createStatement()) {
                assertThat(drain(s.executeQuery("SELECT * FROM wide WHERE n >= 0"))).isOne();
                assertThat(s.executeUpdate("UPDATE wide SET note = 'b' WHERE id = 1")).isOne();
                assertThat(drain(s.executeQuery("SELECT * FROM wide WHERE id >= 1"))).isOne();
            }
        });
        assertThat(partly.notModelled()).singleElement().satisfies(n -> {
            assertThat(n.subject()).isEqualTo("columns code, n of table wide (statement: UPDATE wide SET note = 'b' WHERE id = 1)");
            assertThat(n.reason()).contains("does not set the column");
        });
        // Every read and write of the table without them; a predicate over one of them dropped.
        assertThat(partly.history().transactions()).extracting(Object::toString).asString()
                .contains("w(wide/1, {\"id\":1,\"note\":\"b\"})", "predicate(wide where id >= 1) -> [wide/1={\"id\":1,\"note\":\"b\"}]",
                        "r(wide/1, {\"id\":1,\"note\":\"a\"})")
                .doesNotContain("where n >= 0", "\"n\":", "\"code\":");
        assertThat(RecordedRun.check(partly, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();

        String[][] cases = {
                {"UPDATE counters SET n = n + 1 WHERE id = 1", "counters"},
                {"UPDATE wide SET n = 5, note = 'b', code = 'y' WHERE id = 1", "wide"},
                {"UPDATE counters SET n = '7' WHERE id = 1", "counters"},
        };
        for (String[] c : cases) {
            RecordedHistory left = RecordedRun.record("auto-commit, not said", mariadb.dataSource(), ds -> {
                try (Connection conn = ds.getConnection(); Statement s = conn.createStatement()) {
                    assertThat(s.executeUpdate(c[0])).as(c[0]).isOne();
                }
            });
            assertThat(left.notModelled()).as(c[0]).singleElement().satisfies(n -> {
                assertThat(n.subject()).isEqualTo("table " + c[1] + " (statement: " + c[0] + ")");
                assertThat(n.reason()).contains("auto-commit mode");
            });
        }
    }

    @Test
    void insertsUpdatesAndDeletesInATransactionAreRecordedWithTheirFullRows() throws Exception {
        RecordedHistory recorded = RecordedRun.record("statements", mariadb.dataSource(), ds -> {
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(false);
                try (Statement s = c.createStatement()) {
                    assertThat(s.executeUpdate("INSERT INTO notes (id, body) VALUES (1, 'one'), (2, 'two')")).isEqualTo(2);
                    assertThat(s.executeUpdate("UPDATE `notes` SET body = concat(body, '!') WHERE id = 1 AND body = 'one'")).isOne();
                    assertThat(s.execute("DELETE FROM notes WHERE id = 2")).isFalse();
                    assertThat(s.getUpdateCount()).isOne();
                }
                try (PreparedStatement s = c.prepareStatement("UPDATE counters SET n = n + ? WHERE id = ?")) {
                    s.setInt(1, 5);
                    s.setInt(2, 1);
                    assertThat(s.executeUpdate()).isOne();
                    s.setInt(2, 9);
                    assertThat(s.executeUpdate()).isZero();
                }
                c.commit();
            }
        });
        assertThat(recorded.notModelled()).isEmpty();
        assertThat(recorded.history().transactions()).extracting(Object::toString).singleElement().asString().contains(
                "w(notes/1, {\"body\":\"one\",\"id\":1})", "w(notes/1, {\"body\":\"one!\",\"id\":1})", "w(notes/2, null)",
                "w(counters/1, {\"id\":1,\"n\":5})");
        assertThat(RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();
    }

    /**
     * An UPDATE in a transaction whose WHERE does not name its rows by key, but is made of columns
     * it does not change, literals, parameters and operators, is read back by that WHERE: the rows
     * it changed are held by the transaction and still selected, so a read finding as many rows as
     * it changed found those. A WHERE of anything else, or over a column the UPDATE changes or the
     * database may change (a TIMESTAMP), leaves the table out, saying why.
     */
    @Test
    void anUpdateByItsOwnStableWhereIsReadBackByIt() throws Exception {
        database().run("DROP TABLE IF EXISTS jobs", "CREATE TABLE jobs (id INT PRIMARY KEY, grp INT NOT NULL, state VARCHAR(10),"
                        + " n INT NOT NULL, touched TIMESTAMP NULL DEFAULT NULL ON UPDATE CURRENT_TIMESTAMP)",
                "INSERT INTO jobs (id, grp, state, n) VALUES (1, 1, 'open', 0), (2, 1, 'open', 0), (3, 2, 'open', 150), (4, 3, 'shut', 0)");
        for (DataSource driver : new DataSource[] {mariadb.dataSource(), mariadb.mysqlDriver()}) {
            RecordedHistory recorded = RecordedRun.record("by where", driver, ds -> {
                try (Connection c = ds.getConnection()) {
                    c.setAutoCommit(false);
                    try (PreparedStatement s = c.prepareStatement("UPDATE jobs SET n = n + 1 WHERE grp = ? AND state <> 'gone'")) {
                        s.setInt(1, 1);
                        assertThat(s.executeUpdate()).isEqualTo(2);
                        s.setInt(1, 99);
                        assertThat(s.executeUpdate()).isZero();
                    }
                    try (Statement s = c.createStatement()) {
                        assertThat(s.executeUpdate("UPDATE jobs SET n = 7 WHERE (grp = 2 AND state LIKE 'o%')"
                                + " OR grp BETWEEN 100 AND 120 OR grp IN (7, 8)")).isOne();
                    }
                    c.commit();
                }
            });
            assertThat(recorded.notModelled()).as("%s", driver).isEmpty();
            assertThat(recorded.history().transactions()).extracting(Object::toString).singleElement().asString()
                    .contains("w(jobs/1, {", "w(jobs/2, {", "w(jobs/3, {").doesNotContain("w(jobs/4");
            assertThat(RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();
        }
        String[][] cases = {
                {"UPDATE jobs SET grp = 5 WHERE grp = 3", "changes a column its WHERE reads"},
                {"UPDATE jobs SET n = 1 WHERE touched IS NULL AND grp = 3", "a date or time"},
                {"UPDATE jobs SET n = 2 WHERE LOWER(state) = 'shut'", "by its own WHERE"},
                {"UPDATE jobs SET n = 3 WHERE grp = (SELECT 3)", "by its own WHERE"},
                {"UPDATE jobs SET n = 4 WHERE grp = 3 ORDER BY id LIMIT 1", "LIMIT or ORDER BY"},
                {"UPDATE jobs j SET n = 5 WHERE j.grp = 3", "by its own WHERE"},
        };
        for (String[] c : cases) {
            database().run("UPDATE jobs SET grp = 3, state = 'shut', n = 0, touched = NULL WHERE id = 4");
            assertThat(leftOutInATransaction(c[0], 1, false)).satisfies(n -> {
                assertThat(n.subject()).isEqualTo("table jobs (statement: " + c[0] + ")");
                assertThat(n.reason()).contains(c[1]);
            });
        }
    }

    /**
     * What a statement or its driver could make the recorder read wrongly is left out, saying why:
     * a key set under a quoted name ({@code `id`}); an ENUM column, which MariaDB's driver calls
     * VARCHAR but which stores another value than the string written; a parameter bound with a
     * type of its own ({@code setObject(i, 5, Types.VARCHAR)}, compared as the string '5', which a
     * read back bound with 5 would not do); a table named with its database, even where the
     * UPDATE changed nothing; and a driver that counts the rows changed, not found
     * ({@code useAffectedRows=true}), whose 0 does not say the WHERE matched nothing.
     */
    @Test
    void writesTheRecorderCouldReadWronglyAreLeftOut() throws Exception {
        database().run("DROP TABLE IF EXISTS jobs", "CREATE TABLE jobs (id INT PRIMARY KEY, grp INT NOT NULL, state VARCHAR(10),"
                        + " n INT NOT NULL)", "INSERT INTO jobs VALUES (1, 1, '5', 7), (2, 1, 'x', 0)",
                "DROP TABLE IF EXISTS kinds", "CREATE TABLE kinds (id INT PRIMARY KEY, kind ENUM('a', 'b'))");
        String[][] inTransaction = {
                {"UPDATE jobs SET `id` = id + 100 WHERE grp = 1", "2", "or changes the key"},
                {"UPDATE recorder.jobs SET n = 1 WHERE grp = 99", "0", "with a database or schema"},
        };
        for (String[] c : inTransaction) {
            database().run("DELETE FROM jobs", "INSERT INTO jobs VALUES (1, 1, '5', 7), (2, 1, 'x', 0)");
            assertThat(leftOutInATransaction(c[0], Integer.parseInt(c[1]), false).reason()).as(c[0]).contains(c[2]);
        }
        database().run("DELETE FROM jobs", "INSERT INTO jobs VALUES (1, 1, '5', 7), (2, 1, 'x', 0)");
        RecordedHistory retyped = RecordedRun.record("retyped", mariadb.dataSource(), ds -> {
            try (Connection conn = ds.getConnection()) {
                conn.setAutoCommit(false);
                try (PreparedStatement s = conn.prepareStatement("UPDATE jobs SET n = 1 WHERE state = ?")) {
                    s.setObject(1, 5, java.sql.Types.VARCHAR);
                    assertThat(s.executeUpdate()).isOne();
                }
                conn.commit();
            }
        });
        assertThat(retyped.notModelled()).singleElement().satisfies(n -> assertThat(n.reason()).contains("by a plain setter"));
        RecordedHistory enumerated = RecordedRun.record("enum", mariadb.dataSource(), ds -> {
            try (Connection conn = ds.getConnection(); Statement s = conn.createStatement()) {
                assertThat(s.executeUpdate("INSERT INTO kinds (id, kind) VALUES (1, 'A')", Statement.RETURN_GENERATED_KEYS)).isOne();
            }
        });
        assertThat(enumerated.notModelled()).singleElement().satisfies(n -> assertThat(n.subject()).startsWith("table kinds"));

        String mysql = mariadb.url().replace("jdbc:mariadb:", "jdbc:mysql:") + "?sslMode=DISABLED&allowPublicKeyRetrieval=true";
        org.mariadb.jdbc.MariaDbDataSource changedOnly = new org.mariadb.jdbc.MariaDbDataSource(mariadb.url() + "?useAffectedRows=true");
        changedOnly.setUser("root");
        changedOnly.setPassword("");
        com.mysql.cj.jdbc.MysqlDataSource mysqlChangedOnly = new com.mysql.cj.jdbc.MysqlDataSource();
        mysqlChangedOnly.setUrl(mysql + "&useAffectedRows=true");
        mysqlChangedOnly.setUser("root");
        mysqlChangedOnly.setPassword("");
        for (DataSource driver : new DataSource[] {changedOnly, mysqlChangedOnly}) {
            for (String same : new String[] {"UPDATE jobs SET n = 7 WHERE id = 1", "UPDATE jobs SET n = 7 WHERE state = '5'"}) {
                database().run("DELETE FROM jobs", "INSERT INTO jobs VALUES (1, 1, '5', 7), (2, 1, 'x', 0)");
                RecordedHistory counted = RecordedRun.record("changed rows", driver, ds -> {
                    try (Connection conn = ds.getConnection()) {
                        conn.setAutoCommit(false);
                        try (Statement s = conn.createStatement()) {
                            assertThat(s.executeUpdate(same)).as(same).isZero();
                        }
                        conn.commit();
                    }
                });
                assertThat(counted.notModelled()).as("%s %s", driver, same).singleElement().satisfies(n -> assertThat(n.reason())
                        .containsAnyOf("useAffectedRows", "not the 0 it changed"));
            }
        }
    }

    @Test
    void anUpdateOfSeveralRowsOrWithoutItsKeyLeavesItsTableOutSayingWhy() throws Exception {
        RecordedHistory recorded = RecordedRun.record("several", mariadb.dataSource(), ds -> {
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(false);
                try (Statement s = c.createStatement()) {
                    assertThat(s.executeUpdate("UPDATE doctors SET on_call = FALSE WHERE on_call")).isEqualTo(2);
                }
                c.commit();
            }
        });
        assertThat(recorded.notModelled()).singleElement().satisfies(n -> {
            assertThat(n.subject()).startsWith("table doctors");
            assertThat(n.reason()).contains("changes a column its WHERE reads");
        });
    }

    /**
     * A deadlock rolls the whole transaction back on MariaDB, and the application's next statement
     * starts another (auto-commit stays off): what it writes after the deadlock commits, what it
     * wrote before does not. An application that goes on without rolling back must not have its
     * rolled-back writes recorded as committed, nor its later ones as rolled back.
     */
    @Test
    void aDeadlockEndsTheTransactionAndTheNextStatementStartsAnother() throws Exception {
        database().run("UPDATE counters SET n = 0 WHERE id = 1", "INSERT INTO counters VALUES (2, 0)");
        RecordedHistory recorded = RecordedRun.record("deadlock", mariadb.dataSource(), ds -> {
            try (Connection a = open(ds, Connection.TRANSACTION_REPEATABLE_READ);
                 Connection b = open(ds, Connection.TRANSACTION_REPEATABLE_READ)) {
                setCounter(a, 1, 10);
                setCounter(b, 2, 20);
                java.util.concurrent.CompletableFuture<Integer> waiting = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                    try {
                        return setCounter(a, 2, 11);
                    } catch (SQLException e) {
                        return -e.getErrorCode();
                    }
                });
                Thread.sleep(300);
                int second;
                try {
                    second = setCounter(b, 1, 21);
                } catch (SQLException e) {
                    second = -e.getErrorCode();
                }
                int first = waiting.get(20, java.util.concurrent.TimeUnit.SECONDS);
                assertThat(java.util.List.of(first, second)).as("one of the two is the deadlock's victim").contains(-1213, 1);
                Connection victim = first == -1213 ? a : b;
                (victim == a ? b : a).commit();
                // The victim goes on without rolling back: a new transaction, which commits.
                setCounter(victim, 1, 99);
                victim.commit();
            }
        });
        try (Connection c = mariadb.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT n FROM counters WHERE id = 1")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(99);
        }
        RecordedHistory after = RecordedRun.record("read after", mariadb.dataSource(), ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                drain(s.executeQuery("SELECT * FROM counters WHERE id IN (1, 2)"));
            }
        });
        assertThat(recorded.notModelled()).isEmpty();
        assertThat(recorded.history().transactions()).extracting(Object::toString)
                .anySatisfy(t -> assertThat(t).contains("w(counters/1, {\"id\":1,\"n\":99})"));
        CheckResult result = RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE);
        assertThat(result.isSatisfied()).as("%s%n%s", recorded.history().transactions(), result.explanationText().orElse(""))
                .isTrue();
        assertThat(after.history().transactions()).isNotEmpty();
    }

    private static int setCounter(Connection c, int id, int n) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("UPDATE counters SET n = ? WHERE id = ?")) {
            s.setInt(1, n);
            s.setInt(2, id);
            return s.executeUpdate();
        }
    }

    /**
     * MySQL's driver refuses an INSERT or DELETE through {@code executeQuery} before sending it:
     * the writes rewritten with RETURNING are sent through {@code execute} there, and the
     * application gets its counts as it would have.
     */
    @Test
    void insertsAndDeletesThroughMysqlsDriverAreRecordedWithTheirRows() throws Exception {
        RecordedHistory recorded = RecordedRun.record("mysql driver writes", mariadb.mysqlDriver(), ds -> {
            try (Connection c = ds.getConnection()) {
                try (Statement s = c.createStatement()) {
                    assertThat(s.executeUpdate("INSERT INTO notes (id, body) VALUES (1, 'one'), (2, 'two')")).isEqualTo(2);
                    assertThat(s.execute("DELETE FROM notes WHERE id = 2")).isFalse();
                    assertThat(s.getUpdateCount()).isOne();
                }
                try (PreparedStatement s = c.prepareStatement("INSERT INTO notes (id, body) VALUES (?, ?)")) {
                    s.setInt(1, 3);
                    s.setString(2, "three");
                    assertThat(s.executeUpdate()).isOne();
                    assertThat(s.getUpdateCount()).isOne();
                }
            }
        });
        assertThat(recorded.notModelled()).isEmpty();
        assertThat(recorded.history().transactions()).extracting(Object::toString).anySatisfy(t -> assertThat(t)
                .contains("w(notes/1, {\"body\":\"one\",\"id\":1})")).anySatisfy(t -> assertThat(t).contains("w(notes/2, null)"))
                .anySatisfy(t -> assertThat(t).contains("w(notes/3, {\"body\":\"three\",\"id\":3})"));
        assertThat(RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();
    }

    /** The same scenarios through MySQL's JDBC driver, which calls the server MySQL and says MariaDB in its version. */
    @Test
    void mysqlsDriverIsRecordedAsMariadbAndTheLostUpdateIsCaught() throws Exception {
        DataSource mysql = mariadb.mysqlDriver();
        RecordedHistory recorded = RecordedRun.record("mysql driver", mysql, ds -> {
            try (Connection a = open(ds, Connection.TRANSACTION_REPEATABLE_READ);
                 Connection b = open(ds, Connection.TRANSACTION_REPEATABLE_READ)) {
                int seenByA = counter(a);
                int seenByB = counter(b);
                try (PreparedStatement s = a.prepareStatement("UPDATE counters SET n = ? WHERE id = 1")) {
                    s.setInt(1, seenByA + 1);
                    assertThat(s.executeUpdate()).isOne();
                }
                a.commit();
                try (PreparedStatement s = b.prepareStatement("UPDATE counters SET n = ? WHERE id = 1")) {
                    s.setInt(1, seenByB + 1);
                    assertThat(s.executeUpdate()).isOne();
                }
                b.commit();
            }
        });
        assertThat(recorded.notModelled()).isEmpty();
        CheckResult result = RecordedRun.check(recorded, IsolationLevel.SERIALIZABLE);
        assertThat(result.isViolated()).as("%s", recorded.history().transactions()).isTrue();
        assertThat(RecordedRun.cycleTypes(result)).containsAnyOf(AnomalyType.G2_ITEM, AnomalyType.G_SINGLE);
    }
}
