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
 * The stockroom's fixed code on MariaDB, in each stack, as the team keeps its tests: two nurses
 * take a box of gloves at once in every schedule explored, every statement recorded (nothing left
 * out) and the run serializable. Five schedules each, to keep the module's build short.
 */
@StockroomOnMariadbTests.OnMariadb
@SerializableCheck
class FixedStockroomOnMariadbTests {

    @Autowired
    JpaStockroom jpa;

    @Autowired
    JdbcStockroom jdbcTemplate;

    @Autowired
    MyBatisStockroom myBatis;

    @BeforeEach
    void tenBoxes() {
        StockroomOnMariadbTests.stockTenBoxes();
    }

    @InterleavingTest(schedules = 5)
    void jpaWithAPessimisticLock(Recording recording) throws Exception {
        assertThat(StockroomOnMariadbTests.bothTakeOne((sku, n) -> jpa.takeLocked(sku, n))).containsOnlyNulls();
        assertThat(StockroomOnMariadbTests.glovesOnHand()).isEqualTo(8);
        IsocheckAssertions.assertThat(recording).hasNothingLeftOut().isSerializable();
    }

    @InterleavingTest(schedules = 5)
    void jdbcTemplateSelectForUpdate(Recording recording) throws Exception {
        assertThat(StockroomOnMariadbTests.bothTakeOne((sku, n) -> jdbcTemplate.takeForUpdate(sku, n))).containsOnlyNulls();
        assertThat(StockroomOnMariadbTests.glovesOnHand()).isEqualTo(8);
        IsocheckAssertions.assertThat(recording).hasNothingLeftOut().isSerializable();
    }

    @InterleavingTest(schedules = 5)
    void myBatisWithAVersionColumn(Recording recording) throws Exception {
        List<Throwable> refusals = StockroomOnMariadbTests.bothTakeOne((sku, n) -> myBatis.takeIfUnchanged(sku, n)).stream()
                .filter(Objects::nonNull).toList();
        assertThat(refusals).hasSizeLessThanOrEqualTo(1)
                .allSatisfy(refused -> assertThat(refused).isInstanceOf(OptimisticLockingFailureException.class));
        assertThat(StockroomOnMariadbTests.glovesOnHand()).isEqualTo(10 - (2 - refusals.size()));
        IsocheckAssertions.assertThat(recording).hasNothingLeftOut().isSerializable();
    }
}
