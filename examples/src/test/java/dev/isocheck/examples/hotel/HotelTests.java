package dev.isocheck.examples.hotel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.InterleavingTest;
import dev.isocheck.SerializableCheck;
import dev.isocheck.examples.IsolationSetting;
import java.util.Objects;

/**
 * The hotel's concurrency tests: every transaction is recorded and checked at serializable, in
 * several schedules (5 in the examples' build, set in {@code junit-platform.properties}), round
 * robin first (both look-ups before either booking), each with no bookings to start from; what the
 * test asserts holds in every one of them.
 */
@SerializableCheck
class HotelTests {

    @InterleavingTest
    void atSerializableTheRoomIsBookedOnce() throws Exception {
        TwoGuestsOneRoom guests = new TwoGuestsOneRoom(IsolationSetting.SERIALIZABLE);

        var outcomes = guests.book();

        // One guest got the room; the other found it taken, at once when it came second, or when
        // retried after PostgreSQL aborted it (40001) for overlapping the first.
        assertThat(outcomes).filteredOn(Objects::nonNull).singleElement().isInstanceOf(RoomTaken.class);
        assertThat(guests.bookings()).hasSize(1);
    }
}
