package dev.isocheck.internal.recording.decoding;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.isocheck.internal.recording.DecodedChange;
import dev.isocheck.internal.recording.DecodedChange.Kind;
import dev.isocheck.internal.recording.WriteLog.Account;
import dev.isocheck.internal.recording.WriteLog.CommittedTransaction;
import dev.isocheck.internal.recording.WriteLog.CommittedWrite;
import dev.isocheck.internal.recording.decoding.PostgresWriteLog.DecodedTransaction;
import dev.isocheck.internal.recording.sql.ColumnValues;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns the text of decoded tuples into the recorder's values by asking the server to read them
 * back as rows of their own table ({@code json_populate_recordset(null::t, ...)}, every column
 * typed as the table types it, length and precision included) and reading those rows through the
 * same driver and the same conversion ({@link ColumnValues}) as the application's reads. A value
 * written and a value read are then equal exactly when the database's are, whatever the type,
 * time zone or driver setting, with no type-by-type guessing here. Keys are the values the server
 * returns, from the table's primary key as the catalog says it is now, when the test is checked.
 */
final class ServerRendering {

    /** Rows rendered per query: a JSON parameter of this many rows stays small. */
    private static final int CHUNK = 500;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Connection connection;
    private final Map<String, TableFacts> tables = new HashMap<>();
    private final Map<String, String> leftOut = new TreeMap<>();

    ServerRendering(Connection connection) {
        this.connection = connection;
    }

    /**
     * What a table is, as the catalog says now.
     *
     * @param keyChangesLogged whether an UPDATE of the relation the log names (a partition, say)
     *                         that changed the primary key logs the old key: its replica
     *                         identity (the default, the primary key; or an index) covers every
     *                         primary key column, so that an UPDATE logged without an old tuple
     *                         kept its key
     */
    private record TableFacts(String name, List<String> key, Map<String, String> columns, long oid,
                              boolean keyChangesLogged) {
    }

    Account account(List<DecodedTransaction> decoded) throws SQLException {
        // Every tuple of a table rendered together, then put back in place.
        Map<String, List<Map<String, String>>> tuples = new LinkedHashMap<>();
        Map<String, Map<String, String>> lastSeen = new HashMap<>();
        List<List<Pending>> pending = new ArrayList<>();
        for (DecodedTransaction t : decoded) {
            List<Pending> writes = new ArrayList<>();
            for (DecodedChange change : t.changes()) {
                if (change.kind() == Kind.TRUNCATE) {
                    for (String table : change.truncated()) {
                        facts(table).ifPresent(f -> leftOut.putIfAbsent(f.name(),
                                "a TRUNCATE removed rows the log does not list one by one"));
                    }
                    continue;
                }
                java.util.Optional<TableFacts> facts = facts(change.table());
                if (facts.isEmpty() || leftOut.containsKey(facts.get().name())) {
                    continue;
                }
                Map<String, String> after = change.newTuple();
                if (after != null && after.containsValue(TestDecodingOutput.UNCHANGED_TOAST)) {
                    after = withToastFilled(after, change.oldTuple(), lastSeen.get(identity(change.table(), facts.get(), after)));
                    if (after == null) {
                        leftOut.putIfAbsent(facts.get().name(), "an UPDATE kept a large (TOASTed) value the log does not repeat;"
                                + " ALTER TABLE " + change.table() + " REPLICA IDENTITY FULL puts it in the log");
                        continue;
                    }
                }
                if (change.kind() != Kind.INSERT && change.oldTuple() == null && change.newTuple() == null) {
                    leftOut.putIfAbsent(facts.get().name(), "a row change without its key in the log");
                    continue;
                }
                if (after != null) {
                    lastSeen.put(identity(change.table(), facts.get(), after), after);
                }
                Pending p = new Pending(change.table(), facts.get(), change.kind(),
                        index(tuples, change.table(), change.oldTuple()), index(tuples, change.table(), after), writes.size());
                writes.add(p);
            }
            pending.add(writes);
        }
        Map<String, List<Map<String, Object>>> rendered = new HashMap<>();
        for (Map.Entry<String, List<Map<String, String>>> e : tuples.entrySet()) {
            rendered.put(e.getKey(), render(e.getKey(), e.getValue()));
        }
        // Which tables are left out is settled before any transaction's writes are built: a table
        // found wanting at its tenth change must be missing from the first nine's transactions too
        // (a transaction's account with some of its rows dropped is another transaction's shape,
        // and transactions are found in the log by the rows they changed).
        for (List<Pending> writes : pending) {
            for (Pending p : writes) {
                Map<String, Object> before = p.before() < 0 ? null : rendered.get(p.raw()).get(p.before());
                Map<String, Object> after = p.after() < 0 ? null : rendered.get(p.raw()).get(p.after());
                if (after != null && key(p.facts(), after) == null || after == null && (before == null || key(p.facts(), before) == null)) {
                    leftOut.putIfAbsent(p.facts().name(), p.facts().key().isEmpty()
                            ? "the table has no primary key" : "a row written has no value for a primary key column");
                }
            }
        }
        List<CommittedTransaction> committed = new ArrayList<>();
        for (int i = 0; i < decoded.size(); i++) {
            List<CommittedWrite> writes = new ArrayList<>();
            for (Pending p : pending.get(i)) {
                if (leftOut.containsKey(p.facts().name())) {
                    continue;
                }
                Map<String, Object> before = p.before() < 0 ? null : rendered.get(p.raw()).get(p.before());
                Map<String, Object> after = p.after() < 0 ? null : rendered.get(p.raw()).get(p.after());
                String beforeKey = before == null ? null : key(p.facts(), before);
                String afterKey = after == null ? null : key(p.facts(), after);
                if (after != null && afterKey == null || after == null && beforeKey == null) {
                    leftOut.putIfAbsent(p.facts().name(), p.facts().key().isEmpty()
                            ? "the table has no primary key" : "a row written has no value for a primary key column");
                    continue;
                }
                if (p.kind() == Kind.UPDATE && before == null && p.facts().keyChangesLogged()) {
                    // The log gives no old row, and would have given the old key had it changed:
                    // the row was there, under this key, when the UPDATE changed it. Read so, a
                    // version of the row is read before the write, as with an old row logged.
                    before = dev.isocheck.internal.recording.RecordedTransaction.keyColumns(p.facts().key(), after);
                }
                if (after != null && beforeKey != null && !beforeKey.equals(afterKey)) {
                    // The key changed: the row left its old key for a new one.
                    writes.add(new CommittedWrite(p.facts().name(), beforeKey, before, null, p.change()));
                    writes.add(new CommittedWrite(p.facts().name(), afterKey, null, after, p.change()));
                } else {
                    writes.add(new CommittedWrite(p.facts().name(), after != null ? afterKey : beforeKey, before, after, p.change(),
                            p.kind() == Kind.INSERT));
                }
            }
            if (!writes.isEmpty()) {
                // Empty: it wrote only tables left out, or nothing but a logical message (the recorder's own flush).
                committed.add(new CommittedTransaction(decoded.get(i).xid(), writes));
            }
        }
        return new Account(committed, leftOut);
    }

