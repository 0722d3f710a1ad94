package dev.isocheck.examples;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;

/**
 * Runs units of work as transactions at one isolation level, retrying those the database aborted
 * to keep them isolated (SQLSTATE 40001, serialization failure, and 40P01, deadlock): what every
 * application running at REPEATABLE READ or SERIALIZABLE on PostgreSQL has to do.
 */
public final class Transactions {

    /** How often a transaction is tried before its serialization failure reaches the caller. */
    public static final int ATTEMPTS = 10;

    private final DataSource dataSource;
    private final IsolationSetting isolation;
    private final AtomicInteger retries = new AtomicInteger();

    /**
     * Transactions on connections of {@code dataSource} at {@code isolation}.
     *
     * @param dataSource where connections come from (recorded or not: the application cannot tell)
     * @param isolation  the level every transaction runs at
     */
    public Transactions(DataSource dataSource, IsolationSetting isolation) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource is null");
        this.isolation = Objects.requireNonNull(isolation, "isolation is null");
    }

    /** The level the transactions run at. */
    public IsolationSetting isolation() {
        return isolation;
    }

    /** How many transactions were tried again after a serialization failure, so far. */
    public int retries() {
        return retries.get();
    }

    /**
     * Runs {@code work} in a transaction on a connection of its own and commits it; when the
     * database aborts it to keep transactions isolated, runs it again, from the start, on a new
     * transaction (a little later, so that two retrying transactions part ways).
     *
     * @param work the transaction's statements; it must not commit or roll back itself
     * @return what {@code work} returned
     * @throws SQLException the last failure, once the attempts are spent, or any other failure
     */
    public <T> T inTransaction(Work<T> work) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                return once(work);
            } catch (SQLException e) {
                if (!isSerializationFailure(e) || attempt == ATTEMPTS) {
                    throw e;
                }
                retries.incrementAndGet();
                pause(attempt);
            }
        }
    }

    private <T> T once(Work<T> work) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setTransactionIsolation(isolation.jdbcLevel());
            connection.setAutoCommit(false);
            try {
                T result = work.run(connection);
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    /** Whether the database gave up on the transaction to keep it isolated: trying again is the cure. */
    public static boolean isSerializationFailure(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s && ("40001".equals(s.getSQLState()) || "40P01".equals(s.getSQLState()))) {
                return true;
            }
        }
        return false;
    }

    private static void pause(int attempt) {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(1, 10L * attempt));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The statements of one transaction.
     *
     * @param <T> what the transaction computes
     */
    @FunctionalInterface
    public interface Work<T> {

        /** Runs the statements on {@code connection}, whose transaction is committed afterwards. */
        T run(Connection connection) throws SQLException;
    }
}
