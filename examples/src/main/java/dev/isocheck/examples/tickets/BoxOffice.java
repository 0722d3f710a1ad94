package dev.isocheck.examples.tickets;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.transaction.SerializableTransactionRunner;
import org.jdbi.v3.core.transaction.TransactionIsolationLevel;
import org.jdbi.v3.sqlobject.SqlObjectPlugin;

/**
 * A concert's box office, written with Jdbi: {@link #buy} counts the tickets sold, and issues one
 * if a seat is left. Two fans buying the last seat at once each count one seat left and each insert
 * a ticket (a phantom: neither count saw the other's row). PostgreSQL lets it through at READ
 * COMMITTED and REPEATABLE READ; at SERIALIZABLE it aborts one purchase with 40001, which Jdbi's
 * {@link SerializableTransactionRunner} retries, and the retry finds the concert sold out.
 */
public final class BoxOffice {

    private final Jdbi jdbi;
    private final TransactionIsolationLevel isolation;
    private final CardPayments payments;
    private final AtomicInteger retries = new AtomicInteger();

    /**
     * A box office on {@code jdbi}, its purchases at {@code isolation}.
     *
     * @param payments charges each fan between the count and the ticket
     */
    public BoxOffice(Jdbi jdbi, TransactionIsolationLevel isolation, CardPayments payments) {
        this.jdbi = Objects.requireNonNull(jdbi, "jdbi is null");
        this.isolation = Objects.requireNonNull(isolation, "isolation is null");
        this.payments = Objects.requireNonNull(payments, "payments is null");
        jdbi.installPlugin(new SqlObjectPlugin());
        SerializableTransactionRunner runner = new SerializableTransactionRunner();
        jdbi.setTransactionHandler(runner);
        jdbi.getConfig(SerializableTransactionRunner.Configuration.class)
                .setOnFailure(failures -> retries.incrementAndGet());
    }

    /** Creates the {@code concert} and {@code ticket} tables, replacing any there were. */
    public static void createSchema(DataSource dataSource) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS ticket");
            s.execute("DROP TABLE IF EXISTS concert");
            s.execute("CREATE TABLE concert (id VARCHAR(40) PRIMARY KEY, capacity INTEGER NOT NULL)");
            s.execute("CREATE TABLE ticket (id VARCHAR(80) PRIMARY KEY, concert VARCHAR(40) NOT NULL, holder VARCHAR(40) NOT NULL)");
        }
    }

    /** Puts {@code concert} on sale with {@code capacity} seats. */
    public void announce(String concert, int capacity) {
        jdbi.useHandle(handle -> handle.execute("INSERT INTO concert (id, capacity) VALUES (?, ?)", concert, capacity));
    }

    /**
     * Sells {@code holder} a ticket for {@code concert}.
     *
     * @throws SoldOut when every seat is sold
     */
    public void buy(String concert, String holder) {
        jdbi.useTransaction(isolation, handle -> {
            TicketDao tickets = handle.attach(TicketDao.class);
            if (tickets.sold(concert) >= tickets.capacity(concert)) {
                throw new SoldOut(concert);
            }
            payments.charge(holder);
            tickets.issue(concert + "/" + holder, concert, holder);
        });
    }

    /** How many tickets were sold for {@code concert}. */
    public int sold(String concert) {
        return jdbi.withExtension(TicketDao.class, tickets -> tickets.sold(concert));
    }

    /** How many purchases the database aborted and Jdbi retried. */
    public int retries() {
        return retries.get();
    }
}
