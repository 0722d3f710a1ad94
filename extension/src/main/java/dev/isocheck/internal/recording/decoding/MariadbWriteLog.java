package dev.isocheck.internal.recording.decoding;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.MariadbGtidEventData;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer.CompatibilityMode;
import dev.isocheck.internal.recording.WriteLog;
import dev.isocheck.internal.recording.decoding.ReplicationAccount.Credentials;
import java.io.IOException;
import java.io.Serializable;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * MariaDB's binary log, row-based with full row images, read through the replication protocol
 * from where it stood before a test's first transaction on the server, as far as it goes when the
 * test is checked. Unlike a PostgreSQL slot it holds nothing on the server: opening notes the
 * position, reading asks for the events from there to the log's end ({@code BINLOG_DUMP} without
 * blocking) and closing forgets it.
 *
 * <p>The log is the server's, every database's: only the rows of the database the application's
 * connections work in are taken. Each transaction is known by its GTID, which the recorded
 * connection asks ({@code @@last_gtid}) after each commit; {@link #idOf} turns both into one number.
 * Values come as the binary log encodes them and are read back as the application's driver reads
 * them ({@link MariadbRendering}).
 */
public final class MariadbWriteLog implements WriteLog {

    /**
     * The binary-log reader's own logger, kept (a logger is held weakly) at WARNING: it announces
     * every connection at INFO, twice per test, in the output of the application's tests.
     */
    private static final java.util.logging.Logger CLIENT_LOG = quiet();

    private static java.util.logging.Logger quiet() {
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(BinaryLogClient.class.getName());
        if (logger.getLevel() == null) {
            logger.setLevel(java.util.logging.Level.WARNING);
        }
        return logger;
    }

    /** The events whose meaning the recorder knows: any other in the log leaves every table out. */
    private static final java.util.Set<EventType> UNDERSTOOD = java.util.EnumSet.of(EventType.FORMAT_DESCRIPTION, EventType.ROTATE,
            EventType.MARIADB_GTID, EventType.MARIADB_GTID_LIST, EventType.BINLOG_CHECKPOINT, EventType.ANNOTATE_ROWS,
            EventType.TABLE_MAP, EventType.WRITE_ROWS, EventType.UPDATE_ROWS, EventType.DELETE_ROWS, EventType.EXT_WRITE_ROWS,
            EventType.EXT_UPDATE_ROWS, EventType.EXT_DELETE_ROWS, EventType.XID, EventType.QUERY, EventType.HEARTBEAT,
            EventType.STOP, EventType.INTVAR, EventType.RAND, EventType.USER_VAR, EventType.ROWS_QUERY);

    /** How long the replication connection may take to connect. */
    private static final long CONNECT_TIMEOUT_MS = 10_000;

    private final SideConnections side;
    private final ReplicationAccount account;
    /** The database whose tables the application writes, as the server names it. */
    private final String database;
    /** Where the next read starts: where the log stood when opened, moved on by each drain. */
    private volatile String file;
    private volatile long position;
    /** Where the log stood when opened, for reports. */
    private final String openedAt;
    private volatile boolean closed;
    /** Whether the application changed a session's time zone, which its TIMESTAMP reads depend on. */
    private volatile boolean timeZoneChanged;
    /** What the application did that the log does not show, by table ({@code *}: every table), with why. */
    private final Map<String, String> leftByApplication = new java.util.concurrent.ConcurrentHashMap<>();

    private MariadbWriteLog(SideConnections side, ReplicationAccount account, String database, String file, long position) {
        this.side = side;
        this.account = account;
        this.database = database;
        this.file = file;
        this.position = position;
        this.openedAt = file + ":" + position;
    }

    /**
     * Notes where the log stands, having made sure it can be read.
     *
     * @throws SQLException when the server does not allow it, saying why: not MariaDB, the binary
     *                      log off, not row-based, row images not full, no right to read it, or no
     *                      password known for the user
     */
    public static MariadbWriteLog open(SideConnections side, Credentials given) throws Exception {
        ReplicationAccount account;
        String database;
        String file;
        long position;
        try (Connection connection = side.open(); Statement statement = connection.createStatement()) {
            try (ResultSet rs = statement.executeQuery("SELECT VERSION(), @@log_bin, @@binlog_format, @@binlog_row_image, DATABASE()")) {
                rs.next();
                if (!rs.getString(1).toLowerCase(Locale.ROOT).contains("mariadb")) {
                    throw new SQLException("the binary log is read on MariaDB only (the server is " + rs.getString(1) + ")");
                }
                if (!rs.getBoolean(2)) {
                    throw new SQLException("the server's binary log is off (start it with --log-bin --binlog-format=ROW)");
                }
                if (!"ROW".equalsIgnoreCase(rs.getString(3))) {
                    throw new SQLException("the server's binlog_format is " + rs.getString(3) + ", not ROW");
                }
                if (!"FULL".equalsIgnoreCase(rs.getString(4))) {
                    throw new SQLException("the server's binlog_row_image is " + rs.getString(4) + ", not FULL");
                }
                database = rs.getString(5);
                if (database == null) {
                    throw new SQLException("the application's connections work in no database");
                }
            }
            try (ResultSet rs = statement.executeQuery("SELECT @@log_bin_compress")) {
                if (rs.next() && rs.getBoolean(1)) {
                    // Compressed row events, which the log's reader does not decode.
                    throw new SQLException("the server compresses its binary log (log_bin_compress)");
                }
            }
            try (ResultSet rs = statement.executeQuery("SHOW MASTER STATUS")) {
                if (!rs.next()) {
                    throw new SQLException("SHOW MASTER STATUS gave no position in the binary log");
                }
                file = rs.getString(1);
                position = rs.getLong(2);
                String only = rs.getString(3);
                String ignored = rs.getString(4);
                if (only != null && !only.isBlank() || ignored != null && !ignored.isBlank()) {
                    // binlog_do_db / binlog_ignore_db: some databases' writes are not logged.
                    throw new SQLException("the server logs some databases only (binlog_do_db, binlog_ignore_db)");
                }
            }
            account = ReplicationAccount.of(connection, given);
        }
        MariadbWriteLog log = new MariadbWriteLog(side, account, database, file, position);
        // Read once now, from where it stands: a wrong password or a missing REPLICATION SLAVE
        // right is found before the test relies on the log, and its writes come from the statements.
        log.events();
        return log;
    }

    @Override
    public String describe() {
        return "from MariaDB's binary log (from " + openedAt + ", database " + database + ", read as " + account.user() + ")";
    }

    @Override
    public long idOf(long asked) {
        return asked;
    }

    /**
     * One number for a GTID, as the log gives it and as {@code @@last_gtid} does: its domain,
     * the low bits of the server id, and the sequence number.
     */
    public static long id(long domain, long server, long sequence) {
        return (domain & 0x7FFFL) << 48 | (server & 0xFFFFL) << 32 | (sequence & 0xFFFF_FFFFL);
    }

    /** {@link #id} of a GTID as {@code @@last_gtid} writes it ({@code domain-server-sequence}); -1 for none. */
    public static long id(String gtid) {
        if (gtid == null) {
            return -1;
        }
        String[] parts = gtid.trim().split("-");
        if (parts.length != 3) {
            return -1;
        }
        try {
            return id(Long.parseLong(parts[0]), Long.parseLong(parts[1]), Long.parseLong(parts[2]));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    @Override
    public Account read() throws Exception {
        Account account = peek();
        closed = true;
        return account;
    }

    @Override
    public Account peek() throws Exception {
        return account(false);
    }

    @Override
    public synchronized Account drain() throws Exception {
        return account(true);
    }

    /** The account from where the log stands; {@code moveOn}: the next read starts where this one ended. */
    private Account account(boolean moveOn) throws Exception {
        if (closed) {
            throw new SQLException("the binary log was already read");
        }
        Dump dump = events();
        List<Event> events = dump.events();
        if (moveOn) {
            file = dump.file();
            position = dump.position();
        }
        Map<String, String> leftOut = new TreeMap<>(leftByApplication);
        List<LoggedTransaction> transactions = transactions(events, leftOut);
        try (Connection connection = side.open()) {
            return new MariadbRendering(connection, database, timeZoneChanged).account(transactions, leftOut);
        }
    }

    @Override
    public void close() {
        closed = true;
    }

    @Override
    public void sessionChanged(String setting) {
        if ("time_zone".equals(setting)) {
            timeZoneChanged = true;
        } else if ("sql_log_bin".equals(setting)) {
            leftByApplication.putIfAbsent(MariadbRendering.EVERY_TABLE,
                    "a session of the application ran with sql_log_bin = 0: what it wrote is not in the binary log");
        }
    }

    @Override
    public void leaveOut(String table, String why) {
        leftByApplication.putIfAbsent(table, why);
    }

    @Override
    public void databaseUsed(String used) {
        if (used != null && !used.equals(database)) {
            leftByApplication.putIfAbsent(MariadbRendering.EVERY_TABLE, "a connection of the application moved to the database "
                    + used + " (setCatalog, USE), whose rows are kept apart from " + database + "'s and whose tables the"
                    + " history names alike");
        }
    }

    @Override
    public void tableNamedIn(String schema, String table) {
        if (!schema.equals(database)) {
            leftByApplication.putIfAbsent(table.toLowerCase(Locale.ROOT), "a statement named " + schema + "." + table
                    + ", another database's table of the same name, whose rows the binary log's account of " + database
                    + " leaves out");
        }
    }

    /** The events of a dump, and where the log ended: a transaction's end, the server writes each whole. */
    private record Dump(List<Event> events, String file, long position) {
    }

    /** Every event from the position noted to the log's end now. */
    private Dump events() throws IOException, SQLException {
        BinaryLogClient client = new BinaryLogClient(account.host(), account.port(), account.user(), account.password());
        // A replica's id of its own; the server refuses a second dump under one id.
        client.setServerId(ThreadLocalRandom.current().nextLong(1L << 20, 1L << 31));
        client.setBinlogFilename(file);
        client.setBinlogPosition(position);
        client.setBlocking(false);
        client.setKeepAlive(false);
        client.setConnectTimeout(CONNECT_TIMEOUT_MS);
        EventDeserializer deserializer = new EventDeserializer();
        deserializer.setCompatibilityMode(CompatibilityMode.CHAR_AND_BINARY_AS_BYTE_ARRAY,
                CompatibilityMode.DATE_AND_TIME_AS_LONG_MICRO, CompatibilityMode.INVALID_DATE_AND_TIME_AS_MIN_VALUE);
        client.setEventDeserializer(deserializer);
        List<Event> events = new ArrayList<>();
        client.registerEventListener(events::add);
        List<Exception> failures = new ArrayList<>();
        client.registerLifecycleListener(new BinaryLogClient.AbstractLifecycleListener() {
            @Override
            public void onEventDeserializationFailure(BinaryLogClient c, Exception ex) {
                failures.add(ex);
            }

            @Override
            public void onCommunicationFailure(BinaryLogClient c, Exception ex) {
                failures.add(ex);
            }
        });
        try {
            // Without blocking, the server sends what the log holds and then ends the dump.
            client.connect();
        } catch (IOException e) {
            throw new SQLException("the binary log could not be read as " + account + ": " + e.getMessage()
                    + (e.getMessage() != null && e.getMessage().contains("Access denied")
                    ? " (give the user's password as isocheck.binlog.password, or its name as isocheck.binlog.user)" : ""), e);
        } finally {
            client.disconnect();
        }
        if (!failures.isEmpty()) {
            throw new SQLException("the binary log could not be read as " + account + ": " + failures.get(0), failures.get(0));
        }
        // The client follows the log's position event by event (and across a ROTATE to the next file).
        return new Dump(events, client.getBinlogFilename(), client.getBinlogPosition());
    }

    /** The transactions the events hold, in commit order, with the tables of other statements left out. */
    private List<LoggedTransaction> transactions(List<Event> events, Map<String, String> leftOut) {
        List<LoggedTransaction> out = new ArrayList<>();
        Map<Long, TableMapEventData> tables = new java.util.HashMap<>();
        LoggedTransaction current = null;
        for (Event event : events) {
            EventType type = event.getHeader().getEventType();
            Object data = event.getData();
            if (type == EventType.MARIADB_GTID && data instanceof MariadbGtidEventData gtid) {
                current = new LoggedTransaction(id(gtid.getDomainId(), event.getHeader().getServerId(), gtid.getSequence()),
                        new ArrayList<>());
                out.add(current);
            } else if (type == EventType.TABLE_MAP && data instanceof TableMapEventData map) {
                tables.put(map.getTableId(), map);
            } else if (EventType.isRowMutation(type) && current != null) {
                rows(current, tables, data, leftOut);
            } else if (type == EventType.QUERY && data instanceof QueryEventData query) {
                statement(query, leftOut);
            } else if (type == null || !UNDERSTOOD.contains(type)) {
                // A compressed or newer row event, an XA prepare: rows may be in it.
                leftOut.putIfAbsent(MariadbRendering.EVERY_TABLE, "the binary log holds an event the recorder does not read ("
                        + (type == null ? "of an unknown type" : type) + ")");
            }
        }
        return out;
    }

    /** The row images of one rows event, taken where they are of the application's database. */
    private void rows(LoggedTransaction to, Map<Long, TableMapEventData> tables, Object data, Map<String, String> leftOut) {
        long tableId;
        List<LoggedRow> rows = new ArrayList<>();
        BitSet included;
        BitSet includedBefore = null;
        if (data instanceof WriteRowsEventData write) {
            tableId = write.getTableId();
            included = write.getIncludedColumns();
            write.getRows().forEach(after -> rows.add(new LoggedRow(null, after)));
        } else if (data instanceof UpdateRowsEventData update) {
            tableId = update.getTableId();
            included = update.getIncludedColumns();
            includedBefore = update.getIncludedColumnsBeforeUpdate();
            update.getRows().forEach(pair -> rows.add(new LoggedRow(pair.getKey(), pair.getValue())));
        } else if (data instanceof DeleteRowsEventData delete) {
            tableId = delete.getTableId();
            included = delete.getIncludedColumns();
            delete.getRows().forEach(before -> rows.add(new LoggedRow(before, null)));
        } else {
            return;
        }
        TableMapEventData map = tables.get(tableId);
        if (map == null || !database.equals(map.getDatabase())) {
            return;
        }
        String table = map.getTable();
        int columns = map.getColumnTypes().length;
        if (included.cardinality() != columns || includedBefore != null && includedBefore.cardinality() != columns) {
            leftOut.putIfAbsent(table.toLowerCase(Locale.ROOT), "the binary log gives some of its rows in part (binlog_row_image)");
            return;
        }
        for (LoggedRow row : rows) {
            to.changes().add(new LoggedChange(table, map, row.before(), row.after()));
        }
    }

    /**
     * A statement the log holds as text: transaction control, or DDL, which changes rows the
     * log does not list (TRUNCATE) or the columns the rows were logged with; its tables are left
     * out when it names them, and every table when it cannot be read.
     */
    private void statement(QueryEventData query, Map<String, String> leftOut) {
        String sql = query.getSql() == null ? "" : query.getSql().trim();
        String first = sql.isEmpty() ? "" : sql.split("\\s+", 2)[0].toUpperCase(Locale.ROOT);
        switch (first) {
            case "BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE", "XA", "", "#", "GRANT", "REVOKE", "FLUSH", "SET",
                 "ANALYZE", "OPTIMIZE", "USE":
                return;
            case "CREATE":
                if (!sql.toUpperCase(Locale.ROOT).matches("(?s)CREATE\\s+OR\\s+REPLACE\\s+TABLE.*")) {
                    // A new table, view, index or routine: no row logged before it changes.
                    return;
                }
                break;
            default:
                break;
        }
        List<String> named = DdlTables.named(sql, query.getDatabase(), database);
        if (named == null) {
            leftOut.putIfAbsent(MariadbRendering.EVERY_TABLE, "the binary log holds a statement the recorder could not read: "
                    + (sql.length() > 200 ? sql.substring(0, 200) + "..." : sql));
            return;
        }
        for (String table : named) {
            leftOut.putIfAbsent(table, "a statement changed the table in a way the binary log does not list row by row: " + sql);
        }
    }

    /** One row image pair as the log encodes it; {@code null} where the change has none. */
    private record LoggedRow(Serializable[] before, Serializable[] after) {
    }

    /** One row change of a table of the application's database, its values still as the log encodes them. */
    record LoggedChange(String table, TableMapEventData map, Serializable[] before, Serializable[] after) {
    }

    /** One committed transaction of the log, by its GTID ({@link #id}). */
    record LoggedTransaction(long id, List<LoggedChange> changes) {
    }
}
