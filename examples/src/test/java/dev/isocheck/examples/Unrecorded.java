package dev.isocheck.examples;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * The embedded PostgreSQL for what a test does without recording (creating the tables, the rows
 * a scenario starts from, reading the outcome), on one connection kept open for the whole run:
 * an {@code @InterleavingTest} sets its scenario up again for every schedule, and a new
 * connection for each step of that would cost more than the schedule itself. Closing a
 * connection it gave ends its transaction and gives it back; one caller at a time has it.
 */
public final class Unrecorded {

    private static final ReentrantLock IN_USE = new ReentrantLock();
    private static Connection shared;
    private static final DataSource POSTGRES = new OneConnection();

    private Unrecorded() {
    }

    /** The embedded PostgreSQL, on the one connection. */
    public static DataSource postgres() {
        return POSTGRES;
    }

    private static Connection lend() throws SQLException {
        IN_USE.lock();
        try {
            if (shared == null || shared.isClosed()) {
                shared = EmbeddedPostgres.dataSource().getConnection();
            }
            Connection real = shared;
            boolean[] closed = {false};
            return (Connection) Proxy.newProxyInstance(Unrecorded.class.getClassLoader(), new Class<?>[] {Connection.class},
                    (proxy, method, args) -> switch (method.getName()) {
                        case "close" -> {
                            if (!closed[0]) {
                                closed[0] = true;
                                giveBack(real);
                            }
                            yield null;
                        }
                        case "isClosed" -> closed[0];
                        default -> {
                            if (closed[0]) {
                                throw new SQLException("connection closed");
                            }
                            try {
                                yield method.invoke(real, args);
                            } catch (InvocationTargetException e) {
                                throw e.getCause();
                            }
                        }
                    });
        } catch (SQLException | RuntimeException e) {
            IN_USE.unlock();
            throw e;
        }
    }

    private static void giveBack(Connection real) throws SQLException {
        try {
            if (!real.getAutoCommit()) {
                real.rollback();
                real.setAutoCommit(true);
            }
        } finally {
            IN_USE.unlock();
        }
    }

    private static final class OneConnection implements DataSource {

        @Override
        public Connection getConnection() throws SQLException {
            return lend();
        }

        @Override
        public Connection getConnection(String username, String password) throws SQLException {
            return lend();
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {
        }

        @Override
        public void setLoginTimeout(int seconds) {
        }

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            throw new SQLFeatureNotSupportedException("no parent logger");
        }

        @Override
        public <T> T unwrap(Class<T> type) throws SQLException {
            if (type.isInstance(this)) {
                return type.cast(this);
            }
            throw new SQLException("not a wrapper of " + type.getName());
        }

        @Override
        public boolean isWrapperFor(Class<?> type) {
            return type.isInstance(this);
        }
    }
}
