package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.recording.sql.Dialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Which character columns of a table the database compares for equality code point by code point,
 * as the checker evaluates {@code =}, {@code IN} and {@code LIKE} on strings. Anything else (a
 * case-insensitive or accent-insensitive collation, blank-padded {@code CHAR}, a database whose
 * collations we cannot read) is not exact, and a predicate read over such a column is not
 * recorded: a checker that judged {@code 'Smith' = 'smith'} differently from the database could
 * raise a false alarm.
 *
 * <ul>
 *   <li>PostgreSQL: {@code varchar} and {@code text} columns in a deterministic collation (every
 *       collation before PostgreSQL 12, and the database's default always; a deterministic
 *       collation breaks ties byte for byte, so only identical strings are equal) on a UTF8
 *       database.</li>
 *   <li>H2: {@code CHARACTER VARYING} columns while the database has no {@code COLLATION} set (H2
 *       then compares strings by their characters; {@code VARCHAR_IGNORECASE} is another type).</li>
 *   <li>HSQLDB and others: none.</li>
 * </ul>
 */
final class TextCollations {

    private static final String POSTGRESQL = "SELECT a.attname, co.oid IS NOT NULL"
            // collisdeterministic arrived in PostgreSQL 12; read through JSON so that older servers
            // answer (every collation deterministic) instead of failing the application's transaction.
            + " AND coalesce((row_to_json(co) ->> 'collisdeterministic')::boolean, true)"
            + " AND current_setting('server_encoding') = 'UTF8'"
            + " FROM pg_catalog.pg_attribute a"
            + " JOIN pg_catalog.pg_class c ON c.oid = a.attrelid"
            + " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
            + " LEFT JOIN pg_catalog.pg_collation co ON co.oid = a.attcollation"
            + " WHERE c.relname = ? AND n.nspname = ? AND a.attnum > 0 AND NOT a.attisdropped";

    private TextCollations() {
    }

    /**
     * The lower-case names of the table's columns whose strings compare exactly.
     *
     * @param typeNames each column's type name as {@code DatabaseMetaData.getColumns} gives it, by lower-case name
     */
    static Set<String> exact(Dialect dialect, Connection connection, String schema, String table,
                             Map<String, String> typeNames) {
        try {
            return switch (dialect) {
                case POSTGRESQL -> postgresql(connection, schema, table, typeNames);
                case H2 -> h2(connection, typeNames);
                default -> Set.of();
            };
        } catch (SQLException | RuntimeException e) {
            return Set.of();
        }
    }

    private static Set<String> postgresql(Connection connection, String schema, String table,
                                          Map<String, String> typeNames) throws SQLException {
        Set<String> exact = new HashSet<>();
        try (PreparedStatement statement = connection.prepareStatement(POSTGRESQL)) {
            statement.setString(1, table);
            statement.setString(2, schema);
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    String column = rs.getString(1).toLowerCase(Locale.ROOT);
                    String type = typeNames.get(column);
                    if (rs.getBoolean(2) && ("varchar".equals(type) || "text".equals(type))) {
                        exact.add(column);
                    }
                }
            }
        }
        return exact;
    }

    private static Set<String> h2(Connection connection, Map<String, String> typeNames) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = 'COLLATION'");
             ResultSet rs = statement.executeQuery()) {
            if (rs.next() && !"OFF".equalsIgnoreCase(rs.getString(1))) {
                return Set.of();
            }
        }
        Set<String> exact = new HashSet<>();
        typeNames.forEach((column, type) -> {
            if ("CHARACTER VARYING".equals(type)) {
                exact.add(column);
            }
        });
        return exact;
    }
}
