package dev.isocheck.examples.rota;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.InterleavingTest;
import dev.isocheck.IsolationViolationError;
import dev.isocheck.SerializableCheck;
import dev.isocheck.examples.ExploredRuns;
import dev.isocheck.examples.IsolationSetting;
import dev.isocheck.explain.Explanation;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a failing rota test looks like: both doctors go off call at READ COMMITTED and REPEATABLE
 * READ under {@code @SerializableCheck}, in the schedules {@code @InterleavingTest} explores, run
 * through EngineTestKit; these tests assert the failure.
 */
class RotaAnomalyTests {

    @TempDir
    Path reports;

    @ParameterizedTest
    @ValueSource(strings = {"atReadCommitted", "atRepeatableRead"})
    void writeSkewOverThePredicateFailsTheTest(String method) {
        // Round robin, the first schedule, has both counts before either update.
        IsolationViolationError failure = ExploredRuns.of(GoingOffCallAtOnce.class, method, reports)
                .assertViolationFoundWithin(ExploredRuns.FIRST_FEW);

        // The explanation names the cycle; the verdict alone may not (an order-free proof says only "no valid order").
        assertThat(failure.explanation()).isInstanceOfSatisfying(Explanation.Cycles.class, cycles -> {
            assertThat(cycles.isCertain()).isTrue();
            assertThat(cycles.anomaly()).isEqualTo("G2-item");
            assertThat(cycles.familiarName()).contains("write skew");
        });
        assertThat(failure.getMessage())
                .contains("(write skew) at serializable")
                .contains("read of doctor where shift = 1 AND on_call = true")
                .contains("thread alice", "thread bob")
                .contains("(A = alice, B = bob)");
        assertThat(failure.reportFile()).isRegularFile();
    }

    /** The rota's test, at the levels that let the anomaly through; run by the test above only. */
    @SerializableCheck
    static class GoingOffCallAtOnce {

        @InterleavingTest
        void atReadCommitted() throws Exception {
            bothAskToGoOff(IsolationSetting.READ_COMMITTED);
        }

        @InterleavingTest
        void atRepeatableRead() throws Exception {
            bothAskToGoOff(IsolationSetting.REPEATABLE_READ);
        }

        /** True in every order; whether both went off (nobody left on call) is the schedule's doing, and the check's to catch. */
        private static void bothAskToGoOff(IsolationSetting isolation) throws Exception {
            AliceAndBobGoOffCall requests = new AliceAndBobGoOffCall(isolation);
            requests.assertTheRotaAddsUp(requests.goOffCall());
        }
    }
}
