package dev.isocheck.internal.recording.jdbc;

import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The three ways the recorder's end-to-end tests record writes on real databases, as arguments of
 * a parameterized test (a name, then the {@code DataSource}): PostgreSQL's log, PostgreSQL's
 * statements, and H2's statements.
 */
final class RecordingWays {

    private RecordingWays() {
    }

    /** The three ways, H2 at {@code h2Url}. */
    static Stream<Arguments> logStatementsAndH2(String h2Url) throws Throwable {
        org.h2.jdbcx.JdbcDataSource h2 = new org.h2.jdbcx.JdbcDataSource();
        h2.setURL(h2Url);
        return Stream.of(
                Arguments.of("PostgreSQL, writes from logical decoding", PostgresDatabase.logical().dataSource()),
                Arguments.of("PostgreSQL, writes from the statements", PostgresDatabase.get().dataSource()),
                Arguments.of("H2", h2));
    }
}
