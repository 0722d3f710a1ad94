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
class MariadbBinlogScenariosTests extends MariadbScenarios {

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
    boolean writesFromLog() {
        return true;
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

    /**
     * MariaDB's driver sends the entries of a batch in auto-commit mode one by one, each its own
     * transaction: the log shows two, in the order the server committed them, and the recorded
     * batch, whose GTID would be only the last one's, claims neither.
     */
    @Override
    @Test
    void aBatchThatWritesOneRowTwiceLeavesItsTableOut() throws Exception {
        RecordedHistory recorded = batchWritingOneRowTwice();
        assertThat(recorded.notModelled()).isEmpty();
        assertThat(recorded.history().transactions()).extracting(Object::toString)
                .containsExactly("T1: ", "T2: r(counters/1, {\"id\":1}) w(counters/1, {\"id\":1,\"n\":1})",
                        "T3: r(counters/1, {\"id\":1}) w(counters/1, {\"id\":1,\"n\":2})");
    }
}
