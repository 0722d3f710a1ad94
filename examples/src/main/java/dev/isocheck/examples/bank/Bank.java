package dev.isocheck.examples.bank;

import dev.isocheck.examples.Transactions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * A small bank. A customer has several accounts and may overdraw any one of them, as long as the
 * accounts together stay at or above zero: {@link #transfer} checks that rule before it moves the
 * money. The check reads every account of the customer and the transfer then writes one of them,
 * so two transfers from different accounts of one customer, run at once, can each see the other's
 * account untouched and together break the rule: write skew, which PostgreSQL lets through at READ
 * COMMITTED and REPEATABLE READ, and prevents at SERIALIZABLE.
 */
public final class Bank {

    private final Transactions transactions;
    private final FraudScreen fraudScreen;

    /**
     * A bank keeping its accounts in {@code transactions}' database, screening each transfer.
     *
     * @param transactions the database and the isolation level the bank runs at
     * @param fraudScreen  asked about each transfer after the balances were checked
     */
    public Bank(Transactions transactions, FraudScreen fraudScreen) {
        this.transactions = Objects.requireNonNull(transactions, "transactions is null");
        this.fraudScreen = Objects.requireNonNull(fraudScreen, "fraudScreen is null");
    }

    /** Creates the {@code account} table, replacing any there was, in {@code dataSource}'s database. */
    public static void createSchema(DataSource dataSource) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS account");
            s.execute("CREATE TABLE account (id VARCHAR(40) PRIMARY KEY, customer VARCHAR(40) NOT NULL, balance BIGINT NOT NULL)");
        }
    }

    /** Opens an account of {@code customer} holding {@code balance}. */
    public void open(String account, String customer, long balance) throws SQLException {
        transactions.inTransaction(c -> {
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO account (id, customer, balance) VALUES (?, ?, ?)")) {
                insert.setString(1, account);
                insert.setString(2, customer);
                insert.setLong(3, balance);
                return insert.executeUpdate();
            }
        });
    }

    /**
     * Moves {@code amount} from account {@code from} to account {@code to}, provided the accounts of
     * {@code from}'s customer still add up to zero or more afterwards.
     *
     * @throws InsufficientFunds when they would not; nothing is moved
     * @throws SQLException      when the database fails (a serialization failure after
     *                           {@link Transactions#ATTEMPTS} attempts included)
     */
    public void transfer(String from, String to, long amount) throws SQLException {
        transactions.inTransaction(c -> {
            String customer = customerOf(c, from);
            long total = balancesOf(c, customer).values().stream().mapToLong(Long::longValue).sum();
            if (total - amount < 0) {
                throw new InsufficientFunds(customer, total, amount);
            }
            fraudScreen.approve(from, to, amount);
            move(c, from, -amount);
            move(c, to, amount);
            return null;
        });
    }

    /** The balance of each account of {@code customer}, in one transaction. */
    public Map<String, Long> balancesOf(String customer) throws SQLException {
        return transactions.inTransaction(c -> balancesOf(c, customer));
    }

    private static String customerOf(Connection c, String account) throws SQLException {
        try (PreparedStatement select = c.prepareStatement("SELECT customer FROM account WHERE id = ?")) {
            select.setString(1, account);
            try (ResultSet rows = select.executeQuery()) {
                if (!rows.next()) {
                    throw new IllegalArgumentException("no account " + account);
                }
                return rows.getString(1);
            }
        }
    }

    private static Map<String, Long> balancesOf(Connection c, String customer) throws SQLException {
        try (PreparedStatement select = c.prepareStatement("SELECT id, balance FROM account WHERE customer = ? ORDER BY id")) {
            select.setString(1, customer);
            Map<String, Long> balances = new LinkedHashMap<>();
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    balances.put(rows.getString("id"), rows.getLong("balance"));
                }
            }
            return balances;
        }
    }

    private static void move(Connection c, String account, long amount) throws SQLException {
        // Relative to the stored balance, so that two transfers into one account both count.
        try (PreparedStatement update = c.prepareStatement("UPDATE account SET balance = balance + ? WHERE id = ?")) {
            update.setLong(1, amount);
            update.setString(2, account);
            if (update.executeUpdate() != 1) {
                throw new IllegalArgumentException("no account " + account);
            }
        }
    }
}
