package dev.isocheck.examples.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.InterleavingTest;
import dev.isocheck.IsolationViolationError;
import dev.isocheck.SerializableCheck;
import dev.isocheck.examples.ExploredRuns;
import dev.isocheck.examples.IsolationSetting;
import dev.isocheck.explain.Explanation;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a failing inventory test looks like: at READ COMMITTED, on PostgreSQL and on H2, both orders
 * read 10 lamps and both write 9, and one reservation is lost. The fixture is run through
 * EngineTestKit, in the schedules {@code @InterleavingTest} explores; these tests assert its failure.
 */
class InventoryAnomalyTests {

    @TempDir
    Path reports;

    @ParameterizedTest
    @ValueSource(strings = {"onPostgresAtReadCommitted", "onH2AtReadCommitted"})
    void theLostUpdateFailsTheTest(String method) {
        // Round robin, the first schedule, has both reads before either write: the second write
        // waits for the first's row lock, and once the first commits, overwrites its count.
        IsolationViolationError failure = ExploredRuns.of(OrdersAtOnce.class, method, reports)
                .assertViolationFoundWithin(ExploredRuns.FIRST_FEW);

        assertThat(failure.explanation()).isInstanceOfSatisfying(Explanation.Cycles.class,
                cycles -> assertThat(cycles.familiarName()).contains("lost update"));
        assertThat(failure.getMessage())
                .contains("stock/lamp")
                .contains("UPDATE stock SET on_hand = ? WHERE sku = ?  [9, lamp]")
                .contains("thread order-1", "thread order-2")
                .contains("(A = order-1, B = order-2)");
    }

    /** The inventory's test at READ COMMITTED; run by the test above only. */
    @SerializableCheck
    static class OrdersAtOnce {

        private static final AtomicInteger H2_DATABASES = new AtomicInteger();

        @InterleavingTest
        void onPostgresAtReadCommitted() throws Exception {
            order(new TwoOrdersAtOnce(IsolationSetting.READ_COMMITTED));
        }

        @InterleavingTest
        void onH2AtReadCommitted() throws Exception {
            JdbcDataSource h2 = new JdbcDataSource();
            // A database of its own for each schedule. The second writer waits for the first's row lock.
            h2.setURL("jdbc:h2:mem:inventory-" + H2_DATABASES.incrementAndGet() + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000");
            order(new TwoOrdersAtOnce(h2, IsolationSetting.READ_COMMITTED));
        }

        /**
         * True in every order: both orders went through, and the stock shows 8 lamps (the second
         * order read the first's count) or 9 (it overwrote it: the lost update, which the check
         * catches).
         */
        private static void order(TwoOrdersAtOnce orders) throws Exception {
            assertThat(orders.order()).containsOnlyNulls();
            assertThat(orders.onHand()).isBetween(8, 9);
        }
    }
}
