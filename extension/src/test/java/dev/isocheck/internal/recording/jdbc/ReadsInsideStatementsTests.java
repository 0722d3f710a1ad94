package dev.isocheck.internal.recording.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.internal.recording.NotModelled;
import dev.isocheck.internal.recording.RecordedHistory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A statement that reads inside itself what the recorder does not see is listed, on every way
 * writes are recorded: the double booking's {@code INSERT ... SELECT ... WHERE NOT EXISTS}, the
 * last doctor's {@code UPDATE ... WHERE (SELECT count(*) ...) >= 2}, a function in a query.
 * Two such bookings at READ COMMITTED book the room twice, and the check cannot see it: the test
 * must say so rather than pass in silence.
 */
@DisplayName("reads inside statements are listed")
class ReadsInsideStatementsTests {

    private static final String BOOK = "INSERT INTO bookings (id, room, night) SELECT ?, ?, ?"
            + " WHERE NOT EXISTS (SELECT 1 FROM bookings WHERE room = ? AND night = ?)";
    private static final String LAST_DOCTOR = "UPDATE doctors SET on_call = false WHERE id = ?"
            + " AND (SELECT count(*) FROM doctors WHERE on_call) >= 2";

    static Stream<Arguments> databases() throws Throwable {
        return RecordingWays.logStatementsAndH2("jdbc:h2:mem:reads-inside;DB_CLOSE_DELAY=-1");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void theDoubleBookingsInsertSelectAndTheLastDoctorsUpdateAreListed(String name, DataSource database) throws Exception {
        try (Connection c = database.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS bookings");
            s.execute("DROP TABLE IF EXISTS doctors");
            s.execute("CREATE TABLE bookings (id INT PRIMARY KEY, room INT NOT NULL, night INT NOT NULL)");
            s.execute("CREATE TABLE doctors (id INT PRIMARY KEY, on_call BOOLEAN NOT NULL)");
            s.execute("INSERT INTO doctors VALUES (1, TRUE), (2, TRUE)");
        }

        RecordedHistory recorded = RecordedRun.record("reads inside, " + name, database, ds -> {
            for (int guest = 1; guest <= 2; guest++) {
                try (Connection c = ds.getConnection(); PreparedStatement book = c.prepareStatement(BOOK)) {
                    book.setInt(1, guest);
                    book.setInt(2, 101);
                    book.setInt(3, 7);
                    book.setInt(4, 101);
                    book.setInt(5, 7);
                    book.executeUpdate();
                }
            }
            try (Connection c = ds.getConnection(); PreparedStatement off = c.prepareStatement(LAST_DOCTOR)) {
                off.setInt(1, 1);
                off.executeUpdate();
            }
        });

        List<String> listed = recorded.notModelled().stream().map(NotModelled::toString).toList();
        assertThat(listed).anySatisfy(entry -> assertThat(entry).startsWith("the statement " + BOOK)
                .contains("table bookings read inside it"));
        assertThat(listed).anySatisfy(entry -> assertThat(entry).startsWith("the statement " + LAST_DOCTOR)
                .contains("table doctors read inside it"));
        // Listed once each, though the booking ran twice.
        assertThat(listed).filteredOn(entry -> entry.startsWith("the statement " + BOOK)).hasSize(1);
    }
}
