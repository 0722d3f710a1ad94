package dev.isocheck.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.InterleavingTest;
import dev.isocheck.IsolationViolationError;
import dev.isocheck.SerializableCheck;
import dev.isocheck.examples.spring.jdbc.JdbcRota;
import dev.isocheck.examples.spring.jpa.JpaRota;
import dev.isocheck.examples.spring.mybatis.MyBatisRota;
import dev.isocheck.explain.Explanation;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * What a failing rota test looks like, in each of the three ways the application is written: Alice
 * and Bob, the two doctors on call, ask to go off call at once; each request counts two on call
 * and both leave. PostgreSQL lets it through at READ COMMITTED, and at REPEATABLE READ (snapshot
 * isolation) too. The fixture is an {@code @InterleavingTest} run through EngineTestKit; these tests
 * assert that one of its first schedules fails with the write skew explained, over the predicate
 * each stack's query read.
 */
class WriteSkewAnomalyTests {

    @TempDir
    Path reports;

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "withJpaAtReadCommitted    | read of doctor where",
        "withJpaAtRepeatableRead   | read of doctor where",
        "withJdbcTemplate          | read of doctor where",
        "withMyBatis               | read of doctor where",
    })
    void writeSkewFailsTheTest(String method, String predicateRead) {
        ExploredRun run = ExploredRun.of(AliceAndBobAtOnce.class, method, reports);
        Throwable thrown = run.firstFailure(3);

        assertThat(thrown).isInstanceOf(IsolationViolationError.class);
        IsolationViolationError failure = (IsolationViolationError) thrown;
        assertThat(failure.explanation()).isInstanceOfSatisfying(Explanation.Cycles.class, cycles -> {
            assertThat(cycles.anomaly()).isEqualTo("G2-item");
            assertThat(cycles.familiarName()).contains("write skew");
        });
        assertThat(failure.getMessage())
                .contains("(write skew) at serializable")
                .contains(predicateRead)
                .contains("thread alice", "thread bob")
                .contains("Run this order again: @InterleavingTest(replay = \"");
        assertThat(failure.notModelled()).isEmpty();
    }

    /**
     * The rota's test at the levels that let the write skew through, the requests started together
     * with no latch: the schedules explored find the order in which both leave. Run by the test
     * above only.
     */
    @HospitalTest
    @SerializableCheck
    static class AliceAndBobAtOnce {

        @Autowired
        JpaRota jpa;

        @Autowired
        JdbcRota jdbcTemplate;

        @Autowired
        MyBatisRota myBatis;

        @BeforeEach
        void bothOnCall() {
            Ward.putAliceAndBobOnCall();
        }

        @InterleavingTest
        void withJpaAtReadCommitted() throws Exception {
            bothGoOff(jpa::goOffCall);
        }

        @InterleavingTest
        void withJpaAtRepeatableRead() throws Exception {
            bothGoOff(jpa::goOffCallAtRepeatableRead);
        }

        @InterleavingTest
        void withJdbcTemplate() throws Exception {
            bothGoOff(jdbcTemplate::goOffCall);
        }

        @InterleavingTest
        void withMyBatis() throws Exception {
            bothGoOff(myBatis::goOffCall);
        }

        private static void bothGoOff(GoOffCall request) throws Exception {
            List<Throwable> outcomes = Ward.atOnce(
                    "alice", () -> request.goOffCall("alice", Ward.SHIFT),
                    "bob", () -> request.goOffCall("bob", Ward.SHIFT));

            // Where one request ran after the other, the second found its doctor the last on call and
            // was refused; where both counted two on call, both left (the write skew, which the
            // check fails the schedule for) and the rule is broken: nobody is on call.
            List<Throwable> refusals = outcomes.stream().filter(Objects::nonNull).toList();
            assertThat(refusals).hasSizeLessThanOrEqualTo(1).allSatisfy(e -> assertThat(e).isInstanceOf(LastDoctorOnCall.class));
            assertThat(Ward.onCall()).hasSize(refusals.size());
        }
    }

    @FunctionalInterface
    interface GoOffCall {
        void goOffCall(String doctor, int shift);
    }
}
