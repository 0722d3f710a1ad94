package dev.isocheck.examples.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.InterleavingTest;
import dev.isocheck.IsolationViolationError;
import dev.isocheck.SerializableCheck;
import dev.isocheck.examples.EmbeddedMariadb;
import dev.isocheck.examples.ExploredRuns;
import dev.isocheck.examples.IsolationSetting;
import dev.isocheck.explain.Explanation;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The inventory on MariaDB, whose default level, REPEATABLE READ, surprises users most: a SELECT
 * reads the transaction's snapshot, an UPDATE the newest row, so the two orders' read-modify-write
 * loses one reservation without any error, where PostgreSQL's REPEATABLE READ refuses the second
 * writer. The check catches it, naming the lost update and the SQL; at SERIALIZABLE (plain
 * SELECTs lock the rows they read: one order deadlocks, SQLSTATE 40001, and is retried) the same
 * code passes in every schedule explored.
 */
class InventoryOnMariadbTests {

    @TempDir
    Path reports;

    @Test
    void theLostUpdateAtRepeatableReadFailsTheTest() {
        IsolationViolationError failure = ExploredRuns.of(OrdersOnMariadb.class, "atRepeatableRead", reports)
                .assertViolationFoundWithin(ExploredRuns.FIRST_FEW);

        assertThat(failure.explanation()).isInstanceOfSatisfying(Explanation.Cycles.class,
                cycles -> assertThat(cycles.familiarName()).contains("lost update"));
        assertThat(failure.getMessage())
                .contains("stock/lamp")
                .contains("SELECT on_hand FROM stock WHERE sku = ?  [lamp]")
                .contains("UPDATE stock SET on_hand = ? WHERE sku = ?  [9, lamp]")
                .contains("thread order-1", "thread order-2");
        // Every statement recorded: the UPDATE's row read back by key inside its transaction.
        assertThat(failure.notModelled()).isEmpty();
    }

    /**
     * The same on a MariaDB that keeps a row-based binary log, as a primary does: the writes come
     * from the server's own log, the statements go as written, and the lost update is caught the
     * same way, named the same.
     */
    @Test
    void theLostUpdateIsCaughtFromTheBinaryLogToo() {
        IsolationViolationError failure = ExploredRuns.of(OrdersOnMariadb.class, "atRepeatableReadWithTheBinaryLog", reports)
                .assertViolationFoundWithin(ExploredRuns.FIRST_FEW);

        assertThat(failure.explanation()).isInstanceOfSatisfying(Explanation.Cycles.class,
                cycles -> assertThat(cycles.familiarName()).contains("lost update"));
        assertThat(failure.getMessage()).contains("stock/lamp", "UPDATE stock SET on_hand = ? WHERE sku = ?  [9, lamp]",
                "writes recorded from MariaDB's binary log");
        assertThat(failure.notModelled()).isEmpty();
    }

    @Test
    void theSameCodeAtSerializablePassesInEveryScheduleExplored() {
        ExploredRuns.of(OrdersOnMariadb.class, "atSerializable", reports).assertEverySchedulePassed(5);
    }

    /** The inventory's test on MariaDB; run by the tests above only. */
    @SerializableCheck
    static class OrdersOnMariadb {

        @InterleavingTest
        void atRepeatableRead() throws Exception {
            TwoOrdersAtOnce orders = new TwoOrdersAtOnce(EmbeddedMariadb.database("inventory_rr"), IsolationSetting.REPEATABLE_READ);
            assertThat(orders.order()).containsOnlyNulls();
            // 8 when the second order read the first's count; 9 when it wrote over it.
            assertThat(orders.onHand()).isBetween(8, 9);
        }

        @InterleavingTest
        void atRepeatableReadWithTheBinaryLog() throws Exception {
            TwoOrdersAtOnce orders = new TwoOrdersAtOnce(EmbeddedMariadb.withBinaryLog("inventory_log"), IsolationSetting.REPEATABLE_READ);
            assertThat(orders.order()).containsOnlyNulls();
            assertThat(orders.onHand()).isBetween(8, 9);
        }

        @InterleavingTest(schedules = 5)
        void atSerializable() throws Exception {
            TwoOrdersAtOnce orders = new TwoOrdersAtOnce(EmbeddedMariadb.database("inventory_ser"), IsolationSetting.SERIALIZABLE);
            assertThat(orders.order()).containsOnlyNulls();
            assertThat(orders.onHand()).isEqualTo(8);
        }
    }
}
