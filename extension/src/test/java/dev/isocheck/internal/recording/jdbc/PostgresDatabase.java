package dev.isocheck.internal.recording.jdbc;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import javax.sql.DataSource;

/** One embedded PostgreSQL server for the test run, started on first use (binaries from Maven Central). */
public final class PostgresDatabase implements TestDatabase {

    private static PostgresDatabase instance;
    private static Throwable failure;

    private final EmbeddedPostgres server;

    private PostgresDatabase(EmbeddedPostgres server) {
        this.server = server;
    }

    /** The server, started once; the failure to start it, rethrown, when it could not start. */
    public static synchronized PostgresDatabase get() throws Throwable {
        if (instance == null && failure == null) {
            try {
                instance = new PostgresDatabase(EmbeddedPostgres.builder().start());
            } catch (IOException | RuntimeException e) {
                failure = e;
            }
        }
        if (failure != null) {
            throw failure;
        }
        return instance;
    }

    /** Another database of the same server. */
    public DataSource database(String name) {
        return server.getDatabase("postgres", name);
    }

    @Override
    public DataSource dataSource() {
        return server.getPostgresDatabase();
    }

    /** The {@code postgres} database as another role (trust authentication: no password). */
    public DataSource as(String role) {
        return server.getDatabase(role, "postgres");
    }
}