    /** A change waiting for its tuples to be rendered: their indexes among the table's tuples, -1 for none. */
    private record Pending(String raw, TableFacts facts, Kind kind, int before, int after, int change) {
    }

    private static int index(Map<String, List<Map<String, String>>> tuples, String table, Map<String, String> tuple) {
        if (tuple == null) {
            return -1;
        }
        List<Map<String, String>> list = tuples.computeIfAbsent(table, t -> new ArrayList<>());
        list.add(tuple);
        return list.size() - 1;
    }

    /** The row's identity within a table for filling TOASTed values: its key columns' text. */
    private static String identity(String table, TableFacts facts, Map<String, String> tuple) {
        StringBuilder out = new StringBuilder(table);
        for (String column : facts.key()) {
            out.append('\u0000').append(tuple.get(facts.columns().get(column)));
        }
        return out.toString();
    }

    /** The tuple with each unchanged TOASTed value taken from the old tuple or the row's last version; null when one is unknown. */
    private static Map<String, String> withToastFilled(Map<String, String> after, Map<String, String> old, Map<String, String> last) {
        Map<String, String> filled = new LinkedHashMap<>(after);
        for (Map.Entry<String, String> e : after.entrySet()) {
            if (e.getValue() != TestDecodingOutput.UNCHANGED_TOAST) {
                continue;
            }
            String value = old != null && old.containsKey(e.getKey()) ? old.get(e.getKey())
                    : last != null && last.containsKey(e.getKey()) && last.get(e.getKey()) != TestDecodingOutput.UNCHANGED_TOAST
                    ? last.get(e.getKey()) : null;
            if (value == null) {
                return null;
            }
            filled.put(e.getKey(), value);
        }
        return filled;
    }

    private static String key(TableFacts facts, Map<String, Object> row) {
        return dev.isocheck.internal.recording.RecordedTransaction.key(facts.name(), facts.key(), row).orElse(null);
    }

    /**
     * The table's facts, looked up once per test: its name in the history (a partition's is its
     * partitioned table's, whose key it shares), its primary key, and its columns by lower-cased
     * name; empty, and the table left out, when it cannot be told apart from another.
     */
    private java.util.Optional<TableFacts> facts(String raw) throws SQLException {
        if (!tables.containsKey(raw)) {
            tables.put(raw, lookUp(raw));
        }
        return java.util.Optional.ofNullable(tables.get(raw));
    }

