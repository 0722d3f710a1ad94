package dev.isocheck.internal.recording.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * {@link PostgresTrustedConstructs} on PostgreSQL 17, the previous major release (the other suites
 * run on 18, whose UPDATE can return old rows and whose MERGE can return its rows): with writes
 * from the statements and from logical decoding. Skipped where the build has not copied 17's
 * binaries ({@link PostgresDatabase#release17}).
 */
class Postgres17ConstructsTests {

    /** Writes from the statements, on 17. */
    @Nested
    class FromTheStatements extends PostgresTrustedConstructs {

        @Override
        TestDatabase database() {
            return server(false);
        }

        @Override
        boolean writesFromLog() {
            return false;
        }

        @Override
        javax.sql.DataSource restricted() {
            return server(false).as("note_writer");
        }

        @Override
        javax.sql.DataSource withSocketTimeoutOfOneSecond() {
            return server(false).withProperties(java.util.Map.of("socketTimeout", "1"));
        }

        @Test
        void theServerIsSeventeen() throws Exception {
            assertThat(server(false).majorVersion()).isEqualTo(17);
        }
    }

    /** Writes from logical decoding, on 17. */
    @Nested
    class FromTheLog extends PostgresTrustedConstructs {

        @Override
        TestDatabase database() {
            return server(true);
        }

        @Override
        boolean writesFromLog() {
            return true;
        }

        @Override
        javax.sql.DataSource restricted() {
            return server(true).as("note_writer");
        }

        @Override
        javax.sql.DataSource withSocketTimeoutOfOneSecond() {
            return server(true).withProperties(java.util.Map.of("socketTimeout", "1"));
        }

        @Test
        void theServerIsSeventeen() throws Exception {
            assertThat(server(true).majorVersion()).isEqualTo(17);
        }
    }

    static PostgresDatabase server(boolean logical) {
        try {
            return PostgresDatabase.release17(logical);
        } catch (org.opentest4j.TestAbortedException skipped) {
            throw skipped;
        } catch (Throwable e) {
            throw new IllegalStateException("embedded PostgreSQL 17 did not start", e);
        }
    }
}
