package dev.isocheck.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.InterleavingTest;
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
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * What a failing stockroom test looks like, in each of the three ways the application is written:
 * at READ COMMITTED two nurses take a box of gloves at once, both read 10 and both write 9. The
 * fixture is an {@code @InterleavingTest} run through EngineTestKit; these tests assert that one
 * of its first schedules fails with the lost update explained, the UPDATE each stack sent quoted.
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
        ExploredRun run = ExploredRun.of(TwoNursesAtOnce.class, method, reports);
        Throwable thrown = run.firstFailure(3);

        assertThat(thrown).isInstanceOf(IsolationViolationError.class);
        IsolationViolationError failure = (IsolationViolationError) thrown;
        assertThat(failure.explanation()).isInstanceOfSatisfying(Explanation.Cycles.class,
                cycles -> assertThat(cycles.familiarName()).contains("lost update"));
        assertThat(failure.getMessage())
                .contains("supply/gloves")
                .contains(update)
                .contains("thread nurse-1", "thread nurse-2")
                .contains("Run this order again: @InterleavingTest(replay = \"");
        assertThat(failure.notModelled()).isEmpty();
    }

    /**
     * The stockroom's test at READ COMMITTED, in each stack, the requests started together with no
     * latch: the schedules explored find the order that loses a box. Run by the test above only.
     */
    @HospitalTest
    @SerializableCheck
    static class TwoNursesAtOnce {

        @Autowired
        JpaStockroom jpa;

        @Autowired
        JdbcStockroom jdbcTemplate;

        @Autowired
        MyBatisStockroom myBatis;

        @BeforeEach
        void tenBoxes() {
            Ward.stockTenBoxesOfGloves();
        }

        @InterleavingTest
        void withJpa() throws Exception {
            bothTakeOne(jpa::take);
        }

        @InterleavingTest
        void withJdbcTemplate() throws Exception {
            bothTakeOne(jdbcTemplate::take);
        }

        @InterleavingTest
        void withMyBatis() throws Exception {
            bothTakeOne(myBatis::take);
        }

        private static void bothTakeOne(BiConsumer<String, Integer> take) throws Exception {
            List<Throwable> outcomes = Ward.atOnce(
                    "nurse-1", () -> take.accept(Ward.GLOVES, 1),
                    "nurse-2", () -> take.accept(Ward.GLOVES, 1));

            assertThat(outcomes).containsOnlyNulls();
            // Two boxes left the shelf: 8 in the orders where one request ran after the other,
            // 9 where both read 10 (the lost update, which the check fails the schedule for).
            assertThat(Ward.glovesOnHand()).isIn(8, 9);
        }
    }
}
