package dev.isocheck.examples.hotel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.AnomalyType;
import dev.isocheck.InterleavingTest;
import dev.isocheck.IsolationViolationError;
import dev.isocheck.SerializableCheck;
import dev.isocheck.examples.ExploredRuns;
import dev.isocheck.examples.IsolationSetting;
import dev.isocheck.explain.Explanation;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a failing hotel test looks like: at REPEATABLE READ both guests find room 12 free and both
 * book it, each missing the row the other inserts. The fixture runs through EngineTestKit, in the
 * schedules {@code @InterleavingTest} explores; this test asserts its failure.
 */
class HotelAnomalyTests {

    @TempDir
    Path reports;

    @Test
    void thePhantomFailsTheTest() {
        // Round robin, the first schedule, has both look-ups before either booking.
        IsolationViolationError failure = ExploredRuns.of(BookingAtOnce.class, "atRepeatableRead", reports)
                .assertViolationFoundWithin(ExploredRuns.FIRST_FEW);

        assertThat(failure.explanation()).isInstanceOfSatisfying(Explanation.Cycles.class, cycles -> {
            assertThat(cycles.anomaly()).isEqualTo(AnomalyType.G2.shortName());
            assertThat(cycles.familiarName()).contains("phantom write skew");
        });
        assertThat(failure.getMessage())
                .contains("booking where room = 12 AND night = 200")
                .contains("booking/ann-12-200", "booking/ben-12-200")
                .contains("(A = ann, B = ben)");
    }

    /** The hotel's test at REPEATABLE READ; run by the test above only. */
    @SerializableCheck
    static class BookingAtOnce {

        /** True in every order; whether both got the room is the schedule's doing, and the check's to catch. */
        @InterleavingTest
        void atRepeatableRead() throws Exception {
            TwoGuestsOneRoom guests = new TwoGuestsOneRoom(IsolationSetting.REPEATABLE_READ);
            guests.assertTheBookingsAddUp(guests.book());
        }
    }
}
