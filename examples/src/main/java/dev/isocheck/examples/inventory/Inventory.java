package dev.isocheck.examples.inventory;

import dev.isocheck.examples.Transactions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * A warehouse's stock. {@link #reserve} reads what is on hand, checks it covers the order, and
 * writes back the new count it computed: a read-modify-write in the application, which two
 * concurrent orders can interleave so that one order's reservation is lost (a lost update).
 * PostgreSQL lets it through at READ COMMITTED; from REPEATABLE READ on, the second writer fails
 * with 40001 and is retried.
 */
public final class Inventory {

    private final Transactions transactions;
    private final Shipping shipping;

    /**
     * A warehouse kept in {@code transactions}' database.
     *
     * @param transactions the database and the isolation level the warehouse runs at
     * @param shipping     books the pickup of each reservation
     */
    public Inventory(Transactions transactions, Shipping shipping) {
        this.transactions = Objects.requireNonNull(transactions, "transactions is null");
        this.shipping = Objects.requireNonNull(shipping, "shipping is null");
    }

    /** Creates the {@code stock} table, replacing any there was, in {@code dataSource}'s database. */
    public static void createSchema(DataSource dataSource) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS stock");
            s.execute("CREATE TABLE stock (sku VARCHAR(40) PRIMARY KEY, on_hand INTEGER NOT NULL)");
        }
    }

    /** Stocks {@code quantity} of {@code sku}, a new article. */
    public void stock(String sku, int quantity) throws SQLException {
        transactions.inTransaction(c -> {
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO stock (sku, on_hand) VALUES (?, ?)")) {
                insert.setString(1, sku);
                insert.setInt(2, quantity);
                return insert.executeUpdate();
            }
        });
    }

    /**
     * Takes {@code quantity} of {@code sku} off the shelf for an order.
     *
     * @throws OutOfStock   when fewer are on hand
     * @throws SQLException when the database fails
     */
    public void reserve(String sku, int quantity) throws SQLException {
        transactions.inTransaction(c -> {
            int onHand = onHand(c, sku);
            if (onHand < quantity) {
                throw new OutOfStock(sku, onHand, quantity);
            }
            shipping.bookPickup(sku, quantity);
            try (PreparedStatement update = c.prepareStatement("UPDATE stock SET on_hand = ? WHERE sku = ?")) {
                update.setInt(1, onHand - quantity);
                update.setString(2, sku);
                update.executeUpdate();
            }
            return null;
        });
    }

    /** How many of {@code sku} are on hand, in one transaction. */
    public int onHand(String sku) throws SQLException {
        return transactions.inTransaction(c -> onHand(c, sku));
    }

    private static int onHand(Connection c, String sku) throws SQLException {
        try (PreparedStatement select = c.prepareStatement("SELECT on_hand FROM stock WHERE sku = ?")) {
            select.setString(1, sku);
            try (ResultSet rows = select.executeQuery()) {
                if (!rows.next()) {
                    throw new IllegalArgumentException("no article " + sku);
                }
                return rows.getInt(1);
            }
        }
    }
}
