package dev.isocheck.internal.recording.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/** A real database a test starts: its plain data source, and how to reset it. */
interface TestDatabase {

    /** The application's data source, not recorded. */
    DataSource dataSource();

    /** Runs {@code sql} statements in auto-commit mode on a plain connection: set-up, outside any recording. */
    default void run(String... sql) throws SQLException {
        try (Connection c = dataSource().getConnection(); Statement s = c.createStatement()) {
            for (String statement : sql) {
                s.execute(statement);
            }
        }
    }
}
