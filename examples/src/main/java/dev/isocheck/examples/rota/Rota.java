package dev.isocheck.examples.rota;

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
 * A hospital's on-call rota. The rule: a shift always keeps at least one doctor on call, so a
 * doctor may go off call only while someone else is on. {@link #goOffCall} counts the doctors on
 * call (a query over a predicate, {@code shift = ? AND on_call}) and then updates its own row;
 * two doctors of one shift doing so at once can both count two and both leave: write skew over a
 * predicate, the classic example of what snapshot isolation (PostgreSQL's REPEATABLE READ) allows.
 */
public final class Rota {

    private final Transactions transactions;
    private final Pager pager;

    /**
     * A rota kept in {@code transactions}' database.
     *
     * @param transactions the database and the isolation level the rota runs at
     * @param pager        tells the colleagues who stay on call
     */
    public Rota(Transactions transactions, Pager pager) {
        this.transactions = Objects.requireNonNull(transactions, "transactions is null");
        this.pager = Objects.requireNonNull(pager, "pager is null");
    }

    /** Creates the {@code doctor} table, replacing any there was, in {@code dataSource}'s database. */
    public static void createSchema(DataSource dataSource) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS doctor");
            s.execute("CREATE TABLE doctor (name VARCHAR(40) PRIMARY KEY, shift INTEGER NOT NULL, on_call BOOLEAN NOT NULL)");
        }
    }

    /** Puts {@code doctor} on call for {@code shift}. */
    public void addOnCall(String doctor, int shift) throws SQLException {
        transactions.inTransaction(c -> {
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO doctor (name, shift, on_call) VALUES (?, ?, TRUE)")) {
                insert.setString(1, doctor);
                insert.setInt(2, shift);
                return insert.executeUpdate();
            }
        });
    }

    /**
     * Takes {@code doctor} off call for {@code shift}, provided another doctor stays on call.
     *
     * @throws LastDoctorOnCall when {@code doctor} is the only one left
     * @throws SQLException     when the database fails
     */
    public void goOffCall(String doctor, int shift) throws SQLException {
        transactions.inTransaction(c -> {
            List<String> onCall = onCall(c, shift);
            if (!onCall.contains(doctor)) {
                return null;
            }
            if (onCall.size() < 2) {
                throw new LastDoctorOnCall(doctor, shift);
            }
            onCall.remove(doctor);
            pager.page(onCall, doctor + " is going off call for shift " + shift);
            try (PreparedStatement update = c.prepareStatement("UPDATE doctor SET on_call = FALSE WHERE name = ?")) {
                update.setString(1, doctor);
                update.executeUpdate();
            }
            return null;
        });
    }

    /** The doctors on call for {@code shift}, in one transaction. */
    public List<String> onCall(int shift) throws SQLException {
        return transactions.inTransaction(c -> onCall(c, shift));
    }

    private static List<String> onCall(Connection c, int shift) throws SQLException {
        try (PreparedStatement select = c.prepareStatement("SELECT name FROM doctor WHERE shift = ? AND on_call = TRUE")) {
            select.setInt(1, shift);
            List<String> names = new ArrayList<>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    names.add(rows.getString("name"));
                }
            }
            return names;
        }
    }
}
