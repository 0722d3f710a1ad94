package dev.isocheck.internal.recording.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.CheckResult;
import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.recording.RecordedHistory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * On PostgreSQL 17, whose UPDATE returns no old row and whose log gives it only when the key
 * changed, an UPDATE that changed a row records that the row was there: a read of its key columns
 * alone before the write, from the statements' rows ({@code logical} false) and from the log
 * ({@code logical} true). Skipped where the build has not copied 17's binaries.
 */
class Postgres17PresentReadsTests {

    private static PostgresDatabase server(boolean logical) throws SQLException {
        PostgresDatabase server = Postgres17ConstructsTests.server(logical);
        server.run("DROP TABLE IF EXISTS doctors", "CREATE TABLE doctors (id int PRIMARY KEY, name text, shifts int NOT NULL)",
                "INSERT INTO doctors VALUES (1, 'alice', 0)");
        return server;
    }

    /**
     * At READ COMMITTED a transaction reads doctor 3 absent, another inserts it, and the first
     * one's UPDATE then finds and changes it: a read that cannot be repeated, which snapshot
     * isolation and serializability forbid and read committed allows. Without the read of the row
     * present, the history would say only that the transaction wrote a row it had seen absent,
     * which a serial order explains (the insert after it).
     */
    @ParameterizedTest(name = "logical decoding: {0}")
    @ValueSource(booleans = {false, true})
    void anUpdateOfARowItsTransactionHadReadAbsentIsANonRepeatableRead(boolean logical) throws Exception {
        PostgresDatabase server = server(logical);
        RecordedHistory recorded = RecordedRun.record("present after absent", server.dataSource(), ds -> {
            try (Connection a = ds.getConnection(); Connection b = ds.getConnection()) {
                a.setAutoCommit(false);
                a.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
                assertThat(shifts(a, 3)).isNull();
                try (Statement s = b.createStatement()) {
                    s.executeUpdate("INSERT INTO doctors VALUES (3, 'cid', 0)");
                }
                assertThat(setShifts(a, 3, 1)).isOne();
                a.commit();
            }
        });

        assertThat(recorded.notModelled()).isEmpty();
        assertThat(recorded.history().transactions()).extracting(Object::toString).anySatisfy(t -> assertThat(t)
                .contains("r(doctors/3, null) r(doctors/3, {\"id\":3}) w(doctors/3, {\"id\":3,\"name\":\"cid\",\"shifts\":1})"));
        assertThat(RecordedRun.check(recorded, IsolationLevel.READ_COMMITTED).isSatisfied()).isTrue();
        for (IsolationLevel level : List.of(IsolationLevel.SNAPSHOT_ISOLATION, IsolationLevel.SERIALIZABLE)) {
            CheckResult result = RecordedRun.check(recorded, level);
            assertThat(result.isViolated()).as("at %s", level).isTrue();
        }
    }

    /**
     * A lost update of a row the test inserted: still caught, the UPDATEs reading the row
     * present; and where they serialise on the row's lock (an UPDATE computing from the row
     * itself), nothing is reported at strict serializability.
     */
    @ParameterizedTest(name = "logical decoding: {0}")
    @ValueSource(booleans = {false, true})
    void aLostUpdateIsCaughtAndIncrementsInPlacePass(boolean logical) throws Exception {
        PostgresDatabase server = server(logical);
        RecordedHistory lost = RecordedRun.record("lost update", server.dataSource(), ds -> {
            insertDoctorTwo(ds);
            try (Connection a = ds.getConnection(); Connection b = ds.getConnection()) {
                a.setAutoCommit(false);
                b.setAutoCommit(false);
                int seenByA = shifts(a, 2);
                int seenByB = shifts(b, 2);
                setShifts(a, 2, seenByA + 1);
                a.commit();
                setShifts(b, 2, seenByB + 5);
                b.commit();
            }
        });
        assertThat(lost.notModelled()).isEmpty();
        assertThat(lost.history().transactions()).extracting(Object::toString)
                .filteredOn(t -> t.contains("r(doctors/2, {\"id\":2}) w(doctors/2,")).hasSize(2);
        assertThat(RecordedRun.check(lost, IsolationLevel.STRICT_SERIALIZABLE).isViolated()).isTrue();

        RecordedHistory inPlace = RecordedRun.record("increments", server.dataSource(), ds -> {
            insertDoctorTwo(ds);
            try (Connection a = ds.getConnection(); Connection b = ds.getConnection(); Statement sa = a.createStatement();
                 Statement sb = b.createStatement()) {
                a.setAutoCommit(false);
                b.setAutoCommit(false);
                assertThat(sa.executeUpdate("UPDATE doctors SET shifts = shifts + 1 WHERE id = 2")).isOne();
                a.commit();
                assertThat(sb.executeUpdate("UPDATE doctors SET shifts = shifts + 5 WHERE id = 2")).isOne();
                assertThat(sb.executeUpdate("DELETE FROM doctors WHERE id = 2")).isOne();
                b.commit();
                assertThat(shifts(a, 2)).isNull();
                a.commit();
            }
        });
        assertThat(inPlace.notModelled()).isEmpty();
        CheckResult result = RecordedRun.check(inPlace, IsolationLevel.STRICT_SERIALIZABLE);
        assertThat(result.isSatisfied()).as("%s%n%s", inPlace.history().transactions(), result.explanationText().orElse(""))
                .isTrue();
    }

