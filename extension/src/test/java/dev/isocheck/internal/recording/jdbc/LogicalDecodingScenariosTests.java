package dev.isocheck.internal.recording.jdbc;

import java.sql.Connection;

/**
 * The recorder's scenarios on a PostgreSQL server with {@code wal_level = logical}: the writes come
 * from each test's replication slot, the statements are sent as written.
 */
class LogicalDecodingScenariosTests extends RecorderScenarios {

    @Override
    TestDatabase database() {
        try {
            return PostgresDatabase.logical();
        } catch (Throwable e) {
            throw new IllegalStateException("embedded PostgreSQL did not start", e);
        }
    }

    @Override
    int weakIsolation() {
        return Connection.TRANSACTION_REPEATABLE_READ;
    }

    @Override
    boolean writesFromLog() {
        return true;
    }
}
