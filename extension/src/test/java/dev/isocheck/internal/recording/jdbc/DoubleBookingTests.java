package dev.isocheck.internal.recording.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.CheckResult;
import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.recording.NotModelled;
import dev.isocheck.internal.recording.RecordedHistory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The double booking through {@code INSERT ... SELECT ... WHERE NOT EXISTS}: two guests book room
 * 101 for night 7 at once, at READ COMMITTED; each statement's subquery finds no booking, and the
 * room is booked twice. The booking that inserted its row read, inside its statement, that no
 * booking of the room and night was there ({@code SubqueryReads}); two such reads, each missing
 * the other's row, are a cycle serializability forbids. On every way writes are recorded.
 */
@DisplayName("the double booking through INSERT ... WHERE NOT EXISTS")
class DoubleBookingTests {

    private static final String BOOK = "INSERT INTO bookings (id, room, night) SELECT ?, ?, ?"
            + " WHERE NOT EXISTS (SELECT 1 FROM bookings WHERE room = ? AND night = ?)";

    static Stream<Arguments> databases() throws Throwable {
        return RecordingWays.logStatementsAndH2("jdbc:h2:mem:double-booking;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000");
    }

    private static void createTables(DataSource database) throws SQLException {
        try (Connection c = database.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS bookings");
            s.execute("CREATE TABLE bookings (id INT PRIMARY KEY, room INT NOT NULL, night INT NOT NULL)");
        }
    }

    private static int book(Connection c, int id, int room, int night) throws SQLException {
        try (PreparedStatement book = c.prepareStatement(BOOK)) {
            book.setInt(1, id);
            book.setInt(2, room);
            book.setInt(3, night);
            book.setInt(4, room);
            book.setInt(5, night);
            return book.executeUpdate();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void twoBookingsAtOnceAreCaught(String name, DataSource database) throws Exception {
        createTables(database);
        RecordedHistory recorded = RecordedRun.record("double booking, " + name, database, ds -> {
            try (Connection a = ds.getConnection(); Connection b = ds.getConnection()) {
                for (Connection c : List.of(a, b)) {
                    c.setAutoCommit(false);
                    c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
                }
                assertThat(book(a, 1, 101, 7)).isOne();
                // The second booking's subquery does not see the first's uncommitted row.
                assertThat(book(b, 2, 101, 7)).isOne();
                a.commit();
                b.commit();
            }
        });

        assertThat(recorded.notModelled()).isEmpty();
        assertThat(recorded.history().transactions()).extracting(Object::toString)
                .anySatisfy(t -> assertThat(t).contains("predicate(bookings where room = 101 AND night = 7) -> [] r(bookings/").contains(", null) w(bookings/"));
        CheckResult result = RecordedRun.check(recorded, IsolationLevel.SERIALIZABLE);
        assertThat(result.isViolated()).as(result.toString()).isTrue();
        assertThat(RecordedRun.check(recorded, IsolationLevel.READ_COMMITTED).isSatisfied()).isTrue();
    }

    /**
     * One after the other, the second booking finds the first and inserts nothing: nothing is
     * reported, and its subquery, whose rows are not known, is listed as not checked.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void bookingsOneAfterTheOtherPassAndTheOneThatFoundABookingIsListed(String name, DataSource database) throws Exception {
        createTables(database);
        RecordedHistory recorded = RecordedRun.record("bookings in turn, " + name, database, ds -> {
            try (Connection a = ds.getConnection()) {
                assertThat(book(a, 1, 101, 7)).isOne();
                assertThat(book(a, 2, 101, 7)).isZero();
                // Another room: found nothing, booked.
                assertThat(book(a, 3, 102, 7)).isOne();
            }
        });

        assertThat(recorded.notModelled()).extracting(NotModelled::toString).singleElement()
                .satisfies(entry -> assertThat(entry).startsWith("the statement " + BOOK)
                        .contains("table bookings read inside it")
                        .contains("when it writes no row, what its NOT EXISTS found is not known"));
        for (IsolationLevel level : List.of(IsolationLevel.SERIALIZABLE, IsolationLevel.STRICT_SERIALIZABLE)) {
            assertThat(RecordedRun.check(recorded, level).isSatisfied()).as("at %s", level).isTrue();
        }
    }

    /**
     * A subquery correlated with the write ({@code WHERE b.room = bookings.room}), or one whose
     * unqualified column is not its own table's, is not recorded: only listed.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aCorrelatedSubqueryIsListedNotRecorded(String name, DataSource database) throws Exception {
        createTables(database);
        try (Connection c = database.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS holds");
            s.execute("CREATE TABLE holds (hold_id INT PRIMARY KEY, hold_room INT NOT NULL)");
            s.execute("INSERT INTO bookings VALUES (1, 101, 7), (2, 102, 7)");
        }
        String release = "DELETE FROM bookings WHERE night = 7 AND NOT EXISTS (SELECT 1 FROM holds WHERE hold_room = room)";
        RecordedHistory recorded = RecordedRun.record("correlated, " + name, database, ds -> {
            try (Connection a = ds.getConnection(); Statement s = a.createStatement()) {
                assertThat(s.executeUpdate(release)).isEqualTo(2);
            }
        });

        assertThat(recorded.history().transactions()).extracting(Object::toString)
                .noneSatisfy(t -> assertThat(t).contains("holds WHERE"));
        assertThat(recorded.notModelled()).extracting(NotModelled::toString)
                .anySatisfy(entry -> assertThat(entry).startsWith("the statement " + release).contains("table holds read inside it"));
    }
}
