package dev.isocheck.internal.recording.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.recording.RecordedHistory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * The recorder on HSQLDB, a database without RETURNING: reads are recorded, and writes through
 * the generated keys HSQLDB gives for every column asked for by name.
 */
class HsqldbRecorderTests extends RecorderScenarios {

    @Override
    TestDatabase database() {
        return () -> hsqldb;
    }

    /** HSQLDB's collations are not read: its strings may compare by a collation, padded with spaces. */
    @Override
    boolean comparesStringsExactly() {
        return false;
    }

    @Override
    int weakIsolation() {
        // In MVCC mode, HSQLDB's REPEATABLE READ is snapshot isolation: write skew commits.
        return Connection.TRANSACTION_REPEATABLE_READ;
    }

    /** HSQLDB has no ordered array aggregate: an aggregate is not recorded, the write skew through one not seen. */
    @Override
    @Test
    void aCountOverAPredicateIsAPredicateReadOfTheRowsItRangedOver() throws Exception {
        RecordedHistory recorded = RecordedRun.record("count", hsqldb, ds -> {
            try (Connection c = ds.getConnection()) {
                assertThat(onCallCount(c)).isEqualTo(2);
            }
        });
        assertThat(recorded.notModelled()).singleElement().satisfies(n -> {
            assertThat(n.subject()).isEqualTo("the query SELECT count(*) FROM doctors WHERE on_call = ?");
            assertThat(n.reason()).contains("aggregate");
        });
        assertThat(recorded.history().transactions()).extracting(Object::toString).containsExactly("T1: ");
    }

    @Override
    @Test
    void aggregatesOfEveryKindAndNoRowsAreRecordedAsTheirPredicate() {
        // Not recorded on HSQLDB: see above.
    }


    private final DataSource hsqldb = InvisibilityTests.hsqldb("recorder");

    @Test
    void aWriteToATableFirstMetInsideATransactionLeavesItOut() throws Exception {
        try (Connection c = hsqldb.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS rooms");
            s.execute("CREATE TABLE rooms (id INT PRIMARY KEY, free BOOLEAN NOT NULL)");
        }
        RecordedHistory recorded = RecordedRun.record("first met", hsqldb, ds -> {
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(false);
                try (Statement s = c.createStatement()) {
                    s.executeQuery("SELECT * FROM doctors").close();
                    // The columns of rooms are not known, and are not looked up inside the transaction.
                    assertThat(s.executeUpdate("INSERT INTO rooms VALUES (1, TRUE)")).isEqualTo(1);
                }
                c.commit();
            }
        });

        assertThat(recorded.notModelled()).singleElement().satisfies(n -> assertThat(n.subject()).startsWith("table rooms"));
    }

    @Test
    void readsAndWritesAreRecordedWritesThroughTheirGeneratedKeys() throws Exception {
        try (Connection c = hsqldb.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS doctors");
            s.execute("DROP TABLE IF EXISTS shifts");
            s.execute("CREATE TABLE doctors (id INT PRIMARY KEY, on_call BOOLEAN NOT NULL)");
            s.execute("INSERT INTO doctors VALUES (1, TRUE), (2, TRUE)");
            s.execute("CREATE TABLE shifts (id INT PRIMARY KEY, slots INT NOT NULL)");
            s.execute("INSERT INTO shifts VALUES (1, 3)");
        }
        RecordedHistory recorded = RecordedRun.record("hsqldb", hsqldb, ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                try (ResultSet rs = s.executeQuery("SELECT slots FROM shifts WHERE id = 1")) {
                    assertThat(rs.next()).isTrue();
                }
                assertThat(s.executeUpdate("UPDATE doctors SET on_call = FALSE WHERE id = 1")).isEqualTo(1);
            }
        });

        assertThat(recorded.notModelled()).isEmpty();
        // A point lookup is keyed by its WHERE and gets no hidden key column: the read has the columns selected.
        assertThat(recorded.history().transactions()).extracting(Object::toString)
                .containsExactly("T1: r(shifts/1, {\"slots\":3})", "T2: r(doctors/1, {\"id\":1}) w(doctors/1, {\"id\":1,\"on_call\":false})");
        assertThat(RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();
    }
}
