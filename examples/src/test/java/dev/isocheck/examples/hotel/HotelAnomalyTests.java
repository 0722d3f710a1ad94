package dev.isocheck.examples.hotel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import dev.isocheck.AnomalyType;
import dev.isocheck.IsolationViolationError;
import dev.isocheck.SerializableCheck;
import dev.isocheck.examples.IsolationSetting;
import dev.isocheck.explain.Explanation;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * What a failing hotel test looks like: at REPEATABLE READ both guests find room 12 free and both
 * book it, each missing the row the other inserts. The fixture runs through EngineTestKit; this
 * test asserts its failure.
 */
class HotelAnomalyTests {

    @TempDir
    Path reports;

    @Test
    void thePhantomFailsTheTest() {
        Throwable thrown = EngineTestKit.engine("junit-jupiter")
                .selectors(selectMethod(BookingAtOnce.class, "atRepeatableRead"))
                .configurationParameter("isocheck.report.dir", reports.toString())
                .execute()
                .testEvents()
                .assertStatistics(stats -> stats.started(1).failed(1))
                .failed().list().get(0)
                .getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();

        assertThat(thrown).isInstanceOf(IsolationViolationError.class);
        IsolationViolationError failure = (IsolationViolationError) thrown;
        assertThat(failure.explanation()).isInstanceOfSatisfying(Explanation.Cycles.class, cycles -> {
            assertThat(cycles.anomaly()).isEqualTo(AnomalyType.G2.shortName());
            assertThat(cycles.familiarName()).contains("phantom write skew");
        });
        assertThat(failure.getMessage())
                .contains("booking where room = 12 AND night = 200")
                .contains("booking/ann-12-200", "booking/ben-12-200");
    }

    /** The hotel's test at REPEATABLE READ; run by the test above only. */
    @SerializableCheck
    static class BookingAtOnce {

        @Test
        void atRepeatableRead() throws Exception {
            TwoGuestsOneRoom guests = new TwoGuestsOneRoom(IsolationSetting.REPEATABLE_READ);
            assertThat(guests.book()).containsOnlyNulls();
            assertThat(guests.bookings()).hasSize(2);
        }
    }
}
