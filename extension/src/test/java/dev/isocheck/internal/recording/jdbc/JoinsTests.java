package dev.isocheck.internal.recording.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.isocheck.CheckResult;
import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.recording.NotModelled;
import dev.isocheck.internal.recording.RecordedHistory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Joins are recorded: each row a join returns is a read of each table's row it was made of, from
 * every column of each table added to the query and hidden ({@code JoinReads}). An ORM's fetch of
 * a many-to-one association ({@code LEFT JOIN shift s ON s.id = d.shift_id WHERE d.id = ?}) is
 * exact; other joins are checked as the rows they returned, and listed.
 */
@DisplayName("joins")
class JoinsTests {

    /** As Hibernate fetches a doctor with its shift (a many-to-one association, eager by default). */
    private static final String FETCH = "select d1_0.id,d1_0.name,d1_0.on_call,s1_0.id,s1_0.name from doctor d1_0"
            + " left join shift s1_0 on s1_0.id=d1_0.shift_id where d1_0.id=?";
    private static final String ON_CALL_AT_NIGHT = "SELECT d.id, d.name FROM doctor d JOIN shift s ON s.id = d.shift_id"
            + " WHERE s.name = 'night' AND d.on_call = TRUE ORDER BY d.id";

    static Stream<Arguments> databases() throws Throwable {
        return RecordingWays.logStatementsAndH2("jdbc:h2:mem:joins;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000");
    }

