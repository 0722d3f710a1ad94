package dev.isocheck.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import dev.isocheck.IsolationViolationError;
import dev.isocheck.SerializableCheck;
import dev.isocheck.examples.spring.jdbc.JdbcRota;
import dev.isocheck.examples.spring.jpa.JpaRota;
import dev.isocheck.examples.spring.mybatis.MyBatisRota;
import dev.isocheck.explain.Explanation;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * What a failing rota test looks like, in each of the three ways the application is written: Alice
 * and Bob, the two doctors on call, ask to go off call at once; each request counts two on call
 * and both leave. PostgreSQL lets it through at READ COMMITTED, and at REPEATABLE READ (snapshot
 * isolation) too. The fixture is run through EngineTestKit; these tests assert that it fails with
 * the write skew explained, over the predicate each stack's query read.
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
        Throwable thrown = EngineTestKit.engine("junit-jupiter")
                .selectors(selectMethod(AliceAndBobAtOnce.class, method))
                .configurationParameter("isocheck.report.dir", reports.toString())
                .execute()
                .testEvents()
                .assertStatistics(stats -> stats.started(1).failed(1))
                .failed().list().get(0)
                .getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();

        assertThat(thrown).isInstanceOf(IsolationViolationError.class);
        IsolationViolationError failure = (IsolationViolationError) thrown;
        assertThat(failure.explanation()).isInstanceOfSatisfying(Explanation.Cycles.class, cycles -> {
            assertThat(cycles.anomaly()).isEqualTo("G2-item");
            assertThat(cycles.familiarName()).contains("write skew");
        });
        assertThat(failure.getMessage())
                .contains("(write skew) at serializable")
                .contains(predicateRead)
                .contains("thread alice", "thread bob");
        assertThat(failure.notModelled()).isEmpty();
    }

    /** The rota's test at the levels that let the write skew through; run by the test above only. */
    @HospitalTest
    @SerializableCheck
    static class AliceAndBobAtOnce {

        @Autowired
        HeldRequests held;

        @Autowired
        JpaRota jpa;

        @Autowired
        JdbcRota jdbcTemplate;

        @Autowired
        MyBatisRota myBatis;

        @BeforeEach
        void bothOnCall() {
            Ward.putAliceAndBobOnCall();
            held.holdAt(Rendezvous.of(2));
        }

        @Test
        void withJpaAtReadCommitted() throws Exception {
            bothGoOff(jpa::goOffCall);
        }

        @Test
        void withJpaAtRepeatableRead() throws Exception {
            bothGoOff(jpa::goOffCallAtRepeatableRead);
        }

        @Test
        void withJdbcTemplate() throws Exception {
            bothGoOff(jdbcTemplate::goOffCall);
        }

        @Test
        void withMyBatis() throws Exception {
            bothGoOff(myBatis::goOffCall);
        }

        private static void bothGoOff(GoOffCall request) throws Exception {
            List<Throwable> outcomes = Ward.atOnce(
                    "alice", () -> request.goOffCall("alice", Ward.SHIFT),
                    "bob", () -> request.goOffCall("bob", Ward.SHIFT));

            assertThat(outcomes).containsOnlyNulls();
            // The rule is broken: nobody is on call.
            assertThat(Ward.onCall()).isEmpty();
        }
    }

    @FunctionalInterface
    interface GoOffCall {
        void goOffCall(String doctor, int shift);
    }
}
