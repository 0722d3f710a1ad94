package dev.isocheck.internal.recording.jdbc;

import java.sql.Connection;

/**
 * What MySQL's and MariaDB's drivers hold of the server's last reply on a connection, read without
 * a round trip: whether a transaction is open (the server sends its status flags with every reply)
 * and how many warnings the last statement left (the driver asks for the warnings themselves only
 * when the application does). MariaDB's driver keeps both in its context; MySQL's in its session's
 * server session and protocol. Read reflectively: neither driver is a dependency of isocheck.
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
        Object answer = ask(connection, "getServerStatus", "getServerSession", "com.mysql.cj.protocol.ServerSession",
                "inTransactionOnServer");
        return answer instanceof Integer status ? (status & IN_TRANSACTION) == 0 : Boolean.FALSE.equals(answer);
    }

    /** How many warnings the server reported for the last statement on {@code connection}; -1 where the driver does not say. */
    static int warnings(Connection connection) {
        Object answer = ask(connection, "getWarning", "getProtocol", "com.mysql.cj.protocol.a.NativeProtocol", "getWarningCount");
        return answer instanceof Integer count ? count : -1;
    }

    /**
     * Asks MariaDB's driver's context {@code mariadbMethod}, or MySQL's driver's session for the
     * object {@code mysqlPart} gives and that object ({@code mysqlType}) {@code mysqlMethod};
     * {@code null} when {@code connection} is neither driver's or the driver has no such method.
     */
    private static Object ask(Connection connection, String mariadbMethod, String mysqlPart, String mysqlType,
                              String mysqlMethod) {
        ClassLoader loader = connection.getClass().getClassLoader();
        try {
            Class<?> mariadb = Class.forName("org.mariadb.jdbc.Connection", false, loader);
            if (connection.isWrapperFor(mariadb)) {
                Object context = mariadb.getMethod("getContext").invoke(connection.unwrap(mariadb));
                return Class.forName("org.mariadb.jdbc.client.Context", false, loader).getMethod(mariadbMethod).invoke(context);
            }
        } catch (ReflectiveOperationException | java.sql.SQLException | RuntimeException | LinkageError e) {
            // Not MariaDB's driver, or another version of it: MySQL's is asked next.
        }
        try {
            Class<?> mysql = Class.forName("com.mysql.cj.jdbc.ConnectionImpl", false, loader);
            if (connection.isWrapperFor(mysql)) {
                Object session = mysql.getMethod("getSession").invoke(connection.unwrap(mysql));
                Object part = Class.forName("com.mysql.cj.NativeSession", false, loader).getMethod(mysqlPart).invoke(session);
                return Class.forName(mysqlType, false, loader).getMethod(mysqlMethod).invoke(part);
            }
        } catch (ReflectiveOperationException | java.sql.SQLException | RuntimeException | LinkageError e) {
            return null;
        }
        return null;
    }
}
