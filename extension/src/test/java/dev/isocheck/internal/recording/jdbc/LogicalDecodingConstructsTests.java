package dev.isocheck.internal.recording.jdbc;

/** {@link PostgresTrustedConstructs} on PostgreSQL with logical decoding: the writes come from the slot. */
class LogicalDecodingConstructsTests extends PostgresTrustedConstructs {

    @Override
    TestDatabase database() {
        try {
            return PostgresDatabase.logical();
        } catch (Throwable e) {
            throw new IllegalStateException("embedded PostgreSQL did not start", e);
        }
    }

    @Override
    boolean writesFromLog() {
        return true;
    }

    @Override
    javax.sql.DataSource restricted() throws Throwable {
        return PostgresDatabase.logical().as("note_writer");
    }

    @Override
    javax.sql.DataSource withSocketTimeoutOfOneSecond() throws Throwable {
        return PostgresDatabase.logical().withProperties(java.util.Map.of("socketTimeout", "1"));
    }
}
