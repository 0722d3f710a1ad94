package dev.isocheck.examples.hotel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.SerializableCheck;
import dev.isocheck.examples.IsolationSetting;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/** The hotel's concurrency tests: every transaction is recorded and checked at serializable. */
@SerializableCheck
class HotelTests {

    @Test
    void atSerializableTheRoomIsBookedOnce() throws Exception {
        TwoGuestsOneRoom guests = new TwoGuestsOneRoom(IsolationSetting.SERIALIZABLE);

        var outcomes = guests.book();

        assertThat(guests.retries()).isPositive();
        assertThat(outcomes).filteredOn(Objects::nonNull).singleElement().isInstanceOf(RoomTaken.class);
        assertThat(guests.bookings()).hasSize(1);
    }
}
