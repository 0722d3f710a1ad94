package dev.isocheck.internal.recording.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.CheckResult;
import dev.isocheck.IsolationLevel;
import dev.isocheck.explain.AnomalyCycle;
import dev.isocheck.explain.Explanation;
import dev.isocheck.internal.recording.RecordedHistory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hermitage's anomalies of a write whose WHERE is a predicate, at READ COMMITTED on PostgreSQL 18
 * and 17, with the writes taken from the log and from the statements: a {@code DELETE ... WHERE
 * v = 20} that deleted nothing is a predicate read that returned nothing, and the explanation is
 * the two-transaction cycle through the row it missed and the row whose new version it saw.
 */
@DisplayName("writes with a predicate (Hermitage's G-single and PostgreSQL's re-check) explained by their cycles")
class WritePredicateTests {

    static Stream<Arguments> databases() throws Throwable {
        return Stream.of(
                Arguments.of("PostgreSQL 18, writes from logical decoding", PostgresDatabase.logical().dataSource()),
                Arguments.of("PostgreSQL 18, writes from the statements", PostgresDatabase.get().dataSource()),
                Arguments.of("PostgreSQL 17, writes from logical decoding", PostgresDatabase.release17(true).dataSource()),
                Arguments.of("PostgreSQL 17, writes from the statements", PostgresDatabase.release17(false).dataSource()));
    }

    static Stream<Arguments> databasesAndH2() throws Throwable {
        org.h2.jdbcx.JdbcDataSource h2 = new org.h2.jdbcx.JdbcDataSource();
        h2.setURL("jdbc:h2:mem:write-predicates;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000");
        return Stream.concat(databases(), Stream.of(Arguments.of("H2", h2)));
    }

