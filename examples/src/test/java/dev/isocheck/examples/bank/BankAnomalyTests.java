package dev.isocheck.examples.bank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import dev.isocheck.IsolationLevel;
import dev.isocheck.IsolationViolationError;
import dev.isocheck.SerializableCheck;
import dev.isocheck.examples.IsolationSetting;
import dev.isocheck.explain.Explanation;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * What a failing bank test looks like: the payments below run at READ COMMITTED and REPEATABLE
 * READ, where PostgreSQL lets the write skew through, under {@code @SerializableCheck}. They are
 * run here through JUnit's EngineTestKit, and their failure is what these tests assert, so that
 * the build stays green.
 */
class BankAnomalyTests {

    @TempDir
    Path reports;

    @ParameterizedTest
    @EnumSource(names = {"READ_COMMITTED", "REPEATABLE_READ"})
    void writeSkewFailsTheTestWithTheCycleExplained(IsolationSetting isolation) {
        IsolationViolationError failure = failureOf(isolation == IsolationSetting.READ_COMMITTED
                ? "atReadCommitted" : "atRepeatableRead");

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
                .contains("thread pay-bob", "thread pay-carol");
        assertThat(failure.reportFile()).isRegularFile().startsWith(reports);
        assertThat(failure.historyFile()).isRegularFile().startsWith(reports);
        assertThat(failure.notModelled()).isEmpty();
    }

    @Test
    void theSameRunPassesTheCheckWhenTheTestAsksOnlyForSnapshotIsolation() {
        EngineTestKit.engine("junit-jupiter")
                .selectors(selectMethod(PaymentsAtOnce.class, "atRepeatableReadCheckedAtSnapshotIsolation"))
                .configurationParameter("isocheck.report.dir", reports.toString())
                .execute()
                .testEvents()
                .assertStatistics(stats -> stats.started(1).succeeded(1));
    }

    private IsolationViolationError failureOf(String method) {
        Event failed = EngineTestKit.engine("junit-jupiter")
                .selectors(selectMethod(PaymentsAtOnce.class, method))
                .configurationParameter("isocheck.report.dir", reports.toString())
                .execute()
                .testEvents()
                .assertStatistics(stats -> stats.started(1).failed(1))
                .failed()
                .list()
                .get(0);
        Throwable thrown = failed.getRequiredPayload(org.junit.platform.engine.TestExecutionResult.class)
                .getThrowable().orElseThrow();
        assertThat(thrown).isInstanceOf(IsolationViolationError.class);
        return (IsolationViolationError) thrown;
    }

    /** The bank's test, at the levels that let the anomaly through; run by the tests above only. */
    @SerializableCheck
    static class PaymentsAtOnce {

        @Test
        void atReadCommitted() throws Exception {
            payAndSeeTheRuleBroken(IsolationSetting.READ_COMMITTED);
        }

        @Test
        void atRepeatableRead() throws Exception {
            payAndSeeTheRuleBroken(IsolationSetting.REPEATABLE_READ);
        }

        @Test
        @SerializableCheck(level = IsolationLevel.SNAPSHOT_ISOLATION)
        void atRepeatableReadCheckedAtSnapshotIsolation() throws Exception {
            payAndSeeTheRuleBroken(IsolationSetting.REPEATABLE_READ);
        }

        private static void payAndSeeTheRuleBroken(IsolationSetting isolation) throws Exception {
            AlicesTwoPayments payments = new AlicesTwoPayments(isolation);
            assertThat(payments.pay()).containsOnlyNulls();
            // Both payments succeeded, as a test that only looked at them would see; the rule is broken.
            assertThat(payments.alicesTotal()).isEqualTo(-60);
        }
    }
}