    /**
     * An upsert that inserted its row read nothing: the row was not there. One that updated it
     * read it present where the log says it updated (an UPDATE there); its statement's rows do
     * not tell the two apart, so from the statements it reads nothing either way.
     */
    @ParameterizedTest(name = "logical decoding: {0}")
    @ValueSource(booleans = {false, true})
    void anUpsertReadsTheRowPresentOnlyWhereTheLogSaysItUpdated(boolean logical) throws Exception {
        PostgresDatabase server = server(logical);
        String upsert = "INSERT INTO doctors VALUES (4, 'dan', 0) ON CONFLICT (id) DO UPDATE SET shifts = doctors.shifts + 1";
        RecordedHistory recorded = RecordedRun.record("upserts", server.dataSource(), ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                assertThat(s.executeUpdate(upsert)).isOne();
                assertThat(s.executeUpdate(upsert)).isOne();
            }
        });

        assertThat(recorded.notModelled()).isEmpty();
        assertThat(recorded.history().transactions()).extracting(Object::toString).containsExactly(
                // The log says the first inserted (its key was absent), the second updated; the
                // statements say only that an upsert wrote.
                "T1: " + (logical ? "r(doctors/4, null) " : "") + "w(doctors/4, {\"id\":4,\"name\":\"dan\",\"shifts\":0})",
                "T2: " + (logical ? "r(doctors/4, {\"id\":4}) " : "") + "w(doctors/4, {\"id\":4,\"name\":\"dan\",\"shifts\":1})");
        assertThat(RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();
    }

    /**
     * From the log: an UPDATE that moves a row to another key read it present under its old key
     * only (the new one was free); and where the log would not show a changed key (replica
     * identity NOTHING), it reads nothing, since the row it changed may have had another key.
     * (From the statements, an UPDATE that sets a key column leaves its table out on 17.)
     */
    @Test
    void aRowMovedToAnotherKeyWasPresentUnderItsOldOne() throws Exception {
        PostgresDatabase server = server(true);
        RecordedHistory moved = RecordedRun.record("moved", server.dataSource(), ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                assertThat(s.executeUpdate("UPDATE doctors SET id = 5 WHERE id = 1")).isOne();
            }
        });
        assertThat(moved.history().transactions()).extracting(Object::toString).containsExactly(
                "T1: r(doctors/1, {\"id\":1}) w(doctors/1, null) w(doctors/5, {\"id\":5,\"name\":\"alice\",\"shifts\":0})");

        server.run("ALTER TABLE doctors REPLICA IDENTITY NOTHING");
        RecordedHistory unseen = RecordedRun.record("identity nothing", server.dataSource(), ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                assertThat(s.executeUpdate("UPDATE doctors SET shifts = 2 WHERE id = 5")).isOne();
            }
        });
        assertThat(unseen.history().transactions()).extracting(Object::toString).containsExactly(
                "T1: w(doctors/5, {\"id\":5,\"name\":\"alice\",\"shifts\":2})");
    }

    private static void insertDoctorTwo(javax.sql.DataSource ds) throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("DELETE FROM doctors WHERE id = 2");
            s.executeUpdate("INSERT INTO doctors VALUES (2, 'bob', 0)");
        }
    }

    private static Integer shifts(Connection c, int id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT shifts FROM doctors WHERE id = ?")) {
            s.setInt(1, id);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? rs.getInt(1) : null;
            }
        }
    }

    private static int setShifts(Connection c, int id, int shifts) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("UPDATE doctors SET shifts = ? WHERE id = ?")) {
            s.setInt(1, shifts);
            s.setInt(2, id);
            return s.executeUpdate();
        }
    }
}
