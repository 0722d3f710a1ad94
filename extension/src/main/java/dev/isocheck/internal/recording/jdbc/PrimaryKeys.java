package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.recording.PrimaryKeyLookup;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The primary keys of the tables of one database, from {@link DatabaseMetaData#getPrimaryKeys},
 * cached per table. Looked up only while a connection is between transactions: metadata queries
 * are statements, and one sent inside the application's transaction could start its snapshot
 * early or fail in an aborted transaction.
 */
final class PrimaryKeys implements PrimaryKeyLookup {

    private final Map<String, Optional<List<String>>> cache = new ConcurrentHashMap<>();
    private final Map<String, Map<String, String>> sideEffects = new ConcurrentHashMap<>();

    @Override
    public Optional<List<String>> keyOf(String table) {
        Optional<List<String>> key = cache.get(table);
        return key == null ? Optional.empty() : key;
    }

    @Override
    public Map<String, String> changedAlongWith(String table) {
        // Not looked up yet (the connection broke first): assume the worst.
        return sideEffects.getOrDefault(table, Map.of("*", "the table's triggers and cascading foreign keys could not be looked up"));
    }

    /** Whether every table in {@code tables} is in the cache. */
    boolean knows(Collection<String> tables) {
        return cache.keySet().containsAll(tables);
    }

    /**
     * Looks up the tables not cached yet on {@code connection}. A table that cannot be looked up
     * (a failure, or no primary key) caches as keyless: its reads are not recorded and its writes
     * leave it out of the check.
     */
    void lookUp(Connection connection, Collection<String> tables) {
        for (String table : tables) {
            if (cache.containsKey(table)) {
                continue;
            }
            try {
                Map<String, String> effects = new TreeMap<>(cascades(connection.getMetaData(), table));
                if (!isBaseTable(connection.getMetaData(), table)) {
                    effects.put("*", "a write through a view, or to something that is not a single base table,"
                            + " changes rows of tables it does not name");
                } else if (hasTriggers(connection, table)) {
                    effects.put("*", "the table has triggers, which may write any table unseen");
                }
                sideEffects.put(table, Map.copyOf(effects));
                cache.put(table, find(connection.getMetaData(), table));
            } catch (SQLException | RuntimeException e) {
                // The connection may be broken; try again next time rather than caching a failure.
                return;
            }
        }
    }

    /**
     * The child tables of {@code table}'s foreign keys whose rows a write to it changes: ON DELETE
     * or ON UPDATE CASCADE, SET NULL or SET DEFAULT.
     */
    private static Map<String, String> cascades(DatabaseMetaData metaData, String table) throws SQLException {
        Map<String, String> children = new TreeMap<>();
        for (String[] spelling : spellings(table)) {
            try (ResultSet keys = metaData.getExportedKeys(null, spelling[0], spelling[1])) {
                while (keys.next()) {
                    if (changesChildren(keys.getShort("UPDATE_RULE")) || changesChildren(keys.getShort("DELETE_RULE"))) {
                        String child = keys.getString("FKTABLE_NAME").toLowerCase(Locale.ROOT);
                        String schema = keys.getString("FKTABLE_SCHEM");
                        String why = "a cascading foreign key from " + table + " changes its rows unseen";
                        children.put(child, why);
                        if (schema != null) {
                            children.put(schema.toLowerCase(Locale.ROOT) + "." + child, why);
                        }
                    }
                }
            }
        }
        return children;
    }

    private static boolean changesChildren(short rule) {
        return rule == DatabaseMetaData.importedKeyCascade || rule == DatabaseMetaData.importedKeySetNull
                || rule == DatabaseMetaData.importedKeySetDefault;
    }

    /**
     * Whether the name is one base table: a view or an unknown object may stand for other tables.
     * PostgreSQL says {@code TABLE} or {@code PARTITIONED TABLE}, H2 {@code BASE TABLE}.
     */
    private static boolean isBaseTable(DatabaseMetaData metaData, String table) throws SQLException {
        List<String> types = new ArrayList<>();
        for (String[] spelling : spellings(table)) {
            try (ResultSet tables = metaData.getTables(null, spelling[0], spelling[1], null)) {
                while (tables.next()) {
                    types.add(String.valueOf(tables.getString("TABLE_TYPE")).toUpperCase(Locale.ROOT));
                }
            }
        }
        return types.size() == 1 && (types.get(0).equals("TABLE") || types.get(0).equals("BASE TABLE")
                || types.get(0).equals("PARTITIONED TABLE"));
    }

    /** Whether the table has triggers, from the standard information schema (PostgreSQL, H2, HSQLDB). */
    private static boolean hasTriggers(Connection connection, String table) throws SQLException {
        String name = table.substring(table.indexOf('.') + 1);
        try (var statement = connection.prepareStatement(
                "SELECT COUNT(*) FROM information_schema.triggers WHERE LOWER(event_object_table) = ?")) {
            statement.setString(1, name);
            try (ResultSet rs = statement.executeQuery()) {
                return rs.next() && rs.getLong(1) > 0;
            }
        }
    }

    private static String[][] spellings(String table) {
        int dot = table.indexOf('.');
        String schema = dot < 0 ? null : table.substring(0, dot);
        String name = dot < 0 ? table : table.substring(dot + 1);
        return new String[][] {{schema, name},
                {schema == null ? null : schema.toUpperCase(Locale.ROOT), name.toUpperCase(Locale.ROOT)}};
    }

    private static Optional<List<String>> find(DatabaseMetaData metaData, String table) throws SQLException {
        // Databases fold unquoted names their own way: H2 and HSQLDB to upper case, PostgreSQL to lower.
        for (String[] spelling : spellings(table)) {
            TreeMap<Short, String> columns = new TreeMap<>();
            List<String> schemas = new ArrayList<>();
            try (ResultSet keys = metaData.getPrimaryKeys(null, spelling[0], spelling[1])) {
                while (keys.next()) {
                    schemas.add(String.valueOf(keys.getString("TABLE_SCHEM")));
                    columns.put(keys.getShort("KEY_SEQ"), keys.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
                }
            }
            if (schemas.stream().distinct().count() > 1) {
                // The same name in several schemas: which one the statements meant is not known.
                return Optional.empty();
            }
            if (!columns.isEmpty()) {
                return Optional.of(List.copyOf(columns.values()));
            }
        }
        return Optional.empty();
    }
}
