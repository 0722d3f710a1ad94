package dev.isocheck.examples.tickets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import dev.isocheck.AnomalyType;
import dev.isocheck.IsolationViolationError;
import dev.isocheck.SerializableCheck;
import dev.isocheck.examples.EmbeddedPostgres;
import java.nio.file.Path;
import org.jdbi.v3.core.transaction.TransactionIsolationLevel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * What a failing box office test looks like: at READ COMMITTED and REPEATABLE READ both fans count
 * one seat left and both get a ticket, a phantom the count did not see. The report names each
 * statement after its {@link TicketDao} method. The fixture is run through EngineTestKit; these
 * tests assert its failure.
 */
class BoxOfficeAnomalyTests {

    @TempDir
    Path reports;

    @ParameterizedTest
    @ValueSource(strings = {"atReadCommitted", "atRepeatableRead"})
    void theOversoldConcertFailsTheTest(String method) {
        Throwable thrown = EngineTestKit.engine("junit-jupiter")
                .selectors(selectMethod(FansAtOnce.class, method))
                .configurationParameter("isocheck.report.dir", reports.toString())
                .execute()
                .testEvents()
                .assertStatistics(stats -> stats.started(1).failed(1))
                .failed().list().get(0)
                .getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();

        assertThat(thrown).isInstanceOf(IsolationViolationError.class);
        IsolationViolationError failure = (IsolationViolationError) thrown;
        assertThat(failure.anomaly().type()).isEqualTo(AnomalyType.G2);
        assertThat(failure.getMessage())
                .contains("TicketDao.sold: SELECT count(*) FROM ticket WHERE concert = ?  [quartet]")
                .contains("TicketDao.issue: INSERT INTO ticket (id, concert, holder) VALUES (?, ?, ?)")
                .contains("thread ann", "thread ben");
        assertThat(failure.reportFile()).isRegularFile();
    }

    /** The box office's test where the database lets the phantom through; run by the test above only. */
    @SerializableCheck
    static class FansAtOnce {

        @Test
        void atReadCommitted() throws Exception {
            oversell(TransactionIsolationLevel.READ_COMMITTED);
        }

        @Test
        void atRepeatableRead() throws Exception {
            oversell(TransactionIsolationLevel.REPEATABLE_READ);
        }

        private static void oversell(TransactionIsolationLevel isolation) throws Exception {
            TwoFansAtOnce fans = new TwoFansAtOnce(EmbeddedPostgres.dataSource(), isolation);
            assertThat(fans.buy()).containsOnlyNulls();
            // One seat, two tickets.
            assertThat(fans.sold()).isEqualTo(2);
        }
    }
}
