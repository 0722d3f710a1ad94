package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.recording.sql.ColumnValues;
import dev.isocheck.internal.recording.sql.SqlAnalyzer;
import dev.isocheck.internal.recording.sql.SqlTextCache;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the current row of a result as a row of the history: each result column that is a table
 * column, by its lower-cased name, converted by {@link ColumnValues}.
 */
final class RowReader {

    /** Each result label's column name: a result's labels are read at every execution. */
    private static final SqlTextCache<String> NAMES = new SqlTextCache<>();

    private final ResultSet rs;
    private final String[] names;
    private final int[] types;
    private boolean ambiguous;

    /**
     * @param columns the table column of each result column ({@code null} entries for others), or
     *                {@code null} to take the result's column labels as the table's column names
     */
    RowReader(ResultSet rs, List<String> columns) throws SQLException {
        this.rs = rs;
        ResultSetMetaData meta = rs.getMetaData();
        int count = meta.getColumnCount();
        names = new String[count];
        types = new int[count];
        for (int i = 0; i < count; i++) {
            names[i] = columns == null ? name(meta.getColumnLabel(i + 1))
                    : i < columns.size() ? columns.get(i) : null;
            types[i] = meta.getColumnType(i + 1);
        }
    }

    private static String name(String label) {
        String name = NAMES.get(label);
        if (name == null) {
            name = SqlAnalyzer.columnName(label);
            NAMES.put(label, name);
        }
        return name;
    }

    /**
     * Readers of the two halves of a result whose columns are a row's new version then its old
     * one ({@code RETURNING new.*, old.*}): {new, old}. Halves whose labels differ make both read
     * nothing (an empty row), which leaves the table out.
     */
    static RowReader[] halves(ResultSet rs) throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        int count = meta.getColumnCount();
        int half = count / 2;
        java.util.List<String> newNames = new java.util.ArrayList<>();
        java.util.List<String> oldNames = new java.util.ArrayList<>();
        boolean matching = count % 2 == 0;
        for (int i = 0; i < count; i++) {
            String name = name(meta.getColumnLabel(i + 1));
            newNames.add(i < half ? name : null);
            oldNames.add(i < half ? null : name);
            if (i >= half && !name.equals(name(meta.getColumnLabel(i - half + 1)))) {
                matching = false;
            }
        }
        if (!matching) {
            throw new SQLException("the new and old halves of the rows returned do not match");
        }
        return new RowReader[] {new RowReader(rs, newNames), new RowReader(rs, oldNames)};
    }

    /**
     * The current row. A column without a comparable value is left out: it is left out of every
     * read and every write of the row alike, and a read may see a subset of a row's fields, so the
     * check stays sound. Two result columns of one name make the row {@linkplain #ambiguous() ambiguous}.
     */
    Map<String, Object> row() throws SQLException {
        Map<String, Object> row = new LinkedHashMap<>();
        ambiguous = false;
        for (int i = 0; i < names.length; i++) {
            if (names[i] == null) {
                continue;
            }
            Object value = ColumnValues.toJson(rs.getObject(i + 1));
            if (row.containsKey(names[i])) {
                // "Foo" and "foo" fold to one name: which is which is not known.
                ambiguous = true;
            }
            row.put(names[i], value);
        }
        row.values().removeIf(v -> v == ColumnValues.UNSUPPORTED);
        if (ambiguous) {
            row.clear();
        }
        return row;
    }

    /** Whether the last {@link #row()} had two columns of one name, and so is empty. */
    boolean ambiguous() {
        return ambiguous;
    }

    /** Whether {@code column} is a result column of a character string type. */
    boolean isText(String column) {
        for (int i = 0; i < names.length; i++) {
            if (column.equals(names[i])) {
                return switch (types[i]) {
                    case Types.VARCHAR, Types.NVARCHAR, Types.LONGVARCHAR, Types.LONGNVARCHAR -> true;
                    default -> false;
                };
            }
        }
        return false;
    }

    /**
     * Whether {@code column} is a result column whose comparisons the checker evaluates exactly as
     * a database does whatever its collation: integers, exact decimals and booleans (strings only
     * where the table says their collation is exact, which {@link #isText} leaves to the caller),
     * not floating-point numbers (a literal and a column may round differently).
     */
    boolean exactlyComparable(String column) {
        for (int i = 0; i < names.length; i++) {
            if (column.equals(names[i])) {
                switch (types[i]) {
                    case Types.INTEGER, Types.BIGINT, Types.SMALLINT, Types.TINYINT, Types.DECIMAL, Types.NUMERIC,
                         Types.BOOLEAN, Types.BIT:
                        return true;
                    default:
                        return false;
                }
            }
        }
        return false;
    }
}
