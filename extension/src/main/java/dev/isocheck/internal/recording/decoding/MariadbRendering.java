package dev.isocheck.internal.recording.decoding;

import dev.isocheck.internal.recording.WriteLog.Account;
import dev.isocheck.internal.recording.WriteLog.CommittedTransaction;
import dev.isocheck.internal.recording.WriteLog.CommittedWrite;
import dev.isocheck.internal.recording.decoding.MariadbWriteLog.LoggedChange;
import dev.isocheck.internal.recording.decoding.MariadbWriteLog.LoggedTransaction;
import dev.isocheck.internal.recording.sql.ColumnValues;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Turns the row images of MariaDB's binary log into the recorder's values by writing them into a
 * temporary table with the written table's very columns ({@code CREATE TEMPORARY TABLE ... AS
 * SELECT ... WHERE FALSE}: types, lengths, character sets, unsigned, ENUM members) and reading them
 * back through the application's driver and the same conversion ({@link ColumnValues}) as the
 * application's reads: a value written equals a value read exactly when the database's do. What
 * the log encodes in a way the recorder does not turn back into SQL (a zero date, a spatial
 * value, a negative TIME), and a FLOAT, which the application may read in either of two
 * precisions, leave their table out rather than guess.
 */
final class MariadbRendering {

    /** The table name that stands for every table in an account's left-out tables. */
    static final String EVERY_TABLE = "*";
    /** Rows inserted per statement. */
    private static final int CHUNK = 200;
    private static final long MICROS_PER_DAY = 86_400_000_000L;

    private final Connection connection;
    private final String database;
    private final Map<String, TableFacts> facts = new HashMap<>();
    private int temporaries;
    /**
     * Whether the application changed a session's {@code time_zone}: the TIMESTAMPs it read there
     * are in that zone, and those rendered here in this connection's, so tables with one are left out.
     */
    private final boolean timeZoneChanged;

    MariadbRendering(Connection connection, String database, boolean timeZoneChanged) {
        this.connection = connection;
        this.database = database;
        this.timeZoneChanged = timeZoneChanged;
    }

    /**
     * A table as the catalog says it is now.
     *
     * @param name    its name in the history (lower case)
     * @param columns its columns in order
     * @param key     its primary key columns, lower case, in order; empty for none
     */
    private record TableFacts(String name, List<Column> columns, List<String> key) {
    }

    /** A column: its name as spelled, its DATA_TYPE (lower case), whether unsigned. */
    private record Column(String name, String type, boolean unsigned) {
    }

