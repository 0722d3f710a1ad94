package dev.isocheck.internal.recording.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.AnomalyType;
import dev.isocheck.CheckResult;
import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.recording.RecordedHistory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The recorder's scenarios on a MariaDB server that keeps a row-based binary log: the writes come
 * from the log, read from where it stood at each test's first transaction, and the statements are
 * sent as written.
 */
class MariadbBinlogScenariosTests extends RecorderScenarios {

    private static MariadbDatabase mariadb;

    @BeforeAll
    static void server() throws Throwable {
        mariadb = MariadbDatabase.logged("binlog_scenarios");
    }

    @Override
    TestDatabase database() {
        return mariadb;
    }

    @Override
    int weakIsolation() {
        // InnoDB's REPEATABLE READ lets write skew and lost updates commit.
        return Connection.TRANSACTION_REPEATABLE_READ;
    }

    @Override
    boolean writesFromLog() {
        return true;
    }

    @Override
    boolean comparesStringsExactly() {
        return false;
    }

    @Override
    @Test
    void anUpdateThatRecomputesAGeneratedKeyMovesTheRowOrLeavesItsTableOut() {
        // MariaDB refuses a primary key on a generated column: no such table to write.
    }

    /**
     * The application asks for the key it gave: MariaDB's driver returns generated keys only for
     * an AUTO_INCREMENT column, so the scenario's own assertions on them are MariaDB's; the row
     * comes from the log, in a transaction and in auto-commit mode alike.
     */
    @Override
    @Test
    void keysTheApplicationAsksForByNameAreItsAndTheRecorderLearnsTheFullRow() throws Exception {
        for (boolean autoCommit : new boolean[] {false, true}) {
            int id = autoCommit ? 7 : 8;
            RecordedHistory recorded = RecordedRun.record("keys", mariadb.dataSource(), ds -> {
                try (Connection c = ds.getConnection()) {
                    c.setAutoCommit(autoCommit);
                    try (PreparedStatement s = c.prepareStatement("INSERT INTO notes (id, body) VALUES (?, ?)", new String[] {"id"})) {
                        s.setInt(1, id);
                        s.setString(2, "n" + id);
                        assertThat(s.executeUpdate()).isOne();
                    }
                    if (!autoCommit) {
                        c.commit();
                    }
                }
            });
            assertThat(recorded.notModelled()).isEmpty();
            assertThat(recorded.history().transactions()).extracting(Object::toString)
                    .anySatisfy(t -> assertThat(t).contains("w(notes/" + id + ", {\"body\":\"n" + id + "\",\"id\":" + id + "})"));
        }
    }

    /** As on MariaDB without the log: a count over a boolean reads its rows by their keys alone. */
    @Override
    @Test
    void aCountOverAPredicateIsAPredicateReadOfTheRowsItRangedOver() throws Exception {
        RecordedHistory recorded = countThenGoOffCall();
        assertThat(recorded.history().transactions()).extracting(Object::toString)
                .anySatisfy(t -> assertThat(t).contains("r(doctors/1, {\"id\":1})", "r(doctors/2, {\"id\":2})"));
        assertThat(RecordedRun.check(recorded, IsolationLevel.SERIALIZABLE).isSatisfied()).isTrue();
    }

    /** The phantom over an integer column (a WHERE over MariaDB's BOOLEAN, TINYINT(1), is no predicate read). */
    @Override
    @Test
    void aPhantomThatCommitsIsCaughtThroughPredicateReads() throws Exception {
        RecordedHistory recorded = RecordedRun.record("phantom", mariadb.dataSource(), ds -> {
            try (Connection a = open(ds, weakIsolation()); Connection b = open(ds, weakIsolation())) {
                int id = 10;
                for (Connection c : java.util.List.of(a, b)) {
                    try (Statement s = c.createStatement()) {
                        assertThat(drain(s.executeQuery("SELECT * FROM counters WHERE n > 5"))).isZero();
                    }
                }
                for (Connection c : java.util.List.of(a, b)) {
                    try (Statement s = c.createStatement()) {
                        s.executeUpdate("INSERT INTO counters VALUES (" + id++ + ", 9)");
                    }
                }
                a.commit();
                b.commit();
            }
        });
        assertThat(recorded.notModelled()).isEmpty();
        CheckResult result = RecordedRun.check(recorded, IsolationLevel.SERIALIZABLE);
        assertThat(result.isViolated()).as("%s", result.verdict()).isTrue();
        assertThat(RecordedRun.cycleTypes(result)).containsExactly(AnomalyType.G2);
    }

    @Override
    @Test
    void parametersBoundAgainBeforeTheResultIsFetchedDoNotChangeWhatWasRead() {
        // Its predicate ranges over on_call, a BOOLEAN: no predicate read on MariaDB.
    }

    @Override
    @Test
    void aQueryWhoseProjectionOmitsItsWhereIsCheckedAsThePredicateItIs() {
        // Its predicate ranges over on_call, a BOOLEAN: no predicate read on MariaDB.
    }

    @Override
    @Test
    void aDeleteReadsTheRowsItRemovedAsThePredicateOfItsWhere() {
        // Its predicate ranges over on_call, a BOOLEAN: no predicate read on MariaDB.
    }

    /**
     * MariaDB's driver sends a prepared batch as one bulk command, which the server runs as one
     * statement: when an entry fails, none stands, whether in auto-commit mode or in a transaction
     * that commits. The log says so: nothing is left out, and the later read is no alarm.
     */
    @Override
    @Test
    void aFailedBatchInAutoCommitModeLeavesItsTableOut() throws Exception {
        for (boolean autoCommit : new boolean[] {true, false}) {
            database().run("DELETE FROM notes");
            boolean[] exists = new boolean[1];
            RecordedHistory recorded = RecordedRun.record("failed batch", mariadb.dataSource(), ds -> {
                try (Connection c = ds.getConnection()) {
                    failedBatchOfNotes(c, autoCommit);
                    if (!autoCommit) {
                        c.commit();
                    }
                    exists[0] = noteExists(c, 1);
                    if (!autoCommit) {
                        c.commit();
                    }
                }
            });
            assertThat(exists[0]).as("no entry of a bulk batch that failed stands").isFalse();
            assertThat(recorded.notModelled()).isEmpty();
            assertThat(RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();
        }
    }

    @Override
    @Test
    void aFailedBatchInATransactionThatCommitsLeavesItsTableOut() {
        // Above, with auto-commit off.
    }

    /**
     * MariaDB's driver sends the entries of a batch in auto-commit mode one by one, each its own
     * transaction: the log shows two, in the order the server committed them, and the recorded
     * batch, whose GTID would be only the last one's, claims neither.
     */
    @Override
    @Test
    void aBatchThatWritesOneRowTwiceLeavesItsTableOut() throws Exception {
        RecordedHistory recorded = RecordedRun.record("batch twice", mariadb.dataSource(), ds -> {
            try (Connection c = ds.getConnection();
                 PreparedStatement s = c.prepareStatement("UPDATE counters SET n = ? WHERE id = ?")) {
                for (int n = 1; n <= 2; n++) {
                    s.setInt(1, n);
                    s.setInt(2, 1);
                    s.addBatch();
                }
                s.executeBatch();
            }
        });
        assertThat(recorded.notModelled()).isEmpty();
        assertThat(recorded.history().transactions()).extracting(Object::toString)
                .containsExactly("T1: ", "T2: r(counters/1, {\"id\":1}) w(counters/1, {\"id\":1,\"n\":1})",
                        "T3: r(counters/1, {\"id\":1}) w(counters/1, {\"id\":1,\"n\":2})");
    }
}
