package dev.isocheck.internal.recording.decoding;

import dev.isocheck.internal.recording.Recording;
import dev.isocheck.internal.recording.WriteLog;
import dev.isocheck.internal.recording.decoding.ReplicationAccount.Credentials;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;
import java.util.Optional;

/**
 * The write logs of one database, one per test that records it: what a recorded data source or
 * URL asks before a test's first transaction there. On PostgreSQL, where the server allows logical
 * decoding ({@code wal_level = logical}, the right to create a replication slot, PostgreSQL 13 or
 * later), each test gets a slot of its own; on MariaDB, where the binary log is on, row-based with
 * full row images, and the recorder may read it, each test reads it from where it stood at its
 * first transaction. Elsewhere the test's writes come from the statements, and the report says why.
 */
public final class LogicalDecoding {

    private final SideConnections side;
    /** The user and password the application gave its driver, where the recorder saw them. */
    private final Credentials given;

    /** The logs of the database {@code side} connects to. */
    public LogicalDecoding(SideConnections side) {
        this(side, null, null, null);
    }

    /**
     * The logs of the database {@code side} connects to, whose user, password and URL (each
     * {@code null} where not known) the application gave: MariaDB's binary log is read as them.
     */
    public LogicalDecoding(SideConnections side, String user, String password, String url) {
        this.side = Objects.requireNonNull(side, "side is null");
        this.given = new Credentials(user, password, url);
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
        // Asked once per test: where it cannot be asked (a pool whose every connection the test
        // holds makes the recorder wait for one until the pool gives up), every transaction would
        // wait again, and a later answer would open a second log of one database.
        Object database = askedFor.get(recording);
        if (database == null) {
            Object answer = database();
            database = java.util.Objects.requireNonNullElse(askedFor.putIfAbsent(recording, answer), answer);
        }
        if (database instanceof String name && name.startsWith("mariadb ")) {
            Credentials configured = recording.logAccount().map(a -> new Credentials(a.user(), a.password(), null)).orElse(Credentials.NONE);
            return recording.writeLog(database, () -> MariadbWriteLog.open(side, configured.or(given)));
        }
        if (database instanceof String name && name.startsWith("mysql ")) {
            return recording.writeLog(database, () -> {
                throw new java.sql.SQLException("the binary log is read on MariaDB only");
            });
        }
        return recording.writeLog(database, () -> PostgresWriteLog.open(side));
    }

    /**
     * The database's identity (PostgreSQL: server start, port, database; MariaDB and MySQL: host,
     * port, server id, database), asked once; this object where it cannot be asked.
     */
    private Object database() {
        Object known = database;
        if (known == null) {
            try (Connection connection = side.open(); Statement statement = connection.createStatement()) {
                String product = connection.getMetaData().getDatabaseProductName().toLowerCase(java.util.Locale.ROOT);
                String version = connection.getMetaData().getDatabaseProductVersion().toLowerCase(java.util.Locale.ROOT);
                boolean mysql = product.contains("mysql") || product.contains("mariadb");
                try (ResultSet rs = statement.executeQuery(mysql
                        ? "SELECT CONCAT(@@hostname, ' ', @@port, ' ', @@server_id, ' ', IFNULL(DATABASE(), ''))"
                        // The start as seconds since the epoch: as text, a timestamp follows the
                        // asking session's time zone, and one server would be two.
                        : "SELECT extract(epoch FROM pg_catalog.pg_postmaster_start_time())::text || ' '"
                        + " || pg_catalog.current_setting('port') || ' ' || pg_catalog.current_database()")) {
                    if (!rs.next()) {
                        return this;
                    }
                    known = (!mysql ? "postgresql " : product.contains("mariadb") || version.contains("mariadb") ? "mariadb " : "mysql ")
                            + rs.getString(1);
                }
            } catch (SQLException | RuntimeException e) {
                // Not cached: the next test asks again.
                return this;
            }
            database = known;
        }
        return known;
    }

    private volatile Object database;
    /** What {@link #database()} answered for each test, the first time it asked (weakly: a finished test's goes). */
    private final java.util.Map<Recording, Object> askedFor = java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());
}
