package dev.isocheck.examples.hotel;

import dev.isocheck.examples.Transactions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * A small hotel's bookings: a room is booked at most once a night. {@link #book} looks for the
 * room's bookings that night (a query over a predicate) and inserts one when there is none: two
 * guests booking the same room and night at once can both find it free and both insert, each
 * missing the other's new row (a phantom). PostgreSQL lets it through at READ COMMITTED and
 * REPEATABLE READ, and prevents it at SERIALIZABLE.
 */
public final class Hotel {

    private final Transactions transactions;
    private final Payments payments;

    /**
     * A hotel keeping its bookings in {@code transactions}' database.
     *
     * @param transactions the database and the isolation level the hotel runs at
     * @param payments     authorises each booking's payment
     */
    public Hotel(Transactions transactions, Payments payments) {
        this.transactions = Objects.requireNonNull(transactions, "transactions is null");
        this.payments = Objects.requireNonNull(payments, "payments is null");
    }

    /** Creates the {@code booking} table, replacing any there was, in {@code dataSource}'s database. */
    public static void createSchema(DataSource dataSource) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS booking");
            // No unique constraint on (room, night): the rule lives in the application, as rules
            // often must (a room can have a capacity, a booking can span nights).
            s.execute("CREATE TABLE booking (id VARCHAR(80) PRIMARY KEY, guest VARCHAR(40) NOT NULL,"
                    + " room INTEGER NOT NULL, night INTEGER NOT NULL)");
        }
    }

    /**
     * Books {@code room} for {@code night} for {@code guest}.
     *
     * @throws RoomTaken    when someone has booked it already
     * @throws SQLException when the database fails
     */
    public void book(String guest, int room, int night) throws SQLException {
        transactions.inTransaction(c -> {
            List<String> booked = bookings(c, room, night);
            if (!booked.isEmpty()) {
                throw new RoomTaken(room, night);
            }
            payments.authorize(guest);
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO booking (id, guest, room, night) VALUES (?, ?, ?, ?)")) {
                insert.setString(1, guest + "-" + room + "-" + night);
                insert.setString(2, guest);
                insert.setInt(3, room);
                insert.setInt(4, night);
                insert.executeUpdate();
            }
            return null;
        });
    }

    /** The bookings of {@code room} for {@code night}, by id, in one transaction. */
    public List<String> bookings(int room, int night) throws SQLException {
        return transactions.inTransaction(c -> bookings(c, room, night));
    }

    private static List<String> bookings(Connection c, int room, int night) throws SQLException {
        // The WHERE's columns are selected, so that the recorder checks the query as a predicate:
        // a row inserted into its range by a concurrent booking is a phantom it can show.
        try (PreparedStatement select = c.prepareStatement("SELECT id, room, night FROM booking WHERE room = ? AND night = ?")) {
            select.setInt(1, room);
            select.setInt(2, night);
            List<String> ids = new ArrayList<>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getString("id"));
                }
            }
            return ids;
        }
    }
}
