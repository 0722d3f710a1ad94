package dev.isocheck.examples.bank;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.InterleavingTest;
import dev.isocheck.IsolationLevel;
import dev.isocheck.IsolationViolationError;
import dev.isocheck.SerializableCheck;
import dev.isocheck.examples.ExploredRuns;
import dev.isocheck.examples.IsolationSetting;
import dev.isocheck.explain.Explanation;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What a failing bank test looks like: the payments below run at READ COMMITTED and REPEATABLE
 * READ, where PostgreSQL lets the write skew through, under {@code @SerializableCheck}, in the
 * schedules {@code @InterleavingTest} explores. They are run here through JUnit's EngineTestKit,
 * and their failure is what these tests assert, so that the build stays green.
 */
class BankAnomalyTests {

    @TempDir
    Path reports;

    @ParameterizedTest
    @EnumSource(names = {"READ_COMMITTED", "REPEATABLE_READ"})
    void writeSkewFailsTheTestWithTheCycleExplained(IsolationSetting isolation) {
        // Round robin, the first schedule, has both balance checks before either withdrawal.
        IsolationViolationError failure = ExploredRuns.of(PaymentsAtOnce.class,
                isolation == IsolationSetting.READ_COMMITTED ? "atReadCommitted" : "atRepeatableRead", reports)
                .assertViolationFoundWithin(ExploredRuns.FIRST_FEW);

        assertThat(failure.level()).isEqualTo(IsolationLevel.SERIALIZABLE);
        // The explanation names the cycle; the verdict alone may not (an order-free proof says only "no valid order").
        assertThat(failure.explanation()).isInstanceOfSatisfying(Explanation.Cycles.class, cycles -> {
            assertThat(cycles.isCertain()).isTrue();
            assertThat(cycles.anomaly()).isEqualTo("G2-item");
            assertThat(cycles.familiarName()).contains("write skew");
        });
        assertThat(failure.getMessage())
                .contains("G2-item (write skew) at serializable: a cycle of 2 transactions")
                .contains("account/alice-checking", "account/alice-savings")
                .contains("SELECT id, balance FROM account WHERE customer = ?")
                .contains("thread pay-bob", "thread pay-carol")
                .contains("(A = pay-bob, B = pay-carol)");
        assertThat(failure.reportFile()).isRegularFile().startsWith(reports);
        assertThat(failure.historyFile()).isRegularFile().startsWith(reports);
        assertThat(failure.notModelled()).isEmpty();
    }

    @Test
    void theSameRunsPassTheCheckWhenTheTestAsksOnlyForSnapshotIsolation() {
        ExploredRuns.of(PaymentsAtOnce.class, "atRepeatableReadCheckedAtSnapshotIsolation", reports, Map.of("isocheck.schedules", "5"))
                .assertEverySchedulePassed(5);
    }

    /** The bank's test, at the levels that let the anomaly through; run by the tests above only. */
    @SerializableCheck
    static class PaymentsAtOnce {

        @InterleavingTest
        void atReadCommitted() throws Exception {
            pay(IsolationSetting.READ_COMMITTED);
        }

        @InterleavingTest
        void atRepeatableRead() throws Exception {
            pay(IsolationSetting.REPEATABLE_READ);
        }

        @InterleavingTest
        @SerializableCheck(level = IsolationLevel.SNAPSHOT_ISOLATION)
        void atRepeatableReadCheckedAtSnapshotIsolation() throws Exception {
            pay(IsolationSetting.REPEATABLE_READ);
        }

        /**
         * What a test that only looked at the payments would assert, true in every order: whether
         * both went through (the rule broken) depends on the schedule, and the check sees it.
         */
        private static void pay(IsolationSetting isolation) throws Exception {
            AlicesTwoPayments payments = new AlicesTwoPayments(isolation);
            payments.assertThePaymentsAddUp(payments.pay());
        }
    }
}
