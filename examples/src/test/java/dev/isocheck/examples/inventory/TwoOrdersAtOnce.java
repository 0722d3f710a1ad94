package dev.isocheck.examples.inventory;

import dev.isocheck.Isocheck;
import dev.isocheck.examples.Concurrently;
import dev.isocheck.examples.EmbeddedPostgres;
import dev.isocheck.examples.IsolationSetting;
import dev.isocheck.examples.Transactions;
import dev.isocheck.examples.Unrecorded;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;

/**
 * The inventory's tests' scenario: 10 lamps on hand, and two orders of one lamp each at the same
 * moment, each on a thread of its own. Nothing in the application holds them: an
 * {@code @InterleavingTest} runs them in the orders that break them, creating the scenario in its
 * body so that every schedule starts from a fresh stock.
 */
final class TwoOrdersAtOnce {

    static final String LAMP = "lamp";

    private final Inventory unrecorded;
    private final Inventory inventory;

    /** A fresh stock in the embedded PostgreSQL; the inventory under test runs at {@code isolation}, recorded. */
    TwoOrdersAtOnce(IsolationSetting isolation) throws SQLException {
        this(Unrecorded.postgres(), EmbeddedPostgres.dataSource(), isolation);
    }

    /** A fresh stock in {@code database}; the inventory under test runs at {@code isolation}, recorded. */
    TwoOrdersAtOnce(DataSource database, IsolationSetting isolation) throws SQLException {
        this(database, database, isolation);
    }

    private TwoOrdersAtOnce(DataSource setUp, DataSource database, IsolationSetting isolation) throws SQLException {
        Inventory.createSchema(setUp);
        unrecorded = new Inventory(new Transactions(setUp, isolation), Shipping.NONE);
        unrecorded.stock(LAMP, 10);
        inventory = new Inventory(new Transactions(Isocheck.record(database), isolation), Shipping.NONE);
    }

    /** One order on its own, recorded as the others are. */
    void orderAlone() throws SQLException {
        inventory.reserve(LAMP, 1);
    }

    /** Both orders at once; for each, {@code null} when it went through, or what it threw. */
    List<Throwable> order() throws InterruptedException {
        return Concurrently.run(List.of(
                new Concurrently.Task("order-1", () -> {
                    inventory.reserve(LAMP, 1);
                    return null;
                }),
                new Concurrently.Task("order-2", () -> {
                    inventory.reserve(LAMP, 1);
                    return null;
                })));
    }

    /** The lamps on hand now, read without recording. */
    int onHand() throws SQLException {
        return unrecorded.onHand(LAMP);
    }
}
