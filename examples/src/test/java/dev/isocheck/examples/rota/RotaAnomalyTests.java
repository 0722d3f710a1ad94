package dev.isocheck.examples.rota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import dev.isocheck.IsolationViolationError;
import dev.isocheck.SerializableCheck;
import dev.isocheck.examples.IsolationSetting;
import dev.isocheck.explain.Explanation;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * What a failing rota test looks like: both doctors go off call at READ COMMITTED and REPEATABLE
 * READ under {@code @SerializableCheck}, run through EngineTestKit; these tests assert the failure.
 */
class RotaAnomalyTests {

    @TempDir
    Path reports;

    @ParameterizedTest
    @ValueSource(strings = {"atReadCommitted", "atRepeatableRead"})
    void writeSkewOverThePredicateFailsTheTest(String method) {
        Throwable thrown = EngineTestKit.engine("junit-jupiter")
                .selectors(selectMethod(GoingOffCallAtOnce.class, method))
                .configurationParameter("isocheck.report.dir", reports.toString())
                .execute()
                .testEvents()
                .assertStatistics(stats -> stats.started(1).failed(1))
                .failed().list().get(0)
                .getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();

        assertThat(thrown).isInstanceOf(IsolationViolationError.class);
        IsolationViolationError failure = (IsolationViolationError) thrown;
        // The explanation names the cycle; the verdict alone may not (an order-free proof says only "no valid order").
        assertThat(failure.explanation()).isInstanceOfSatisfying(Explanation.Cycles.class, cycles -> {
            assertThat(cycles.isCertain()).isTrue();
            assertThat(cycles.anomaly()).isEqualTo("G2-item");
            assertThat(cycles.familiarName()).contains("write skew");
        });
        assertThat(failure.getMessage())
                .contains("(write skew) at serializable")
                .contains("read of doctor where shift = 1 AND on_call = true")
                .contains("thread alice", "thread bob");
        assertThat(failure.reportFile()).isRegularFile();
    }

    /** The rota's test, at the levels that let the anomaly through; run by the test above only. */
    @SerializableCheck
    static class GoingOffCallAtOnce {

        @Test
        void atReadCommitted() throws Exception {
            bothGoOff(IsolationSetting.READ_COMMITTED);
        }

        @Test
        void atRepeatableRead() throws Exception {
            bothGoOff(IsolationSetting.REPEATABLE_READ);
        }

        private static void bothGoOff(IsolationSetting isolation) throws Exception {
            AliceAndBobGoOffCall requests = new AliceAndBobGoOffCall(isolation);
            assertThat(requests.goOffCall()).containsOnlyNulls();
            assertThat(requests.onCall()).isEmpty();
        }
    }
}
