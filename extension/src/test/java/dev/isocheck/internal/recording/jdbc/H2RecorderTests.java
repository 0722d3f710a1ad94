package dev.isocheck.internal.recording.jdbc;

import java.sql.Connection;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;

/** The recorder on H2 in memory. */
class H2RecorderTests extends RecorderScenarios {

    private final TestDatabase database = () -> {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:recorder;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000");
        return ds;
    };

    @Override
    TestDatabase database() {
        return database;
    }

    @Override
    int weakIsolation() {
        // H2's REPEATABLE READ is snapshot isolation: write skew commits.
        return Connection.TRANSACTION_REPEATABLE_READ;
    }

    static DataSource h2(String name) {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000");
        return ds;
    }
}
