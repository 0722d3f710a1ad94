package dev.isocheck.examples.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.SerializableCheck;
import dev.isocheck.examples.EmbeddedPostgres;
import dev.isocheck.examples.IsolationSetting;
import org.junit.jupiter.api.Test;

/** The inventory's concurrency tests: every transaction is recorded and checked at serializable. */
@SerializableCheck
class InventoryTests {

    /**
     * PostgreSQL's REPEATABLE READ refuses the second write of the row (40001); retried, the order
     * reads the first one's count. Serializable, though the level is only snapshot isolation: this
     * run has no write skew to let through.
     */
    @Test
    void atRepeatableReadTheSecondOrderIsRetriedAndBothCount() throws Exception {
        TwoOrdersAtOnce orders = new TwoOrdersAtOnce(EmbeddedPostgres.dataSource(), IsolationSetting.REPEATABLE_READ);

        assertThat(orders.order()).containsOnlyNulls();

        assertThat(orders.retries()).isPositive();
        assertThat(orders.onHand()).isEqualTo(8);
    }
}
