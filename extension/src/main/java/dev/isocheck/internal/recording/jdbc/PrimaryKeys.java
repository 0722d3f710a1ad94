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

    @Override
    public Optional<List<String>> keyOf(String table) {
        Optional<List<String>> key = cache.get(table);
        return key == null ? Optional.empty() : key;
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
                cache.put(table, find(connection.getMetaData(), table));
            } catch (SQLException | RuntimeException e) {
                // The connection may be broken; try again next time rather than caching a failure.
                return;
            }
        }
    }

    private static Optional<List<String>> find(DatabaseMetaData metaData, String table) throws SQLException {
        int dot = table.indexOf('.');
        String schema = dot < 0 ? null : table.substring(0, dot);
        String name = dot < 0 ? table : table.substring(dot + 1);
        // Databases fold unquoted names their own way: H2 and HSQLDB to upper case, PostgreSQL to lower.
        for (String[] spelling : new String[][] {{schema, name},
                {schema == null ? null : schema.toUpperCase(Locale.ROOT), name.toUpperCase(Locale.ROOT)}}) {
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