    private static void createTables(DataSource database) throws SQLException {
        try (Connection c = database.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS doctor");
            s.execute("DROP TABLE IF EXISTS shift");
            s.execute("CREATE TABLE shift (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL)");
            s.execute("CREATE TABLE doctor (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL, on_call BOOLEAN NOT NULL,"
                    + " shift_id INT, shifts INT DEFAULT 0 NOT NULL)");
            s.execute("INSERT INTO shift VALUES (7, 'night'), (8, 'day')");
            s.execute("INSERT INTO doctor (id, name, on_call, shift_id) VALUES (1, 'alice', TRUE, 7), (2, 'bob', TRUE, 7),"
                    + " (3, 'cid', FALSE, NULL)");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void anOrmsFetchOfAManyToOneIsReadExactly(String name, DataSource database) throws Exception {
        createTables(database);
        RecordedHistory recorded = RecordedRun.record("fetch, " + name, database, ds -> {
            try (Connection c = ds.getConnection()) {
                assertThat(fetch(c, 1)).isEqualTo("alice on shift night");
                assertThat(fetch(c, 3)).isEqualTo("cid on shift null");
                assertThat(fetch(c, 4)).isNull();
            }
        });

        assertThat(recorded.notModelled()).isEmpty();
        assertThat(recorded.history().transactions()).extracting(Object::toString).containsExactly(
                "T1: predicate(doctor where id = 1) -> [doctor/1={\"id\":1,\"name\":\"alice\",\"on_call\":true,\"shift_id\":7,\"shifts\":0}]"
                        + " r(shift/7, {\"id\":7,\"name\":\"night\"})",
                "T2: predicate(doctor where id = 3) -> [doctor/3={\"id\":3,\"name\":\"cid\",\"on_call\":false,\"shift_id\":null,\"shifts\":0}]",
                "T3: predicate(doctor where id = 4) -> []");
    }

    private static String fetch(Connection c, int id) throws SQLException {
        try (PreparedStatement fetch = c.prepareStatement(FETCH)) {
            fetch.setInt(1, id);
            try (ResultSet rs = fetch.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                String found = rs.getString(2) + " on shift " + rs.getString(5);
                assertThat(rs.next()).isFalse();
                return found;
            }
        }
    }

    /** Two doctors go off call at once, each having seen the other on call through a join: a write skew, caught. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aWriteSkewThroughAJoinIsCaughtAndTheJoinListed(String name, DataSource database) throws Exception {
        createTables(database);
        RecordedHistory recorded = RecordedRun.record("write skew, " + name, database, ds -> {
            try (Connection a = ds.getConnection(); Connection b = ds.getConnection()) {
                for (Connection c : List.of(a, b)) {
                    c.setAutoCommit(false);
                    c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
                }
                assertThat(onCallAtNight(a)).containsExactly(1, 2);
                assertThat(onCallAtNight(b)).containsExactly(1, 2);
                goOffCall(a, 1);
                goOffCall(b, 2);
                a.commit();
                b.commit();
            }
        });

        assertThat(recorded.notModelled()).extracting(NotModelled::toString).singleElement().satisfies(entry -> assertThat(entry)
                .startsWith("the reads of doctor in a join WHERE s.name = 'night' AND d.on_call = true:")
                .contains("checked as the rows returned"));
        CheckResult result = RecordedRun.check(recorded, IsolationLevel.SERIALIZABLE);
        assertThat(result.isViolated()).as(result + " " + recorded.history().transactions()).isTrue();
        assertThat(RecordedRun.check(recorded, IsolationLevel.READ_COMMITTED).isSatisfied()).isTrue();
    }

    private static List<Integer> onCallAtNight(Connection c) throws SQLException {
        List<Integer> ids = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(ON_CALL_AT_NIGHT)) {
            while (rs.next()) {
                ids.add(rs.getInt("id"));
            }
        }
        return ids;
    }

    private static void goOffCall(Connection c, int id) throws SQLException {
        try (PreparedStatement off = c.prepareStatement("UPDATE doctor SET on_call = FALSE WHERE id = ?")) {
            off.setInt(1, id);
            assertThat(off.executeUpdate()).isOne();
        }
    }

    /** A lost update of a doctor fetched with its shift: both read 0 shifts, both write 1. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aLostUpdateOfARowFetchedThroughAJoinIsCaught(String name, DataSource database) throws Exception {
        createTables(database);
        RecordedHistory recorded = RecordedRun.record("lost update, " + name, database, ds -> {
            try (Connection a = ds.getConnection(); Connection b = ds.getConnection()) {
                for (Connection c : List.of(a, b)) {
                    c.setAutoCommit(false);
                    c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
                }
                int seenByA = shifts(a);
                int seenByB = shifts(b);
                setShifts(a, seenByA + 1);
                a.commit();
                setShifts(b, seenByB + 1);
                b.commit();
            }
        });

        assertThat(recorded.notModelled()).isEmpty();
        CheckResult result = RecordedRun.check(recorded, IsolationLevel.SERIALIZABLE);
        assertThat(result.isViolated()).as(result + " " + recorded.history().transactions()).isTrue();
    }

    private static int shifts(Connection c) throws SQLException {
        try (PreparedStatement fetch = c.prepareStatement("SELECT d.shifts, s.name FROM doctor AS d"
                + " INNER JOIN shift AS s ON d.shift_id = s.id WHERE d.id = ?")) {
            fetch.setInt(1, 1);
            try (ResultSet rs = fetch.executeQuery()) {
                rs.next();
                return rs.getInt("shifts");
            }
        }
    }

    private static void setShifts(Connection c, int shifts) throws SQLException {
        try (PreparedStatement update = c.prepareStatement("UPDATE doctor SET shifts = ? WHERE id = 1")) {
            update.setInt(1, shifts);
            update.executeUpdate();
        }
    }

    /** A one-to-many join: the many side's rows are read, and listed as checked as the rows returned. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aOneToManyJoinListsItsManySide(String name, DataSource database) throws Exception {
        createTables(database);
        RecordedHistory recorded = RecordedRun.record("one to many, " + name, database, ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT s.*, d.* FROM shift s LEFT JOIN doctor d ON d.shift_id = s.id WHERE s.id = 7")) {
                int rows = 0;
                while (rs.next()) {
                    rows++;
                }
                assertThat(rows).isEqualTo(2);
            }
        });

        assertThat(recorded.notModelled()).extracting(NotModelled::subject)
                .containsExactly("the reads of doctor in a join WHERE s.id = 7");
        assertThat(recorded.history().transactions()).extracting(Object::toString).singleElement().satisfies(t -> assertThat(t)
                .startsWith("T1: predicate(shift where id = 7) -> [shift/7={\"id\":7,\"name\":\"night\"}]")
                .contains("r(doctor/1, ").contains("r(doctor/2, "));
    }

    /** What the application sees of a join is the same recorded or not. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void theApplicationSeesTheJoinItAskedFor(String name, DataSource database) throws Exception {
        createTables(database);
        List<String> plain = seen(database);
        List<String> recorded = new ArrayList<>();
        RecordedRun.record("what the application sees, " + name, database, ds -> recorded.addAll(seen(ds)));

        assertThat(recorded).isEqualTo(plain);
    }

    private static List<String> seen(DataSource ds) throws SQLException {
        List<String> seen = new ArrayList<>();
        try (Connection c = ds.getConnection(); PreparedStatement fetch = c.prepareStatement(FETCH)) {
            fetch.setInt(1, 1);
            ResultSetMetaData before = fetch.getMetaData();
            seen.add("prepared columns: " + (before == null ? "unknown" : before.getColumnCount()));
            try (ResultSet rs = fetch.executeQuery()) {
                ResultSetMetaData meta = rs.getMetaData();
                seen.add("columns: " + meta.getColumnCount());
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    seen.add(meta.getColumnLabel(i) + " " + meta.getColumnTypeName(i));
                }
                rs.next();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    seen.add(String.valueOf(rs.getObject(i)));
                }
                SQLException past = catchThrowableOfType(SQLException.class, () -> rs.getObject(meta.getColumnCount() + 1));
                seen.add("past the end: " + (past == null ? "no failure" : past.getSQLState()));
                SQLException missing = catchThrowableOfType(SQLException.class, () -> rs.getObject("shift_id"));
                seen.add("shift_id: " + (missing == null ? "no failure" : missing.getSQLState()));
            }
        }
        return seen;
    }
}
