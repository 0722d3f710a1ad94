package dev.isocheck.examples.tickets;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.AnomalyType;
import dev.isocheck.InterleavingTest;
import dev.isocheck.IsolationViolationError;
import dev.isocheck.SerializableCheck;
import dev.isocheck.examples.ExploredRuns;
import java.nio.file.Path;
import org.jdbi.v3.core.transaction.TransactionIsolationLevel;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a failing box office test looks like: at READ COMMITTED and REPEATABLE READ both fans count
 * one seat left and both get a ticket, a phantom the count did not see. The report names each
 * statement after its {@link TicketDao} method. The fixture is run through EngineTestKit, in the
 * schedules {@code @InterleavingTest} explores; these tests assert its failure.
 */
class BoxOfficeAnomalyTests {

    @TempDir
    Path reports;

    @ParameterizedTest
    @ValueSource(strings = {"atReadCommitted", "atRepeatableRead"})
    void theOversoldConcertFailsTheTest(String method) {
        // Round robin, the first schedule, has both counts before either ticket.
        IsolationViolationError failure = ExploredRuns.of(FansAtOnce.class, method, reports)
                .assertViolationFoundWithin(ExploredRuns.FIRST_FEW);

        assertThat(failure.anomaly().type()).isEqualTo(AnomalyType.G2);
        assertThat(failure.getMessage())
                .contains("TicketDao.sold: SELECT count(*) FROM ticket WHERE concert = ?  [quartet]")
                .contains("TicketDao.issue: INSERT INTO ticket (id, concert, holder) VALUES (?, ?, ?)")
                .contains("thread ann", "thread ben")
                .contains("(A = ann, B = ben)");
        assertThat(failure.reportFile()).isRegularFile();
    }

    /** The box office's test where the database lets the phantom through; run by the test above only. */
    @SerializableCheck
    static class FansAtOnce {

        @InterleavingTest
        void atReadCommitted() throws Exception {
            buy(TransactionIsolationLevel.READ_COMMITTED);
        }

        @InterleavingTest
        void atRepeatableRead() throws Exception {
            buy(TransactionIsolationLevel.REPEATABLE_READ);
        }

        /** True in every order; whether both got a ticket for the one seat is the schedule's doing, and the check's to catch. */
        private static void buy(TransactionIsolationLevel isolation) throws Exception {
            TwoFansAtOnce fans = new TwoFansAtOnce(isolation);
            fans.assertTheTicketsAddUp(fans.buy());
        }
    }
}
