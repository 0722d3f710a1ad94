package dev.isocheck.examples.hotel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.Isocheck;
import dev.isocheck.examples.Concurrently;
import dev.isocheck.examples.EmbeddedPostgres;
import dev.isocheck.examples.IsolationSetting;
import dev.isocheck.examples.Transactions;
import dev.isocheck.examples.Unrecorded;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * The hotel's tests' scenario: Ann and Ben book room 12 for night 200 at the same moment, each on
 * a thread of its own. Nothing in the application holds them: an {@code @InterleavingTest} runs
 * them in the orders that break them, creating the scenario in its body so that every schedule
 * starts with no bookings.
 */
final class TwoGuestsOneRoom {

    static final int ROOM = 12;
    static final int NIGHT = 200;

    private final Hotel unrecorded;
    private final Hotel hotel;

    /** No bookings yet; the hotel under test runs at {@code isolation} on recorded connections. */
    TwoGuestsOneRoom(IsolationSetting isolation) throws SQLException {
        DataSource setUp = Unrecorded.postgres();
        Hotel.createSchema(setUp);
        unrecorded = new Hotel(new Transactions(setUp, isolation), Payments.NONE);
        hotel = new Hotel(new Transactions(Isocheck.record(EmbeddedPostgres.dataSource()), isolation), Payments.NONE);
    }

    /** Both bookings at once; for each, {@code null} when it went through, or what it threw. */
    List<Throwable> book() throws InterruptedException {
        return Concurrently.run(List.of(
                new Concurrently.Task("ann", () -> {
                    hotel.book("ann", ROOM, NIGHT);
                    return null;
                }),
                new Concurrently.Task("ben", () -> {
                    hotel.book("ben", ROOM, NIGHT);
                    return null;
                })));
    }

    /**
     * Asserts what holds in every order, at every level: a booking refused found the room taken,
     * and the room has a booking for each that went through (two, when both did: the rule broken,
     * which only overlapping bookings can do).
     *
     * @param outcomes what {@link #book()} returned
     */
    void assertTheBookingsAddUp(List<Throwable> outcomes) throws SQLException {
        long booked = outcomes.stream().filter(Objects::isNull).count();
        assertThat(outcomes).filteredOn(Objects::nonNull).allSatisfy(refused -> assertThat(refused).isInstanceOf(RoomTaken.class));
        assertThat(bookings()).as("the room's bookings that night").hasSize((int) booked);
    }

    /** The room's bookings that night, read without recording. */
    List<String> bookings() throws SQLException {
        return unrecorded.bookings(ROOM, NIGHT);
    }
}