    Account account(List<LoggedTransaction> transactions, Map<String, String> leftOut) throws SQLException {
        // Each table's row images, rendered together, then put back in place.
        Map<String, List<Serializable[]>> images = new LinkedHashMap<>();
        Map<Serializable[], Integer> indexes = new IdentityHashMap<>();
        Set<String> changedOrRemoved = new java.util.HashSet<>();
        for (LoggedTransaction t : transactions) {
            for (LoggedChange change : t.changes()) {
                String name = change.table().toLowerCase(Locale.ROOT);
                if (change.before() != null) {
                    // Its cascades are left out whether or not the table itself is.
                    changedOrRemoved.add(change.table());
                }
                if (leftOut.containsKey(name)) {
                    continue;
                }
                TableFacts table = facts(change.table(), leftOut);
                if (table == null) {
                    continue;
                }
                if (table.columns().size() != change.map().getColumnTypes().length) {
                    leftOut.putIfAbsent(name, "its columns changed since the binary log logged its rows");
                    continue;
                }
                for (Serializable[] image : new Serializable[][] {change.before(), change.after()}) {
                    if (image != null) {
                        List<Serializable[]> list = images.computeIfAbsent(change.table(), k -> new ArrayList<>());
                        indexes.put(image, list.size());
                        list.add(image);
                    }
                }
            }
        }
        cascades(changedOrRemoved, leftOut);
        Map<String, List<Map<String, Object>>> rendered = new HashMap<>();
        for (Map.Entry<String, List<Serializable[]>> e : images.entrySet()) {
            TableFacts table = facts.get(e.getKey());
            if (leftOut.containsKey(table.name())) {
                continue;
            }
            try {
                rendered.put(e.getKey(), render(e.getKey(), table, e.getValue()));
            } catch (Unrenderable u) {
                leftOut.putIfAbsent(table.name(), u.getMessage());
            } catch (SQLException s) {
                leftOut.putIfAbsent(table.name(), "its rows in the binary log could not be read back: " + s.getMessage());
            }
        }
        // Which tables are left out is settled before any transaction's writes are built: a
        // transaction's account with some of its rows dropped is another transaction's shape.
        for (LoggedTransaction t : transactions) {
            for (LoggedChange change : t.changes()) {
                TableFacts table = facts.get(change.table());
                if (table != null && !leftOut.containsKey(table.name()) && table.key().isEmpty()) {
                    leftOut.putIfAbsent(table.name(), "the table has no primary key");
                }
            }
        }
        List<CommittedTransaction> committed = new ArrayList<>();
        for (LoggedTransaction t : transactions) {
            List<CommittedWrite> writes = new ArrayList<>();
            int change = 0;
            for (LoggedChange c : t.changes()) {
                TableFacts table = facts.get(c.table());
                if (table == null || leftOut.containsKey(table.name()) || leftOut.containsKey(EVERY_TABLE)) {
                    change++;
                    continue;
                }
                Map<String, Object> before = c.before() == null ? null : rendered.get(c.table()).get(indexes.get(c.before()));
                Map<String, Object> after = c.after() == null ? null : rendered.get(c.table()).get(indexes.get(c.after()));
                String beforeKey = before == null ? null : key(table, before);
                String afterKey = after == null ? null : key(table, after);
                if (after != null && afterKey == null || before != null && beforeKey == null) {
                    leftOut.putIfAbsent(table.name(), "a row written has no value for a primary key column");
                    change++;
                    continue;
                }
                if (before != null) {
                    // The old row is read as its key alone, which says the row was there, as on
                    // PostgreSQL: the whole old row would make an UPDATE at REPEATABLE READ read
                    // the version it replaced, and its lost update read as a non-repeatable read.
                    before = dev.isocheck.internal.recording.RecordedTransaction.keyColumns(table.key(), before);
                }
                if (after != null && beforeKey != null && !beforeKey.equals(afterKey)) {
                    // The key changed: the row left its old key for a new one.
                    writes.add(new CommittedWrite(table.name(), beforeKey, before, null, change));
                    writes.add(new CommittedWrite(table.name(), afterKey, null, after, change));
                } else {
                    writes.add(new CommittedWrite(table.name(), after != null ? afterKey : beforeKey, before, after, change,
                            before == null));
                }
                change++;
            }
            if (!writes.isEmpty()) {
                committed.add(new CommittedTransaction(t.id(), writes));
            }
        }
        // A table found wanting late is dropped from every transaction.
        List<CommittedTransaction> kept = new ArrayList<>();
        for (CommittedTransaction c : committed) {
            List<CommittedWrite> writes = c.writes().stream().filter(w -> !leftOut.containsKey(w.table())).toList();
            if (!writes.isEmpty()) {
                kept.add(new CommittedTransaction(c.xid(), writes));
            }
        }
        return new Account(leftOut.containsKey(EVERY_TABLE) ? List.of() : kept, leftOut);
    }

    private static String key(TableFacts table, Map<String, Object> row) {
        return dev.isocheck.internal.recording.RecordedTransaction.key(table.name(), table.key(), row).orElse(null);
    }

