package dev.isocheck.internal.recording.decoding;

import dev.isocheck.internal.recording.Recording;
import dev.isocheck.internal.recording.WriteLog;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;
import java.util.Optional;

/**
 * The write logs of one PostgreSQL database, one per test that records it: what a recorded data
 * source or URL asks before a test's first transaction there. Where the server allows logical
 * decoding ({@code wal_level = logical}, the right to create a replication slot, PostgreSQL 13 or
 * later), each test gets a slot of its own; elsewhere the test's writes come from the statements,
 * and the report says why.
 */
public final class LogicalDecoding {

    private final SideConnections side;

    /** The logs of the database {@code side} connects to. */
    public LogicalDecoding(SideConnections side) {
        this.side = Objects.requireNonNull(side, "side is null");
    }

    /** Where the recorder gets connections of its own to this database. */
    public SideConnections side() {
        return side;
    }

    /**
     * The log of {@code recording}'s writes to this database, opened now if this is its first
     * transaction here. Two data sources of one database (two pools, a pool and a URL) share one
     * log per test: two slots would each show the other's transactions as ones no recorded
     * connection ran, and a transaction recorded twice over could look like a lost update.
     */
    public Optional<WriteLog> logFor(Recording recording) {
        Object database = database();
        return recording.writeLog(database, () -> PostgresWriteLog.open(side));
    }

    /** The database's identity (server start, port, database), asked once; this object where it cannot be asked. */
    private Object database() {
        Object known = database;
        if (known == null) {
            try (Connection connection = side.open(); Statement statement = connection.createStatement();
                 ResultSet rs = statement.executeQuery("SELECT pg_catalog.pg_postmaster_start_time()::text || ' '"
                         + " || pg_catalog.current_setting('port') || ' ' || pg_catalog.current_database()")) {
                if (!rs.next()) {
                    return this;
                }
                known = "postgresql " + rs.getString(1);
            } catch (SQLException | RuntimeException e) {
                // Not cached: the next test asks again.
                return this;
            }
            database = known;
        }
        return known;
    }

    private volatile Object database;
}
