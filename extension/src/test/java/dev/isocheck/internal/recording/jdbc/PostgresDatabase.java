package dev.isocheck.internal.recording.jdbc;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import javax.sql.DataSource;

/**
 * The embedded PostgreSQL servers of the test run, each started on first use (binaries from
 * Maven Central): {@link #get()} without logical decoding, where the recorder takes the writes
 * from the statements, and {@link #logical()} with {@code wal_level = logical}, as the guide tells
 * users to start theirs, where it takes them from each test's replication slot.
 */
public final class PostgresDatabase implements TestDatabase {

    private static final Server PLAIN = new Server(false);
    private static final Server LOGICAL = new Server(true);

    private final EmbeddedPostgres server;

    private PostgresDatabase(EmbeddedPostgres server) {
        this.server = server;
    }

    /** The server without logical decoding, started once; the failure to start it, rethrown, when it could not start. */
    public static PostgresDatabase get() throws Throwable {
        return PLAIN.get();
    }

    /** The server with {@code wal_level = logical}, started once. */
    public static PostgresDatabase logical() throws Throwable {
        return LOGICAL.get();
    }

    /** Another database of the same server. */
    public DataSource database(String name) {
        return server.getDatabase("postgres", name);
    }

    /** The {@code postgres} database as another role (trust authentication: no password). */
    public DataSource as(String role) {
        return server.getDatabase(role, "postgres");
    }

    /** The {@code postgres} database with driver properties of its own (a socket timeout, say). */
    public DataSource withProperties(java.util.Map<String, String> properties) {
        return server.getPostgresDatabase(properties);
    }

    @Override
    public DataSource dataSource() {
        return server.getPostgresDatabase();
    }

    /** One server, started on first use. */
    private static final class Server {

        private final boolean logical;
        private PostgresDatabase instance;
        private Throwable failure;

        Server(boolean logical) {
            this.logical = logical;
        }

        synchronized PostgresDatabase get() throws Throwable {
            if (instance == null && failure == null) {
                try {
                    EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder();
                    if (logical) {
                        builder.setServerConfig("wal_level", "logical").setServerConfig("max_replication_slots", "40");
                    }
                    instance = new PostgresDatabase(builder.start());
                } catch (IOException | RuntimeException e) {
                    failure = e;
                }
            }
            if (failure != null) {
                throw failure;
            }
            return instance;
        }
    }
}