    /** The table's facts, looked up once; {@code null}, and the table left out, when it cannot be told apart or is gone. */
    private TableFacts facts(String raw, Map<String, String> leftOut) throws SQLException {
        if (facts.containsKey(raw)) {
            return facts.get(raw);
        }
        String name = raw.toLowerCase(Locale.ROOT);
        List<Column> columns = new ArrayList<>();
        List<String> key = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement("SELECT COLUMN_NAME, DATA_TYPE, COLUMN_TYPE,"
                + " (SELECT COUNT(*) FROM information_schema.TABLES t WHERE t.TABLE_SCHEMA = c.TABLE_SCHEMA"
                + " AND LOWER(t.TABLE_NAME) = LOWER(c.TABLE_NAME)),"
                + " (SELECT s.SEQ_IN_INDEX FROM information_schema.STATISTICS s WHERE s.TABLE_SCHEMA = c.TABLE_SCHEMA"
                + " AND s.TABLE_NAME = c.TABLE_NAME AND s.INDEX_NAME = 'PRIMARY' AND s.COLUMN_NAME = c.COLUMN_NAME)"
                + " FROM information_schema.COLUMNS c WHERE c.TABLE_SCHEMA = ? AND c.TABLE_NAME = ? ORDER BY c.ORDINAL_POSITION")) {
            statement.setString(1, database);
            statement.setString(2, raw);
            Map<Integer, String> keyAt = new java.util.TreeMap<>();
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    columns.add(new Column(rs.getString(1), rs.getString(2).toLowerCase(Locale.ROOT),
                            rs.getString(3).toLowerCase(Locale.ROOT).contains("unsigned")));
                    if (rs.getInt(4) > 1) {
                        leftOut.putIfAbsent(name, "several tables answer to this name");
                    }
                    if (rs.getObject(5) != null) {
                        keyAt.put(rs.getInt(5), rs.getString(1).toLowerCase(Locale.ROOT));
                    }
                }
            }
            key.addAll(keyAt.values());
        }
        TableFacts table = null;
        if (columns.stream().anyMatch(c -> c.type().equals("float"))) {
            // MariaDB sends a FLOAT as text rounded to 6 digits, and in full through server-side
            // prepared statements: which the application's reads saw is not known here.
            leftOut.putIfAbsent(name, "a FLOAT column, which the server sends rounded to 6 digits as text and in full"
                    + " through server-side prepared statements: its values read and written may differ by protocol");
        }
        if (timeZoneChanged && columns.stream().anyMatch(c -> c.type().equals("timestamp"))) {
            leftOut.putIfAbsent(name, "the application changed a session's time_zone, in which the driver reads a TIMESTAMP"
                    + " column: its values read there and those the binary log gives are not compared in one zone");
        }
        if (columns.isEmpty()) {
            leftOut.putIfAbsent(name, "the table was dropped before the test was checked");
        } else {
            table = new TableFacts(name, List.copyOf(columns), List.copyOf(key));
        }
        facts.put(raw, table);
        return table;
    }

    /**
     * Leaves out the tables whose foreign keys change their rows when a row of a table in
     * {@code parents} changes or goes (ON DELETE or ON UPDATE CASCADE, SET NULL, SET DEFAULT), and
     * theirs in turn: InnoDB makes those changes itself, and the binary log does not list them.
     */
    private void cascades(Set<String> parents, Map<String, String> leftOut) throws SQLException {
        java.util.Deque<String> pending = new java.util.ArrayDeque<>(parents);
        Set<String> seen = new java.util.HashSet<>(parents);
        while (!pending.isEmpty()) {
            String parent = pending.pop();
            try (PreparedStatement statement = connection.prepareStatement("SELECT TABLE_NAME FROM information_schema.REFERENTIAL_CONSTRAINTS"
                    + " WHERE UNIQUE_CONSTRAINT_SCHEMA = ? AND REFERENCED_TABLE_NAME = ?"
                    + " AND (DELETE_RULE <> 'RESTRICT' AND DELETE_RULE <> 'NO ACTION' OR UPDATE_RULE <> 'RESTRICT' AND UPDATE_RULE <> 'NO ACTION')")) {
                statement.setString(1, database);
                statement.setString(2, parent);
                try (ResultSet rs = statement.executeQuery()) {
                    while (rs.next()) {
                        String child = rs.getString(1);
                        leftOut.putIfAbsent(child.toLowerCase(Locale.ROOT), "a foreign key's cascade from " + parent
                                + " changes its rows, which the binary log does not list");
                        if (seen.add(child)) {
                            pending.push(child);
                        }
                    }
                }
            }
        }
    }

    /** A value the recorder does not turn back into SQL. */
    private static final class Unrenderable extends Exception {
        Unrenderable(String message) {
            super(message, null, false, false);
        }
    }

    /** The rows of {@code table} ({@code raw} as the server spells it), as its own columns read them back, in the order given. */
    private List<Map<String, Object>> render(String raw, TableFacts table, List<Serializable[]> rows) throws SQLException, Unrenderable {
        List<Object[]> bound = new ArrayList<>(rows.size());
        for (Serializable[] row : rows) {
            Object[] values = new Object[table.columns().size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = bind(row[i], table.columns().get(i));
            }
            bound.add(values);
        }
        String temporary = "isocheck_binlog_" + (++temporaries);
        StringBuilder select = new StringBuilder("CREATE TEMPORARY TABLE " + temporary + " AS SELECT 0 AS isocheck_row");
        StringBuilder insert = new StringBuilder("INSERT INTO " + temporary + " VALUES ");
        StringBuilder one = new StringBuilder("(?");
        for (Column column : table.columns()) {
            select.append(", ").append(quote(column.name()));
            one.append(", ?");
        }
        one.append(')');
        select.append(" FROM ").append(quote(database)).append('.').append(quote(raw)).append(" WHERE FALSE");
        List<Map<String, Object>> out = new ArrayList<>(rows.size());
        try (Statement statement = connection.createStatement()) {
            String zone;
            try (ResultSet rs = statement.executeQuery("SELECT @@session.time_zone")) {
                rs.next();
                zone = rs.getString(1);
            }
            statement.execute(select.toString());
            try {
                // The log's TIMESTAMPs are instants: written in UTC, read in the session's zone.
                statement.execute("SET time_zone = '+00:00'");
                try {
                    for (int from = 0; from < bound.size(); from += CHUNK) {
                        int to = Math.min(bound.size(), from + CHUNK);
                        String sql = insert + String.join(", ", java.util.Collections.nCopies(to - from, one));
                        try (PreparedStatement put = connection.prepareStatement(sql)) {
                            int p = 1;
                            for (int r = from; r < to; r++) {
                                put.setInt(p++, r);
                                for (Object value : bound.get(r)) {
                                    put.setObject(p++, value);
                                }
                            }
                            put.executeUpdate();
                        }
                    }
                } finally {
                    try (PreparedStatement set = connection.prepareStatement("SET time_zone = ?")) {
                        set.setString(1, zone);
                        set.execute();
                    }
                }
                try (ResultSet rs = statement.executeQuery("SELECT * FROM " + temporary + " ORDER BY isocheck_row")) {
                    ResultSetMetaData meta = rs.getMetaData();
                    while (rs.next()) {
                        Map<String, Object> row = new LinkedHashMap<>();
                        for (int c = 2; c <= meta.getColumnCount(); c++) {
                            Object value = ColumnValues.toJson(rs.getObject(c));
                            if (value != ColumnValues.UNSUPPORTED) {
                                row.put(table.columns().get(c - 2).name().toLowerCase(Locale.ROOT), value);
                            }
                        }
                        out.add(row);
                    }
                }
            } finally {
                statement.execute("DROP TEMPORARY TABLE IF EXISTS " + temporary);
            }
        }
        if (out.size() != rows.size()) {
            throw new SQLException("the server read back " + out.size() + " of " + rows.size() + " rows");
        }
        return out;
    }

    private static String quote(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }

    /**
     * The value to bind for {@code value}, as the log decoded it, so that the column stores what
     * the log says it held; throws where it cannot tell.
     */
    private static Object bind(Serializable value, Column column) throws Unrenderable {
        if (value == null) {
            return null;
        }
        String type = column.type();
        switch (type) {
            case "tinyint", "smallint", "mediumint", "int", "integer", "bigint" -> {
                long v = ((Number) value).longValue();
                if (!column.unsigned() || v >= 0) {
                    return v;
                }
                int bits = switch (type) {
                    case "tinyint" -> 8;
                    case "smallint" -> 16;
                    case "mediumint" -> 24;
                    case "int", "integer" -> 32;
                    default -> 64;
                };
                // The log stores the bits; an unsigned column reads them as unsigned.
                return BigInteger.valueOf(v).add(BigInteger.ONE.shiftLeft(bits));
            }
            case "decimal", "numeric", "float", "double", "real" -> {
                if (value instanceof Float f) {
                    return f;
                }
                if (value instanceof Double || value instanceof BigDecimal) {
                    return value;
                }
            }
            case "year", "enum", "set" -> {
                // A year as its number; an ENUM by its member's index, a SET by its members' bits,
                // which the server takes back as such.
                if (value instanceof Number n) {
                    return n.longValue();
                }
            }
            case "bit" -> {
                if (value instanceof BitSet bits) {
                    long v = 0;
                    for (int i = bits.nextSetBit(0); i >= 0; i = bits.nextSetBit(i + 1)) {
                        if (i >= 64) {
                            throw new Unrenderable("a BIT value wider than 64 bits");
                        }
                        v |= 1L << i;
                    }
                    return new BigInteger(Long.toUnsignedString(v));
                }
            }
            case "char", "varchar", "tinytext", "text", "mediumtext", "longtext", "binary", "varbinary", "tinyblob", "blob",
                 "mediumblob", "longblob", "json", "uuid", "inet4", "inet6" -> {
                if (value instanceof byte[] bytes && !type.startsWith("inet") && !type.equals("uuid")) {
                    return bytes;
                }
            }
            case "date", "datetime", "timestamp" -> {
                if (value instanceof Long micros) {
                    if (micros == Long.MIN_VALUE) {
                        throw new Unrenderable("a zero or invalid date in column " + column.name() + ", which the binary log gives as no date");
                    }
                    LocalDateTime at = LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
                            (int) Math.floorMod(micros, 1_000_000L) * 1000, ZoneOffset.UTC);
                    return at.toString().replace('T', ' ');
                }
            }
            case "time" -> {
                if (value instanceof Long micros && micros >= 0 && micros < MICROS_PER_DAY) {
                    long seconds = micros / 1_000_000L;
                    return String.format(Locale.ROOT, "%02d:%02d:%02d.%06d", seconds / 3600, seconds / 60 % 60, seconds % 60,
                            micros % 1_000_000L);
                }
                throw new Unrenderable("a TIME value in column " + column.name() + " outside 00:00:00-23:59:59, which the binary"
                        + " log reader does not decode");
            }
            default -> {
                // Spatial types and others the log encodes in forms of their own.
            }
        }
        throw new Unrenderable("column " + column.name() + " of type " + type.toUpperCase(Locale.ROOT)
                + " holds a value the recorder does not read from the binary log (" + value.getClass().getSimpleName() + ")");
    }
}
