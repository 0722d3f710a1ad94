package dev.isocheck.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.Recording;
import dev.isocheck.SerializableCheck;
import dev.isocheck.assertj.IsocheckAssertions;
import dev.isocheck.examples.spring.jdbc.JdbcStockroom;
import dev.isocheck.examples.spring.jpa.JpaStockroom;
import dev.isocheck.examples.spring.mybatis.MyBatisStockroom;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.OptimisticLockingFailureException;

/**
 * The stockroom's concurrency tests, as the team keeps them: two nurses take a box of gloves at
 * once, through the fixed code of each stack, and every transaction is recorded and checked at
 * serializable. Each test also asserts that the recording left nothing out, so that the pass
 * covers every statement the stack sent.
 */
@HospitalTest
@SerializableCheck
class LostUpdateTests {

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
        // The first request to lock the row holds it while the second waits for the lock, in
        // PostgreSQL: the rendezvous lets the first through once the second is seen waiting.
        held.holdAt(Rendezvous.orLockWait(2, EmbeddedPostgres.dataSource()));
    }

    /** {@code @Lock(PESSIMISTIC_WRITE)}: the second request waits for the row, then reads 9. */
    @Test
    void jpaWithAPessimisticLockCountsBothBoxes(Recording recording) throws Exception {
        List<Throwable> outcomes = bothTakeOne((sku, n) -> jpa.takeLocked(sku, n));

        assertThat(outcomes).containsOnlyNulls();
        assertThat(Ward.glovesOnHand()).isEqualTo(8);
        IsocheckAssertions.assertThat(recording).hasNothingLeftOut().isSerializable();
    }

    /** {@code SELECT ... FOR UPDATE}: the same, with JdbcTemplate. */
    @Test
    void jdbcTemplateSelectForUpdateCountsBothBoxes(Recording recording) throws Exception {
        List<Throwable> outcomes = bothTakeOne((sku, n) -> jdbcTemplate.takeForUpdate(sku, n));

        assertThat(outcomes).containsOnlyNulls();
        assertThat(Ward.glovesOnHand()).isEqualTo(8);
        IsocheckAssertions.assertThat(recording).hasNothingLeftOut().isSerializable();
    }

    /**
     * A version column: both requests read version 0; the second's update finds version 1 and
     * changes nothing, and the request fails rather than write over the first one's count.
     */
    @Test
    void myBatisWithAVersionColumnRefusesTheSecondBox(Recording recording) throws Exception {
        held.holdAt(Rendezvous.of(2));

        List<Throwable> outcomes = bothTakeOne((sku, n) -> myBatis.takeIfUnchanged(sku, n));

        assertThat(outcomes).filteredOn(Objects::nonNull).singleElement()
                .isInstanceOf(OptimisticLockingFailureException.class);
        assertThat(Ward.glovesOnHand()).isEqualTo(9);
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
