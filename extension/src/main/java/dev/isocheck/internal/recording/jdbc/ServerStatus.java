package dev.isocheck.internal.recording.jdbc;

import java.sql.Connection;

/**
 * Whether a MySQL or MariaDB server has a transaction open on a connection, as the driver last
 * heard from it (the server sends its status with every reply), without a round trip: MariaDB's
 * driver keeps the status flags ({@code SERVER_STATUS_IN_TRANS}) and the warning count, MySQL's
 * driver answers {@code inTransactionOnServer} and {@code getWarningCount}. Read reflectively: neither driver is a dependency of isocheck.
 */
final class ServerStatus {

    /** The server's "in transaction" status flag. */
    private static final int IN_TRANSACTION = 1;

    private ServerStatus() {
    }

    /**
     * Whether the server had no transaction in progress on {@code connection} at its last reply;
     * false where the driver does not say (the recorder then sends nothing of its own on it).
     */
    static boolean idle(Connection connection) {
        ClassLoader loader = connection.getClass().getClassLoader();
        try {
            Class<?> mariadb = Class.forName("org.mariadb.jdbc.Connection", false, loader);
            if (connection.isWrapperFor(mariadb)) {
                Object context = mariadb.getMethod("getContext").invoke(connection.unwrap(mariadb));
                Class<?> contextType = Class.forName("org.mariadb.jdbc.client.Context", false, loader);
                int status = (Integer) contextType.getMethod("getServerStatus").invoke(context);
                return (status & IN_TRANSACTION) == 0;
            }
        } catch (ReflectiveOperationException | java.sql.SQLException | RuntimeException | LinkageError e) {
            // Not MariaDB's driver, or another version of it: MySQL's is asked next.
        }
        try {
            Class<?> mysql = Class.forName("com.mysql.cj.jdbc.ConnectionImpl", false, loader);
            if (connection.isWrapperFor(mysql)) {
                Object session = mysql.getMethod("getSession").invoke(connection.unwrap(mysql));
                Object server = Class.forName("com.mysql.cj.NativeSession", false, loader).getMethod("getServerSession").invoke(session);
                return !(Boolean) Class.forName("com.mysql.cj.protocol.ServerSession", false, loader)
                        .getMethod("inTransactionOnServer").invoke(server);
            }
        } catch (ReflectiveOperationException | java.sql.SQLException | RuntimeException | LinkageError e) {
            return false;
        }
        return false;
    }

    /**
     * How many warnings the server reported for the last statement on {@code connection}, as the
     * driver holds the count (it asks for the warnings themselves only when the application does);
     * -1 where the driver does not say.
     */
    static int warnings(Connection connection) {
        ClassLoader loader = connection.getClass().getClassLoader();
        try {
            Class<?> mariadb = Class.forName("org.mariadb.jdbc.Connection", false, loader);
            if (connection.isWrapperFor(mariadb)) {
                Object context = mariadb.getMethod("getContext").invoke(connection.unwrap(mariadb));
                Class<?> contextType = Class.forName("org.mariadb.jdbc.client.Context", false, loader);
                return (Integer) contextType.getMethod("getWarning").invoke(context);
            }
        } catch (ReflectiveOperationException | java.sql.SQLException | RuntimeException | LinkageError e) {
            // Not MariaDB's driver, or another version of it: MySQL's is asked next.
        }
        try {
            Class<?> mysql = Class.forName("com.mysql.cj.jdbc.ConnectionImpl", false, loader);
            if (connection.isWrapperFor(mysql)) {
                Object session = mysql.getMethod("getSession").invoke(connection.unwrap(mysql));
                Object protocol = Class.forName("com.mysql.cj.NativeSession", false, loader).getMethod("getProtocol").invoke(session);
                return (Integer) Class.forName("com.mysql.cj.protocol.a.NativeProtocol", false, loader).getMethod("getWarningCount")
                        .invoke(protocol);
            }
        } catch (ReflectiveOperationException | java.sql.SQLException | RuntimeException | LinkageError e) {
            return -1;
        }
        return -1;
    }
}
