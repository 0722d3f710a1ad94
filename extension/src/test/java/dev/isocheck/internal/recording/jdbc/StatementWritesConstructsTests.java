package dev.isocheck.internal.recording.jdbc;

/**
 * {@link PostgresTrustedConstructs} on PostgreSQL without logical decoding: the writes come from
 * the statements, and what they cannot show is left out, never guessed.
 */
class StatementWritesConstructsTests extends PostgresTrustedConstructs {

    @Override
    TestDatabase database() {
        try {
            return PostgresDatabase.get();
        } catch (Throwable e) {
            throw new IllegalStateException("embedded PostgreSQL did not start", e);
        }
    }

    @Override
    boolean writesFromLog() {
        return false;
    }

    @Override
    javax.sql.DataSource restricted() throws Throwable {
        return PostgresDatabase.get().as("note_writer");
    }

    @Override
    javax.sql.DataSource withSocketTimeoutOfOneSecond() throws Throwable {
        return PostgresDatabase.get().withProperties(java.util.Map.of("socketTimeout", "1"));
    }
}
