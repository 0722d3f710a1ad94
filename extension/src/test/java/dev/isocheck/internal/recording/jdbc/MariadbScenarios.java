package dev.isocheck.internal.recording.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.AnomalyType;
import dev.isocheck.CheckResult;
import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.recording.RecordedHistory;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * The recorder's scenarios as MariaDB answers them, whether its writes come from the statements
 * ({@link MariadbRecorderTests}) or from its binary log ({@link MariadbBinlogScenariosTests}):
 * strings compared ignoring case, booleans that are TINYINT(1), REPEATABLE READ that lets write
 * skew and lost updates commit, batches sent as one bulk command.
 */
abstract class MariadbScenarios extends RecorderScenarios {

    @Override
    boolean comparesStringsExactly() {
        return false;
    }

    @Override
    @Test
    void anUpdateThatRecomputesAGeneratedKeyMovesTheRowOrLeavesItsTableOut() {
        // MariaDB refuses a primary key on a generated column: no such table to write.
    }

    @Override
    int weakIsolation() {
        // InnoDB's REPEATABLE READ lets write skew and lost updates commit.
        return Connection.TRANSACTION_REPEATABLE_READ;
    }

    /**
     * An aggregate's rows come back through a hidden {@code JSON_ARRAYAGG} of its integer columns.
     * The count over a boolean (TINYINT(1), which may hold 2: read as true, aggregated as 2) reads
     * the rows it ranged over by their keys alone, without the boolean or its predicate: reads that
     * say nothing of which version they saw, so the write skew passes unseen (weaker, never wrong;
     * {@link MariadbRecorderTests#aCountOverIntegersIsAPredicateReadAndItsPhantomIsCaught} is the count the recorder
     * reads whole).
     */
    @Override
    @Test
    void aCountOverAPredicateIsAPredicateReadOfTheRowsItRangedOver() throws Exception {
        RecordedHistory recorded = countThenGoOffCall();
        assertThat(recorded.history().transactions()).extracting(Object::toString)
                .anySatisfy(t -> assertThat(t).contains("r(doctors/1, {\"id\":1})", "r(doctors/2, {\"id\":2})"));
        assertThat(RecordedRun.check(recorded, IsolationLevel.SERIALIZABLE).isSatisfied()).isTrue();
    }

    /**
     * MariaDB's driver sends a prepared batch in one bulk command, which the server runs as one
     * statement: when an entry fails, none of the batch stands, in auto-commit mode too. From the
     * statements a batch is not recorded: its table is left out whether its transaction commits or
     * not; from the log, what stands is known, and nothing is left out. What was recorded passes.
     */
    @Override
    @Test
    void aFailedBatchInAutoCommitModeLeavesItsTableOut() throws Exception {
        for (boolean autoCommit : new boolean[] {true, false}) {
            database().run("DELETE FROM notes");
            boolean[] exists = new boolean[1];
            RecordedHistory recorded = RecordedRun.record("failed batch", database().dataSource(), ds -> {
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
            if (writesFromLog()) {
                // The log says what stands: nothing.
                assertThat(recorded.notModelled()).isEmpty();
            } else {
                assertThat(recorded.notModelled()).singleElement().satisfies(n -> assertThat(n.subject()).startsWith("table notes"));
            }
            assertThat(RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();
        }
    }

    @Override
    @Test
    void aFailedBatchInATransactionThatCommitsLeavesItsTableOut() {
        // Above, with auto-commit off.
    }

    @Override
    @Test
    void aPhantomThatCommitsIsCaughtThroughPredicateReads() throws Exception {
        RecordedHistory recorded = RecordedRun.record("phantom", database().dataSource(), ds -> {
            try (Connection a = open(ds, weakIsolation()); Connection b = open(ds, weakIsolation())) {
                // Each adds a counter after finding none above 5, which neither sees the other add.
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
        // Its predicate ranges over on_call: see above.
    }

    @Override
    @Test
    void aQueryWhoseProjectionOmitsItsWhereIsCheckedAsThePredicateItIs() {
        // Its predicate ranges over on_call: see above.
    }

    @Override
    @Test
    void aDeleteReadsTheRowsItRemovedAsThePredicateOfItsWhere() {
        // Its predicate ranges over on_call: see above.
    }
}
