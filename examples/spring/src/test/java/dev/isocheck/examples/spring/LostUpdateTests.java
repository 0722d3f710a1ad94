package dev.isocheck.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.InterleavingTest;
import dev.isocheck.Recording;
import dev.isocheck.SerializableCheck;
import dev.isocheck.assertj.IsocheckAssertions;
import dev.isocheck.examples.spring.jdbc.JdbcStockroom;
import dev.isocheck.examples.spring.jpa.JpaStockroom;
import dev.isocheck.examples.spring.mybatis.MyBatisStockroom;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.OptimisticLockingFailureException;

/**
 * The stockroom's concurrency tests, as the team keeps them: two nurses take a box of gloves at
 * once, through the fixed code of each stack, in every schedule explored, and every transaction is
 * recorded and checked at serializable. Each test also asserts that the recording left nothing out,
 * so that the pass covers every statement the stack sent.
 *
 * <p>Ten schedules each, not the default twenty: two requests of four points each have 70 orders,
 * and round robin with nine random walks takes them one after the other, either first, and
 * interleaved, while the module's build stays short.
 */
@HospitalTest
@SerializableCheck
class LostUpdateTests {

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

    /** {@code @Lock(PESSIMISTIC_WRITE)}: the second request to read the row waits for the first's commit, then reads 9. */
    @InterleavingTest(schedules = 10)
    void jpaWithAPessimisticLockCountsBothBoxes(Recording recording) throws Exception {
        List<Throwable> outcomes = bothTakeOne((sku, n) -> jpa.takeLocked(sku, n));

        assertThat(outcomes).containsOnlyNulls();
        assertThat(Ward.glovesOnHand()).isEqualTo(8);
        IsocheckAssertions.assertThat(recording).hasNothingLeftOut().isSerializable();
    }

    /** {@code SELECT ... FOR UPDATE}: the same, with JdbcTemplate. */
    @InterleavingTest(schedules = 10)
    void jdbcTemplateSelectForUpdateCountsBothBoxes(Recording recording) throws Exception {
        List<Throwable> outcomes = bothTakeOne((sku, n) -> jdbcTemplate.takeForUpdate(sku, n));

        assertThat(outcomes).containsOnlyNulls();
        assertThat(Ward.glovesOnHand()).isEqualTo(8);
        IsocheckAssertions.assertThat(recording).hasNothingLeftOut().isSerializable();
    }

    /**
     * A version column: where both requests read version 0, the second's update finds version 1,
     * changes nothing, and the request fails rather than write over the first one's count; where one
     * ran after the other, the second read version 1 and both boxes count. No box is ever lost.
     */
    @InterleavingTest(schedules = 10)
    void myBatisWithAVersionColumnLosesNoBox(Recording recording) throws Exception {
        List<Throwable> outcomes = bothTakeOne((sku, n) -> myBatis.takeIfUnchanged(sku, n));

        List<Throwable> refusals = outcomes.stream().filter(Objects::nonNull).toList();
        assertThat(refusals).hasSizeLessThanOrEqualTo(1)
                .allSatisfy(refused -> assertThat(refused).isInstanceOf(OptimisticLockingFailureException.class));
        assertThat(Ward.glovesOnHand()).isEqualTo(10 - (2 - refusals.size()));
        IsocheckAssertions.assertThat(recording).hasNothingLeftOut().isSerializable();
    }

    private static List<Throwable> bothTakeOne(Take take) throws InterruptedException {
        return Ward.atOnce(
                "nurse-1", () -> take.take(Ward.GLOVES, 1),
                "nurse-2", () -> take.take(Ward.GLOVES, 1));
    }

    @FunctionalInterface
    private interface Take {
        void take(String sku, int quantity);
    }
}
