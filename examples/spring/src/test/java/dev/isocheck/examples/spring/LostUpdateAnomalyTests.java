package dev.isocheck.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import dev.isocheck.IsolationViolationError;
import dev.isocheck.SerializableCheck;
import dev.isocheck.examples.spring.jdbc.JdbcStockroom;
import dev.isocheck.examples.spring.jpa.JpaStockroom;
import dev.isocheck.examples.spring.mybatis.MyBatisStockroom;
import dev.isocheck.explain.Explanation;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * What a failing stockroom test looks like, in each of the three ways the application is written:
 * at READ COMMITTED two nurses take a box of gloves at once, both read 10 and both write 9. The
 * fixture is run through EngineTestKit; these tests assert that it fails with the lost update
 * explained, the UPDATE each stack sent quoted.
 */
class LostUpdateAnomalyTests {

    @TempDir
    Path reports;

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "withJpa          | update supply set on_hand=? where sku=?  [9, gloves]",
        "withJdbcTemplate | UPDATE supply SET on_hand = ? WHERE sku = ?  [9, gloves]",
        "withMyBatis      | UPDATE supply SET on_hand = ? WHERE sku = ?  [9, gloves]",
    })
    void theLostUpdateFailsTheTest(String method, String update) {
        Throwable thrown = EngineTestKit.engine("junit-jupiter")
                .selectors(selectMethod(TwoNursesAtOnce.class, method))
                .configurationParameter("isocheck.report.dir", reports.toString())
                .execute()
                .testEvents()
                .assertStatistics(stats -> stats.started(1).failed(1))
                .failed().list().get(0)
                .getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();

        assertThat(thrown).isInstanceOf(IsolationViolationError.class);
        IsolationViolationError failure = (IsolationViolationError) thrown;
        assertThat(failure.explanation()).isInstanceOfSatisfying(Explanation.Cycles.class,
                cycles -> assertThat(cycles.familiarName()).contains("lost update"));
        assertThat(failure.getMessage())
                .contains("supply/gloves")
                .contains(update)
                .contains("thread nurse-1", "thread nurse-2");
        assertThat(failure.notModelled()).isEmpty();
    }

    /** The stockroom's test at READ COMMITTED, in each stack; run by the test above only. */
    @HospitalTest
    @SerializableCheck
    static class TwoNursesAtOnce {

        @Autowired
        HeldRequests held;

        @Autowired
        JpaStockroom jpa;

        @Autowired
        JdbcStockroom jdbcTemplate;

        @Autowired
        MyBatisStockroom myBatis;

        @BeforeEach
        void tenBoxes() {
            Ward.stockTenBoxesOfGloves();
            held.holdAt(Rendezvous.of(2));
        }

        @Test
        void withJpa() throws Exception {
            bothTakeOneAndOneIsLost(jpa::take);
        }

        @Test
        void withJdbcTemplate() throws Exception {
            bothTakeOneAndOneIsLost(jdbcTemplate::take);
        }

        @Test
        void withMyBatis() throws Exception {
            bothTakeOneAndOneIsLost(myBatis::take);
        }

        private static void bothTakeOneAndOneIsLost(BiConsumer<String, Integer> take) throws Exception {
            List<Throwable> outcomes = Ward.atOnce(
                    "nurse-1", () -> take.accept(Ward.GLOVES, 1),
                    "nurse-2", () -> take.accept(Ward.GLOVES, 1));

            assertThat(outcomes).containsOnlyNulls();
            // Two boxes left the shelf; the stockroom counts one.
            assertThat(Ward.glovesOnHand()).isEqualTo(9);
        }
    }
}
