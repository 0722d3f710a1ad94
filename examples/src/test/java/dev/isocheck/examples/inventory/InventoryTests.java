package dev.isocheck.examples.inventory;

import static dev.isocheck.hamcrest.IsocheckMatchers.hasNothingLeftOut;
import static dev.isocheck.hamcrest.IsocheckMatchers.serializable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;

import dev.isocheck.Recording;
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

    /**
     * A morning's orders, in the team's Hamcrest style: one order alone, then two at once. The test
     * looks at the rush on its own ({@link Recording#since}), whose transactions the retry made
     * serializable, and at what the recording could not model (nothing, or the check would cover
     * less than the test ran); the check after the body then checks the whole morning.
     */
    @Test
    void aQuietOrderThenTwoAtOnceAllCount(Recording recording) throws Exception {
        TwoOrdersAtOnce orders = new TwoOrdersAtOnce(EmbeddedPostgres.dataSource(), IsolationSetting.REPEATABLE_READ);
        orders.orderAlone();

        Recording.Mark rush = recording.mark();
        assertThat(orders.order(), everyItem(is(nullValue())));

        assertThat(recording.since(rush), is(serializable()));
        assertThat(recording, hasNothingLeftOut());
        assertThat(orders.onHand(), is(7));
    }
}
