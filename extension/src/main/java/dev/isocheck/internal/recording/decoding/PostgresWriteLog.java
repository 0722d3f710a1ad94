package dev.isocheck.internal.recording.decoding;

import dev.isocheck.internal.recording.DecodedChange;
import dev.isocheck.internal.recording.WriteLog;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A logical replication slot with PostgreSQL's {@code test_decoding} plugin, opened for one test
 * and one database before the test's first transaction there, read and dropped when the test is
 * checked. Its connections are the recorder's own ({@link SideConnections}), borrowed for the
 * moment each step takes.
 *
 * <p>A slot keeps the server's WAL until it is dropped, so every slot this JVM opened and has not
 * dropped yet is dropped at the JVM's shutdown too (a JVM killed outright leaves it: its name
 * starts {@code isocheck_}, and {@code docs/recording.md} says how to drop such slots).
 */
public final class PostgresWriteLog implements WriteLog {

    private static final String PLUGIN = "test_decoding";
    private static final AtomicInteger SLOTS = new AtomicInteger();
    private static final Set<PostgresWriteLog> OPEN = ConcurrentHashMap.newKeySet();
    /** How long opening a slot may wait for transactions in progress elsewhere before giving up. */
    private static final String OPEN_TIMEOUT = "10s";

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> OPEN.forEach(PostgresWriteLog::close),
                "isocheck: drop replication slots"));
    }

    private final SideConnections side;
    private final String slot;
    private volatile boolean closed;

    private PostgresWriteLog(SideConnections side, String slot) {
        this.side = side;
        this.slot = slot;
    }

    /**
     * Opens a slot, so that every transaction that starts from now on is in the log.
     *
     * @throws SQLException when the server does not allow it: {@code wal_level} below
     *                      {@code logical}, no right to create a replication slot, no
     *                      {@code test_decoding}, a server before PostgreSQL 13, or transactions in
     *                      progress that did not end within {@value #OPEN_TIMEOUT}
     */
    public static PostgresWriteLog open(SideConnections side) throws SQLException {
        String slot = "isocheck_" + ProcessHandle.current().pid() + "_" + SLOTS.incrementAndGet();
        try (Connection connection = side.open()) {
            if (connection.getMetaData().getDatabaseMajorVersion() < 13) {
                throw new SQLException("PostgreSQL " + connection.getMetaData().getDatabaseProductVersion()
                        + " has no pg_current_xact_id_if_assigned (13 and later have)");
            }
            String level = single(connection, "SELECT current_setting('wal_level')");
            if (!"logical".equals(level)) {
                throw new SQLException("the server's wal_level is " + level + ", not logical");
            }
            boolean autoCommit = connection.getAutoCommit();
            if (!autoCommit) {
                // A slot created inside a transaction block decodes nothing that follows it.
                connection.setAutoCommit(true);
            }
            // Settings are restored after: a pooled connection goes back to its pool as it came.
            String timeout = single(connection, "SELECT current_setting('statement_timeout')");
            set(connection, OPEN_TIMEOUT);
            try (PreparedStatement create = connection.prepareStatement(
                    "SELECT lsn FROM pg_catalog.pg_create_logical_replication_slot(?, ?)")) {
                create.setString(1, slot);
                create.setString(2, PLUGIN);
                create.executeQuery().close();
            } finally {
                set(connection, timeout);
                connection.setAutoCommit(autoCommit);
            }
        }
        PostgresWriteLog log = new PostgresWriteLog(side, slot);
        OPEN.add(log);
        return log;
    }

    /**
     * Makes every commit acknowledged so far readable from the slot: the slot reads only WAL
     * flushed to disk, and with {@code synchronous_commit = off} (embedded and test servers often
     * run so) a commit is acknowledged before. A synchronous commit flushes the WAL up to itself,
     * so everything before it too; a transactional logical message gives it something to commit.
     */
    private static void flush(Connection connection) throws SQLException {
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET LOCAL synchronous_commit = on");
            statement.executeQuery("SELECT pg_catalog.pg_logical_emit_message(true, 'isocheck', 'flush')").close();
            connection.commit();
            return;
        } catch (SQLException e) {
            connection.rollback();
        } finally {
            connection.setAutoCommit(true);
        }
        // Not allowed to write a message: wait for the WAL writer to flush what is written (it
        // does within a few hundred milliseconds under asynchronous commit).
        String written = single(connection, "SELECT pg_catalog.pg_current_wal_lsn()::text");
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < deadline) {
            try (PreparedStatement flushed = connection.prepareStatement(
                    "SELECT pg_catalog.pg_current_wal_flush_lsn() >= ?::pg_lsn")) {
                flushed.setString(1, written);
                try (ResultSet rs = flushed.executeQuery()) {
                    if (rs.next() && rs.getBoolean(1)) {
                        return;
                    }
                }
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted while waiting for the WAL to be flushed", e);
            }
        }
        throw new SQLException("the server did not flush its WAL within 5 s, and the role may not write a logical message");
    }

    private static void set(Connection connection, String timeout) throws SQLException {
        try (PreparedStatement set = connection.prepareStatement("SELECT pg_catalog.set_config('statement_timeout', ?, false)")) {
            set.setString(1, timeout);
            set.executeQuery().close();
        }
    }

    private static String single(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    @Override
    public String describe() {
        return "from PostgreSQL's logical decoding (replication slot " + slot + ", " + PLUGIN + ")";
    }

    @Override
    public Account read() throws Exception {
        return account(true);
    }

    @Override
    public Account peek() throws Exception {
        return account(false, false);
    }

    @Override
    public Account drain() throws Exception {
        return account(true, false);
    }

    private Account account(boolean consume) throws Exception {
        return account(consume, consume);
    }

    /**
     * The account of the slot; {@code consume}: what it gives is consumed (the slot moves past it),
     * else peeked at and left as it was; {@code drop}: the slot is dropped after.
     */
    private Account account(boolean consume, boolean drop) throws Exception {
        try (Connection connection = side.open()) {
            boolean autoCommit = connection.getAutoCommit();
            String lockTimeout = null;
            try {
                connection.setAutoCommit(true);
                lockTimeout = single(connection, "SELECT current_setting('lock_timeout')");
                setLockTimeout(connection, consume ? READ_LOCK_TIMEOUT : PEEK_LOCK_TIMEOUT);
                return account(connection, consume, drop);
            } catch (SQLException e) {
                if ("55P03".equals(e.getSQLState())) {
                    throw new SQLException("a table the test wrote is locked by a transaction still open (waited "
                            + (consume ? READ_LOCK_TIMEOUT : PEEK_LOCK_TIMEOUT) + " for it): " + e.getMessage(), e.getSQLState(), e);
                }
                throw e;
            } finally {
                if (lockTimeout != null) {
                    setLockTimeout(connection, lockTimeout);
                }
                connection.setAutoCommit(autoCommit);
            }
        }
    }

    /**
     * How long reading the log waits for a table lock. Reading the rows back as their tables' row
     * types takes a share lock on each table written; a transaction of the test still open with the
     * table locked exclusively (LOCK TABLE, ALTER TABLE) would otherwise make the read wait for
     * ever, and a look at the history from the test's own thread wait for itself. Given up on,
     * the read fails and every table is left out, saying why.
     */
    private static final String PEEK_LOCK_TIMEOUT = "5s";
    private static final String READ_LOCK_TIMEOUT = "30s";

    private static void setLockTimeout(Connection connection, String timeout) throws SQLException {
        try (PreparedStatement set = connection.prepareStatement("SELECT pg_catalog.set_config('lock_timeout', ?, false)")) {
            set.setString(1, timeout);
            set.executeQuery().close();
        }
    }

    private Account account(Connection connection, boolean consume, boolean drop) throws Exception {
        if (closed) {
            throw new SQLException("the replication slot " + slot + " was already read and dropped");
        }
        flush(connection);
        List<DecodedTransaction> decoded = new ArrayList<>();
        try (PreparedStatement changes = connection.prepareStatement("SELECT data FROM pg_catalog."
                + (consume ? "pg_logical_slot_get_changes" : "pg_logical_slot_peek_changes")
                + "(?, NULL, NULL, 'include-xids', '1', 'skip-empty-xacts', '1')")) {
            changes.setString(1, slot);
            try (ResultSet rs = changes.executeQuery()) {
                DecodedTransaction current = null;
                while (rs.next()) {
                    TestDecodingOutput.Line line = TestDecodingOutput.parse(rs.getString(1));
                    if (line instanceof TestDecodingOutput.Begin begin) {
                        current = new DecodedTransaction(begin.xid(), new ArrayList<>());
                    } else if (line instanceof TestDecodingOutput.Commit commit) {
                        if (current == null || current.xid() != commit.xid()) {
                            throw new SQLException("logical decoding gave COMMIT " + commit.xid() + " out of its transaction");
                        }
                        decoded.add(current);
                        current = null;
                    } else if (line instanceof TestDecodingOutput.Change change) {
                        if (current == null) {
                            throw new SQLException("logical decoding gave a change outside a transaction");
                        }
                        current.changes().add(change.change());
                    }
                }
            }
        } finally {
            if (drop) {
                drop(connection);
            }
        }
        return new ServerRendering(connection).account(decoded);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        try (Connection connection = side.open()) {
            drop(connection);
        } catch (SQLException | RuntimeException e) {
            // Nothing more to do here; the slot's name says whose it was.
        }
    }

    private void drop(Connection connection) throws SQLException {
        if (closed) {
            return;
        }
        try (PreparedStatement drop = connection.prepareStatement(
                "SELECT pg_catalog.pg_drop_replication_slot(slot_name) FROM pg_catalog.pg_replication_slots WHERE slot_name = ?")) {
            drop.setString(1, slot);
            drop.executeQuery().close();
        }
        closed = true;
        OPEN.remove(this);
    }

    /** One transaction as the log gave it, its changes in the order it made them. */
    record DecodedTransaction(long xid, List<DecodedChange> changes) {
    }
}
