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

    /** The client flag by which the server counts the rows an UPDATE found, not those it changed. */
    private static final long CLIENT_FOUND_ROWS = 2;

    /**
     * Whether the driver has the server count the rows an UPDATE found (the drivers' default)
     * rather than those it changed ({@code useAffectedRows=true}): only then does a count of 0 say
     * that the UPDATE's WHERE matched no row. False where the driver does not say.
     */
    static boolean countsFoundRows(Connection connection) {
        Object answer = ask(connection, "getConf", "getServerSession", "com.mysql.cj.protocol.ServerSession", "getClientParam");
        if (answer instanceof Long flags) {
            return (flags & CLIENT_FOUND_ROWS) != 0;
        }
        if (answer == null) {
            return false;
        }
        try {
            java.lang.reflect.Method affected = PROBES.get(connection.getClass()).method(answer.getClass(), "useAffectedRows");
            return affected != null && Boolean.FALSE.equals(affected.invoke(answer));
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return false;
        }
    }

    /**
     * Whether {@code connection} is MySQL's driver's ({@code com.mysql.cj}), which refuses an
     * INSERT, UPDATE or DELETE through {@code executeQuery} before sending it, RETURNING or not.
     */
    static boolean mysqlsDriver(Connection connection) {
        Probes probes = PROBES.get(connection.getClass());
        try {
            return probes.mysql != null && connection.isWrapperFor(probes.mysql);
        } catch (java.sql.SQLException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Asks MariaDB's driver's context {@code mariadbMethod}, or MySQL's driver's session for the
     * object {@code mysqlPart} gives and that object ({@code mysqlType}) {@code mysqlMethod};
     * {@code null} when {@code connection} is neither driver's or the driver has no such method.
     * The methods are looked up once per connection class ({@link Probes}): this is asked after
     * every UPDATE the recorder reads back.
     */
    private static Object ask(Connection connection, String mariadbMethod, String mysqlPart, String mysqlType,
                              String mysqlMethod) {
        Probes probes = PROBES.get(connection.getClass());
        try {
            if (probes.mariadb != null && connection.isWrapperFor(probes.mariadb)) {
                Object context = probes.context.invoke(connection.unwrap(probes.mariadb));
                return probes.method(probes.contextType, mariadbMethod).invoke(context);
            }
        } catch (ReflectiveOperationException | java.sql.SQLException | RuntimeException | LinkageError e) {
            // Not MariaDB's driver, or another version of it: MySQL's is asked next.
        }
        try {
            if (probes.mysql != null && connection.isWrapperFor(probes.mysql)) {
                Object session = probes.session.invoke(connection.unwrap(probes.mysql));
                Object part = probes.method(probes.sessionType, mysqlPart).invoke(session);
                return probes.method(Class.forName(mysqlType, false, probes.loader), mysqlMethod).invoke(part);
            }
        } catch (ReflectiveOperationException | java.sql.SQLException | RuntimeException | LinkageError e) {
            return null;
        }
        return null;
    }

    private static final ClassValue<Probes> PROBES = new ClassValue<>() {
        @Override
        protected Probes computeValue(Class<?> connectionClass) {
            return new Probes(connectionClass.getClassLoader());
        }
    };

    /** The drivers' classes and methods as the class loader of one connection class sees them; {@code null} where absent. */
    private static final class Probes {

        final ClassLoader loader;
        final Class<?> mariadb;
        final java.lang.reflect.Method context;
        final Class<?> contextType;
        final Class<?> mysql;
        final java.lang.reflect.Method session;
        final Class<?> sessionType;
        private final java.util.Map<String, java.util.Optional<java.lang.reflect.Method>> methods = new java.util.concurrent.ConcurrentHashMap<>();

        Probes(ClassLoader loader) {
            this.loader = loader;
            Class<?> mariadbClass = load("org.mariadb.jdbc.Connection");
            Class<?> contextClass = load("org.mariadb.jdbc.client.Context");
            java.lang.reflect.Method contextMethod = method(mariadbClass, "getContext");
            boolean mariadbKnown = mariadbClass != null && contextClass != null && contextMethod != null;
            mariadb = mariadbKnown ? mariadbClass : null;
            context = mariadbKnown ? contextMethod : null;
            contextType = mariadbKnown ? contextClass : null;
            Class<?> mysqlClass = load("com.mysql.cj.jdbc.ConnectionImpl");
            Class<?> sessionClass = load("com.mysql.cj.NativeSession");
            java.lang.reflect.Method sessionMethod = method(mysqlClass, "getSession");
            boolean mysqlKnown = mysqlClass != null && sessionClass != null && sessionMethod != null;
            mysql = mysqlKnown ? mysqlClass : null;
            session = mysqlKnown ? sessionMethod : null;
            sessionType = mysqlKnown ? sessionClass : null;
        }

        private Class<?> load(String name) {
            try {
                return Class.forName(name, false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                return null;
            }
        }

        /** {@code type}'s public method {@code name} without parameters, looked up once; {@code null} when none. */
        java.lang.reflect.Method method(Class<?> type, String name) {
            if (type == null) {
                return null;
            }
            return methods.computeIfAbsent(type.getName() + '#' + name, k -> {
                try {
                    return java.util.Optional.of(type.getMethod(name));
                } catch (NoSuchMethodException | LinkageError e) {
                    return java.util.Optional.empty();
                }
            }).orElse(null);
        }
    }
}