    private TableFacts lookUp(String raw) throws SQLException {
        String root;
        long oid;
        List<String> key = new ArrayList<>();
        Map<String, String> columns = new LinkedHashMap<>();
        java.util.Set<String> identity = new java.util.HashSet<>();
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT r.relname, r.oid, (SELECT array_agg(a.attname ORDER BY k.ord) FROM pg_catalog.pg_index i"
                        + " CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)"
                        + " JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum"
                        + " WHERE i.indrelid = r.oid AND i.indisprimary),"
                        + " (SELECT array_agg(a.attname) FROM pg_catalog.pg_attribute a"
                        + " WHERE a.attrelid = ?::regclass AND a.attnum > 0 AND NOT a.attisdropped),"
                        // The columns of the replica identity of the relation the log names: its
                        // own primary key by default, or the index it was given.
                        + " (SELECT array_agg(a.attname) FROM pg_catalog.pg_class c JOIN pg_catalog.pg_index i"
                        + " ON i.indrelid = c.oid AND (c.relreplident = 'd' AND i.indisprimary"
                        + " OR c.relreplident = 'i' AND i.indisreplident)"
                        + " CROSS JOIN LATERAL unnest(i.indkey::int2[]) AS k(attnum)"
                        + " JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum"
                        + " WHERE c.oid = ?::regclass)"
                        + " FROM pg_catalog.pg_class r"
                        + " WHERE r.oid = coalesce(pg_catalog.pg_partition_root(?::regclass), ?::regclass)")) {
            for (int i = 1; i <= 4; i++) {
                statement.setString(i, raw);
            }
            try (ResultSet rs = statement.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                root = rs.getString(1).toLowerCase(Locale.ROOT);
                oid = rs.getLong(2);
                java.sql.Array keyArray = rs.getArray(3);
                if (keyArray != null) {
                    for (Object column : (Object[]) keyArray.getArray()) {
                        key.add(((String) column).toLowerCase(Locale.ROOT));
                    }
                }
                for (Object column : (Object[]) rs.getArray(4).getArray()) {
                    String name = (String) column;
                    if (columns.put(name.toLowerCase(Locale.ROOT), name) != null) {
                        leftOut.putIfAbsent(root, "two of its columns have names that differ only in case");
                    }
                }
                java.sql.Array identityArray = rs.getArray(5);
                if (identityArray != null) {
                    for (Object column : (Object[]) identityArray.getArray()) {
                        identity.add(((String) column).toLowerCase(Locale.ROOT));
                    }
                }
            }
        } catch (SQLException e) {
            if ("42P01".equals(e.getSQLState())) {
                // Dropped since: what it held is not known any more.
                leftOut.putIfAbsent(raw.substring(raw.lastIndexOf('.') + 1).replace("\"", "").toLowerCase(Locale.ROOT),
                        "the table was dropped before the test was checked");
                return null;
            }
            throw e;
        }
        for (TableFacts other : tables.values()) {
            if (other != null && other.name().equals(root) && other.oid() != oid) {
                leftOut.putIfAbsent(root, "several tables answer to this name");
            }
        }
        return new TableFacts(root, List.copyOf(key), columns, oid, !key.isEmpty() && identity.containsAll(key));
    }

    /** The tuples of one table as the server reads them back, each restricted to the columns it had. */
    private List<Map<String, Object>> render(String raw, List<Map<String, String>> tuples) throws SQLException {
        List<Map<String, Object>> out = new ArrayList<>(tuples.size());
        for (int from = 0; from < tuples.size(); from += CHUNK) {
            List<Map<String, String>> chunk = tuples.subList(from, Math.min(tuples.size(), from + CHUNK));
            ArrayNode array = JSON.createArrayNode();
            for (Map<String, String> tuple : chunk) {
                ObjectNode row = array.addObject();
                tuple.forEach(row::put);
            }
            try (PreparedStatement statement = connection.prepareStatement(
                    "SELECT * FROM pg_catalog.json_populate_recordset(null::" + raw + ", ?::json)")) {
                statement.setString(1, array.toString());
                try (ResultSet rs = statement.executeQuery()) {
                    ResultSetMetaData meta = rs.getMetaData();
                    int i = 0;
                    while (rs.next()) {
                        Map<String, String> tuple = chunk.get(i++);
                        Map<String, Object> row = new LinkedHashMap<>();
                        for (int c = 1; c <= meta.getColumnCount(); c++) {
                            String name = meta.getColumnLabel(c);
                            if (!tuple.containsKey(name)) {
                                continue;
                            }
                            Object value = ColumnValues.toJson(rs.getObject(c));
                            if (value != ColumnValues.UNSUPPORTED) {
                                row.put(name.toLowerCase(Locale.ROOT), value);
                            }
                        }
                        out.add(row);
                    }
                    if (i != chunk.size()) {
                        throw new SQLException("the server read back " + i + " of " + chunk.size() + " rows of " + raw);
                    }
                }
            }
        }
        return out;
    }
}
