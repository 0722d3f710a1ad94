package dev.isocheck.examples.inventory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import dev.isocheck.IsolationViolationError;
import dev.isocheck.SerializableCheck;
import dev.isocheck.examples.EmbeddedPostgres;
import dev.isocheck.examples.IsolationSetting;
import dev.isocheck.explain.Explanation;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * What a failing inventory test looks like: at READ COMMITTED, on PostgreSQL and on H2, both orders
 * read 10 lamps and both write 9, and one reservation is lost. The fixture is run through
 * EngineTestKit; these tests assert its failure.
 */
class InventoryAnomalyTests {

    @TempDir
    Path reports;

    @ParameterizedTest
    @ValueSource(strings = {"onPostgresAtReadCommitted", "onH2AtReadCommitted"})
    void theLostUpdateFailsTheTest(String method) {
        Throwable thrown = EngineTestKit.engine("junit-jupiter")
                .selectors(selectMethod(OrdersAtOnce.class, method))
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
                .contains("stock/lamp")
                .contains("UPDATE stock SET on_hand = ? WHERE sku = ?  [9, lamp]")
                .contains("thread order-1", "thread order-2");
    }

    /** The inventory's test at READ COMMITTED; run by the test above only. */
    @SerializableCheck
    static class OrdersAtOnce {

        private static final AtomicInteger H2_DATABASES = new AtomicInteger();

        @Test
        void onPostgresAtReadCommitted() throws Exception {
            orderAndLoseOne(new TwoOrdersAtOnce(EmbeddedPostgres.dataSource(), IsolationSetting.READ_COMMITTED));
        }

        @Test
        void onH2AtReadCommitted() throws Exception {
            JdbcDataSource h2 = new JdbcDataSource();
            // The second writer waits for the first's row lock, then overwrites its count.
            h2.setURL("jdbc:h2:mem:inventory-" + H2_DATABASES.incrementAndGet() + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000");
            orderAndLoseOne(new TwoOrdersAtOnce(h2, IsolationSetting.READ_COMMITTED));
        }

        private static void orderAndLoseOne(TwoOrdersAtOnce orders) throws Exception {
            assertThat(orders.order()).containsOnlyNulls();
            // Two lamps left the shelf; the stock says one did.
            assertThat(orders.onHand()).isEqualTo(9);
        }
    }
}