    private static void createTable(DataSource database, String table) throws SQLException {
        try (Connection c = database.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + table);
            s.execute("CREATE TABLE " + table + " (id INT PRIMARY KEY, v INT NOT NULL)");
        }
    }

    private static Connection begin(DataSource recorded) throws SQLException {
        Connection c = recorded.getConnection();
        c.setAutoCommit(false);
        c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        return c;
    }

    private static void execute(Connection c, String sql, int... parameters) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setInt(i + 1, parameters[i]);
            }
            if (statement.execute()) {
                try (ResultSet rows = statement.getResultSet()) {
                    while (rows.next()) {
                        // read to the end, as an application does
                    }
                }
            }
        }
    }

    private static int update(Connection c, String sql, int... parameters) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setInt(i + 1, parameters[i]);
            }
            return statement.executeUpdate();
        }
    }

    /** Rows 1 and 2 at 10 and 20, set up without recording: their values are known only from what the test reads. */
    private static void insertRows(DataSource recorded, String table) throws SQLException {
        try (Connection c = recorded.getConnection()) {
            update(c, "INSERT INTO " + table + " (id, v) VALUES (1, 10), (2, 20)");
        }
    }

    /** The one case of a certain explanation, with a cycle of two transactions. */
    private static AnomalyCycle twoTransactionCycle(RecordedHistory recorded, IsolationLevel level) {
        assertThat(recorded.notModelled()).isEmpty();
        CheckResult result = RecordedRun.check(recorded, level);
        assertThat(result.isViolated()).as(result.toString()).isTrue();
        Explanation explanation = result.explanation().orElseThrow();
        assertThat(explanation).as("%s", explanation).isInstanceOf(Explanation.Cycles.class);
        Explanation.Cycles cycles = (Explanation.Cycles) explanation;
        assertThat(cycles.isCertain()).as("%s", cycles).isTrue();
        AnomalyCycle cycle = cycles.cases().get(0).cycle();
        assertThat(cycle.transactions()).hasSize(2);
        return cycle;
    }

    /**
     * T1 reads row 1; T2 reads both rows, sets them to 12 and 18, commits; T1's {@code DELETE ...
     * WHERE v = 20} deletes nothing: it saw T2's row 2 but not T2's row 1.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void gSingleWithAWritePredicate(String name, DataSource database) throws Exception {
        createTable(database, "g_single_wp");
        insertRows(database, "g_single_wp");
        RecordedHistory recorded = RecordedRun.record("G-single with a write predicate, " + name, database, ds -> {
            try (Connection t1 = begin(ds); Connection t2 = begin(ds)) {
                execute(t1, "SELECT * FROM g_single_wp WHERE id = 1");
                execute(t2, "SELECT * FROM g_single_wp");
                assertThat(update(t2, "UPDATE g_single_wp SET v = 12 WHERE id = 1")).isOne();
                assertThat(update(t2, "UPDATE g_single_wp SET v = 18 WHERE id = 2")).isOne();
                t2.commit();
                assertThat(update(t1, "DELETE FROM g_single_wp WHERE v = 20")).isZero();
                t1.commit();
            }
        });
        for (IsolationLevel level : new IsolationLevel[] {IsolationLevel.SERIALIZABLE, IsolationLevel.SNAPSHOT_ISOLATION}) {
            AnomalyCycle cycle = twoTransactionCycle(recorded, level);
            assertThat(cycle.anomaly()).isEqualTo("G-single");
            assertThat(cycle.toString()).contains("-rw g_single_wp/1->", "-wr g_single_wp/2->");
            assertThat(cycle.edges()).anySatisfy(edge -> {
                assertThat(edge.reason()).contains("DELETE FROM g_single_wp WHERE v = 20 did not match g_single_wp/2: it saw");
                assertThat(edge.unreturnedRow()).hasValueSatisfying(row -> assertThat(row.where()).isEqualTo("v = 20"));
            });
        }
    }

    /**
     * PostgreSQL's READ COMMITTED re-check: T1 adds 10 to both rows (20, 30); T2's {@code DELETE
     * ... WHERE v = 20} waits for T1's lock on row 2, re-checks it on T1's version (30) once T1
     * commits, and deletes nothing; row 1 it judged on its own snapshot (10). T2 missed T1's row 1
     * and saw its row 2. That T1's UPDATE read 10 and 20 is known where PostgreSQL 18 returns the
     * old rows to the statements; from the log (and on 17) only that the rows were there is, so
     * the values the DELETE judged may have been any, and the history is serializable with the
     * DELETE first: the check passes, as it must on what it was told.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void theReadCommittedRecheck(String name, DataSource database) throws Exception {
        createTable(database, "recheck");
        insertRows(database, "recheck");
        RecordedHistory recorded = RecordedRun.record("the re-check, " + name, database, ds -> recheck(ds, database, "recheck"));
        boolean oldRowsKnown = recorded.history().transactions().stream().anyMatch(t -> t.toString().contains("where TRUE"));
        assertThat(oldRowsKnown).as("the UPDATE's old rows are known").isEqualTo(name.equals("PostgreSQL 18, writes from the statements"));
        if (oldRowsKnown) {
            AnomalyCycle cycle = twoTransactionCycle(recorded, IsolationLevel.SERIALIZABLE);
            assertThat(cycle.toString()).contains("-predicate-rw recheck/1->", "-wr recheck/2->");
        } else {
            assertThat(recorded.notModelled()).isEmpty();
            assertThat(RecordedRun.check(recorded, IsolationLevel.SERIALIZABLE).isSatisfied()).isTrue();
        }
    }

    /**
     * The re-check after a set-up the test records: the rows' values are then known on every way,
     * and strict serializability (the set-up ended before both began) rules out the DELETE having
     * seen no rows at all. Every case of the explanation is a cycle of at most two transactions.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void theReadCommittedRecheckAfterARecordedSetUp(String name, DataSource database) throws Exception {
        createTable(database, "recheck_set_up");
        RecordedHistory recorded = RecordedRun.record("the re-check after a recorded set-up, " + name, database, ds -> {
            insertRows(ds, "recheck_set_up");
            recheck(ds, database, "recheck_set_up");
        });
        assertThat(recorded.notModelled()).isEmpty();
        CheckResult result = RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE);
        assertThat(result.isViolated()).as(result.toString()).isTrue();
        Explanation explanation = result.explanation().orElseThrow();
        assertThat(explanation).as("%s", explanation).isInstanceOf(Explanation.Cycles.class);
        for (Explanation.Case c : ((Explanation.Cycles) explanation).cases()) {
            assertThat(c.cycle().transactions()).as("%s", explanation).hasSizeLessThanOrEqualTo(2);
        }
    }

    private static void recheck(DataSource recorded, DataSource plain, String table) throws Exception {
        try (Connection t1 = begin(recorded); Connection t2 = begin(recorded)) {
            assertThat(update(t1, "UPDATE " + table + " SET v = v + 10")).isEqualTo(2);
            CompletableFuture<Integer> deleted = CompletableFuture.supplyAsync(() -> {
                try {
                    int count = update(t2, "DELETE FROM " + table + " WHERE v = 20");
                    t2.commit();
                    return count;
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }, task -> new Thread(task, "t2").start());
            awaitLockWait(plain, "DELETE FROM " + table);
            t1.commit();
            assertThat(deleted.get(10, TimeUnit.SECONDS)).isZero();
        }
    }

    /**
     * An UPDATE or DELETE that changed no row read that no row matched its WHERE, on every way
     * writes are recorded (from the log the write shows nothing, so this read is all there is of
     * it); one that changed a row, in a batch, or with a WHERE the checker does not evaluate
     * exactly, does not claim it.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("databasesAndH2")
    void aWriteThatChangedNothingReadThatNothingMatched(String name, DataSource database) throws Exception {
        createTable(database, "unmatched");
        insertRows(database, "unmatched");
        RecordedHistory recorded = RecordedRun.record("writes that changed nothing, " + name, database, ds -> {
            try (Connection c = begin(ds)) {
                assertThat(update(c, "UPDATE unmatched SET v = 0 WHERE v = ?", 99)).isZero();
                assertThat(update(c, "DELETE FROM unmatched WHERE v > ? AND v < ?", 90, 95)).isZero();
                try (Statement text = c.createStatement()) {
                    assertThat(text.executeUpdate("UPDATE unmatched SET v = 1 WHERE v = 98")).isZero();
                }
                assertThat(update(c, "UPDATE unmatched SET v = 11 WHERE v = ?", 10)).isOne();
                if (!name.equals("H2")) {
                    // (H2 returns no rows of a batch: its table would be left out.)
                    try (PreparedStatement batch = c.prepareStatement("DELETE FROM unmatched WHERE v = ?")) {
                        batch.setInt(1, 97);
                        batch.addBatch();
                        batch.executeBatch();
                    }
                }
                c.commit();
            }
        });
        assertThat(recorded.notModelled()).isEmpty();
        String transaction = recorded.history().transactions().get(0).toString();
        assertThat(transaction).contains("predicate(unmatched where v = 99) -> []", "predicate(unmatched where v > 90 AND v < 95) -> []",
                "predicate(unmatched where v = 98) -> []").doesNotContain("v = 97").doesNotContain("where v = 10) -> []");
        assertThat(RecordedRun.check(recorded, IsolationLevel.SERIALIZABLE).isSatisfied()).isTrue();
    }

    /**
     * A BEFORE DELETE trigger that returns NULL skips the row (a table that refuses deletes, or
     * a soft delete that marks the row instead): the DELETE reports 0 rows although its WHERE
     * matched one. That 0 is not "nothing matched": the read is not recorded where a trigger or a
     * rule may stand between the WHERE and the count, and the run passes.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aDeleteATriggerSkippedIsNotReadAsMatchingNothing(String name, DataSource database) throws Exception {
        for (String table : new String[] {"kept", "soft"}) {
            try (Connection c = database.getConnection(); Statement s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS " + table);
                s.execute("CREATE TABLE " + table + " (id INT PRIMARY KEY, v INT NOT NULL, deleted BOOLEAN NOT NULL DEFAULT false)");
                s.execute("CREATE OR REPLACE FUNCTION " + table + "_delete() RETURNS trigger AS $$ BEGIN"
                        + (table.equals("soft") ? " UPDATE soft SET deleted = true WHERE id = OLD.id;" : "")
                        + " RETURN NULL; END $$ LANGUAGE plpgsql");
                s.execute("CREATE TRIGGER " + table + "_delete BEFORE DELETE ON " + table + " FOR EACH ROW EXECUTE FUNCTION "
                        + table + "_delete()");
                s.execute("INSERT INTO " + table + " (id, v) VALUES (1, 20)");
            }
            RecordedHistory recorded = RecordedRun.record("a skipped delete (" + table + "), " + name, database, ds -> {
                try (Connection c = begin(ds)) {
                    execute(c, "SELECT * FROM " + table + " WHERE id = 1");
                    assertThat(update(c, "DELETE FROM " + table + " WHERE v = 20")).isZero();
                    c.commit();
                }
            });
            assertThat(recorded.history().transactions()).extracting(Object::toString)
                    .noneMatch(t -> t.contains("where v = 20) -> []"));
            for (IsolationLevel level : new IsolationLevel[] {IsolationLevel.STRICT_SERIALIZABLE, IsolationLevel.SERIALIZABLE}) {
                assertThat(RecordedRun.check(recorded, level).isViolated()).as("%s at %s", recorded.history().transactions(), level)
                        .isFalse();
            }
        }
    }

    private static void awaitLockWait(DataSource database, String statementStart) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        try (Connection c = database.getConnection(); PreparedStatement waiting = c.prepareStatement(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND starts_with(query, ?)")) {
            waiting.setString(1, statementStart);
            while (true) {
                try (ResultSet rows = waiting.executeQuery()) {
                    rows.next();
                    if (rows.getInt(1) > 0) {
                        return;
                    }
                }
                assertThat(System.nanoTime()).as("a session waiting for a lock on %s", statementStart).isLessThan(deadline);
                Thread.sleep(10);
            }
        }
    }
}
