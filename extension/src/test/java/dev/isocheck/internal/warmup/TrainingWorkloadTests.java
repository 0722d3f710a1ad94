package dev.isocheck.internal.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.CheckResult;
import dev.isocheck.Isocheck;
import dev.isocheck.IsolationLevel;
import dev.isocheck.history.History;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@DisplayName("the warm-up's workloads: their verdicts known by construction")
class TrainingWorkloadTests {

    @ParameterizedTest
    @EnumSource(IsolationLevel.class)
    void aWorkloadRunOneTransactionAtATimeSatisfiesEveryLevelAsRowsAndAsKeys(IsolationLevel level) {
        TrainingWorkload workload = TrainingWorkload.generate(3, 6, 30, 20, false);

        assertThat(Isocheck.check(workload.asRows(), level).isSatisfied()).isTrue();
        assertThat(Isocheck.check(workload.asKeys(), level).isSatisfied()).isTrue();
    }

    @Test
    void theLostUpdateViolatesSnapshotIsolationAndAboveAndIsExplainedAsOne() {
        History lost = TrainingWorkload.generate(4, 6, 30, 20, true).asRows();

        for (IsolationLevel level : List.of(IsolationLevel.SNAPSHOT_ISOLATION, IsolationLevel.SERIALIZABLE)) {
            CheckResult result = Isocheck.check(lost, level);
            assertThat(result.isViolated()).as(level.cliName()).isTrue();
            assertThat(result.showsAnomaly("lost update")).as(level.cliName()).isTrue();
        }
        // With real time the shortest explanation may be another cycle; the violation is the same.
        assertThat(Isocheck.check(lost, IsolationLevel.STRICT_SERIALIZABLE).isViolated()).isTrue();
        assertThat(Isocheck.check(lost, IsolationLevel.READ_COMMITTED).isSatisfied()).isTrue();
    }

    @Test
    void theSameSeedMakesTheSameWorkloadAndASessionsTransactionsNeverOverlap() {
        TrainingWorkload one = TrainingWorkload.generate(5, 4, 25, 10, true);
        TrainingWorkload two = TrainingWorkload.generate(5, 4, 25, 10, true);

        assertThat(one.sessions()).isEqualTo(two.sessions());
        for (List<TrainingWorkload.Transaction> session : one.sessions()) {
            for (int i = 0; i + 1 < session.size(); i++) {
                assertThat(session.get(i).end()).isLessThan(session.get(i + 1).start());
                assertThat(session.get(i).start()).isLessThanOrEqualTo(session.get(i).end());
            }
        }
    }
}
