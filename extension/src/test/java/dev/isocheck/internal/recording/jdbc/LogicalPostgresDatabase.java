package dev.isocheck.internal.recording.jdbc;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import javax.sql.DataSource;

/**
 * One embedded PostgreSQL server for the test run started with {@code wal_level = logical}, as
 * the guide tells users to start theirs: the recorder takes each test's writes from its logical
 * decoding. ({@link PostgresDatabase} is a server without it, where the writes come from the
 * statements.)
 */
public final class LogicalPostgresDatabase implements TestDatabase {

    private static LogicalPostgresDatabase instance;
    private static Throwable failure;

    private final EmbeddedPostgres server;

    private LogicalPostgresDatabase(EmbeddedPostgres server) {
        this.server = server;
    }

    /** The server, started once; the failure to start it, rethrown, when it could not start. */
    public static synchronized LogicalPostgresDatabase get() throws Throwable {
        if (instance == null && failure == null) {
            try {
                instance = new LogicalPostgresDatabase(EmbeddedPostgres.builder()
                        .setServerConfig("wal_level", "logical")
                        .setServerConfig("max_replication_slots", "40")
                        .setServerConfig("max_wal_senders", "40")
                        .start());
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

    /** The JDBC URL of the {@code postgres} database, user {@code postgres}. */
    public String jdbcUrl() {
        return server.getJdbcUrl("postgres", "postgres");
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
