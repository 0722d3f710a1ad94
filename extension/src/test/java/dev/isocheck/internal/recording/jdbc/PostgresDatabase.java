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

    private static final Server PLAIN = new Server(false, false);
    private static final Server LOGICAL = new Server(true, false);
    private static final Server PLAIN_17 = new Server(false, true);
    private static final Server LOGICAL_17 = new Server(true, true);
    /** Where the build copies PostgreSQL 17's binaries (extension/pom.xml, on Linux x86-64). */
    private static final java.nio.file.Path RELEASE_17 = java.nio.file.Path.of("target", "postgres-17", "postgres-17.jar");

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

    /**
     * PostgreSQL 17 (the previous major release; the tests run on 18), without or with logical
     * decoding, started once; the test is skipped where the build has not copied its binaries
     * (platforms other than Linux x86-64).
     */
    public static PostgresDatabase release17(boolean logical) throws Throwable {
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isRegularFile(RELEASE_17),
                "PostgreSQL 17's binaries are copied to " + RELEASE_17 + " on Linux x86-64 only");
        return (logical ? LOGICAL_17 : PLAIN_17).get();
    }

    /** The server's major version, as it reports it. */
    public int majorVersion() throws java.sql.SQLException {
        try (java.sql.Connection c = dataSource().getConnection()) {
            return c.getMetaData().getDatabaseMajorVersion();
        }
    }

    /** The port the server listens on (on localhost). */
    public int port() {
        return server.getPort();
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
        private final boolean release17;
        private PostgresDatabase instance;
        private Throwable failure;

        Server(boolean logical, boolean release17) {
            this.logical = logical;
            this.release17 = release17;
        }

        synchronized PostgresDatabase get() throws Throwable {
            if (instance == null && failure == null) {
                try {
                    EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder();
                    if (logical) {
                        builder.setServerConfig("wal_level", "logical").setServerConfig("max_replication_slots", "40");
                    }
                    if (release17) {
                        // The same archive the default resolver reads from the classpath, from 17's jar.
                        builder.setPgBinaryResolver((system, architecture) -> {
                            java.util.zip.ZipFile jar = new java.util.zip.ZipFile(RELEASE_17.toFile());
                            java.util.zip.ZipEntry archive = jar.getEntry("postgres-" + system.toLowerCase(java.util.Locale.ROOT) + "-" + architecture + ".txz");
                            if (archive == null) {
                                jar.close();
                                throw new IOException("no PostgreSQL 17 binaries for " + system + "-" + architecture);
                            }
                            return new java.io.FilterInputStream(jar.getInputStream(archive)) {
                                @Override
                                public void close() throws IOException {
                                    super.close();
                                    jar.close();
                                }
                            };
                        });
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
