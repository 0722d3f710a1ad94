package dev.isocheck.examples.inventory;

import static dev.isocheck.hamcrest.IsocheckMatchers.hasNothingLeftOut;
import static dev.isocheck.hamcrest.IsocheckMatchers.serializable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;

import dev.isocheck.InterleavingTest;
import dev.isocheck.Recording;
import dev.isocheck.SerializableCheck;
import dev.isocheck.examples.IsolationSetting;

/**
 * The inventory's concurrency tests: every transaction is recorded and checked at serializable.
 * Each runs the orders in several schedules (5 in the examples' build, set in
 * {@code junit-platform.properties}), round robin first (both reads before either write), each
 * from a fresh stock; what it asserts holds in every one of them.
 */
@SerializableCheck
class InventoryTests {

    /**
     * Where the two orders overlap, PostgreSQL's REPEATABLE READ refuses the second write of the
     * row (40001); retried, the order reads the first one's count. Serializable in every schedule,
     * though the level is only snapshot isolation: these orders have no write skew to let through.
     */
    @InterleavingTest
    void atRepeatableReadBothOrdersCount() throws Exception {
        TwoOrdersAtOnce orders = new TwoOrdersAtOnce(IsolationSetting.REPEATABLE_READ);

        assertThat(orders.order()).containsOnlyNulls();

        assertThat(orders.onHand()).isEqualTo(8);
    }

    /**
     * A morning's orders, in the team's Hamcrest style: one order alone, then two at once. The test
     * looks at the rush on its own ({@link Recording#since}), whose transactions the retry made
     * serializable, and at what the recording could not model (nothing, or the check would cover
     * less than the test ran); the check after the body then checks the whole morning.
     */
    @InterleavingTest
    void aQuietOrderThenTwoAtOnceAllCount(Recording recording) throws Exception {
        TwoOrdersAtOnce orders = new TwoOrdersAtOnce(IsolationSetting.REPEATABLE_READ);
        orders.orderAlone();

        Recording.Mark rush = recording.mark();
        assertThat(orders.order(), everyItem(is(nullValue())));

        assertThat(recording.since(rush), is(serializable()));
        assertThat(recording, hasNothingLeftOut());
        assertThat(orders.onHand(), is(7));
    }
}
