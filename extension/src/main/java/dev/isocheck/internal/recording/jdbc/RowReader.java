package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.recording.sql.ColumnValues;
import dev.isocheck.internal.recording.sql.SqlAnalyzer;
import dev.isocheck.internal.recording.sql.TableColumns;
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

    private final ResultSet rs;
    private final String[] names;
    private final int[] types;
    /** The named result columns, in result order; their positions in {@link #at}. */
    private final String[] kept;
    private final int[] at;
    /** Whether two result columns have one name: then every row is ambiguous. */
    private final boolean duplicates;

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
            names[i] = columns == null ? SqlAnalyzer.columnName(meta.getColumnLabel(i + 1))
                    : i < columns.size() ? columns.get(i) : null;
            types[i] = meta.getColumnType(i + 1);
        }
        int named = 0;
        boolean twice = false;
        // "Foo" and "foo" fold to one name: which is which is not known. Most results have a few
        // columns, whose pairs cost less to compare than a set costs to build for every result.
        java.util.Set<String> seen = count > 16 ? new java.util.HashSet<>() : null;
        for (int i = 0; i < count; i++) {
            if (names[i] != null) {
                named++;
                if (seen != null) {
                    twice |= !seen.add(names[i]);
                } else {
                    for (int j = 0; j < i; j++) {
                        twice |= names[i].equals(names[j]);
                    }
                }
            }
        }
        duplicates = twice;
        kept = new String[named];
        at = new int[named];
        for (int i = 0, j = 0; i < count; i++) {
            if (names[i] != null) {
                kept[j] = names[i];
                at[j++] = i;
            }
        }
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
            String name = SqlAnalyzer.columnName(meta.getColumnLabel(i + 1));
            newNames.add(i < half ? name : null);
            oldNames.add(i < half ? null : name);
            if (i >= half && !name.equals(SqlAnalyzer.columnName(meta.getColumnLabel(i - half + 1)))) {
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
        if (duplicates) {
            return new LinkedHashMap<>();
        }
        Object[] values = new Object[kept.length];
        boolean unsupported = false;
        for (int j = 0; j < kept.length; j++) {
            values[j] = ColumnValues.toJson(rs.getObject(at[j] + 1));
            unsupported |= values[j] == ColumnValues.UNSUPPORTED;
        }
        if (!unsupported) {
            return new ResultRow(kept, values);
        }
        Map<String, Object> row = new LinkedHashMap<>();
        for (int j = 0; j < kept.length; j++) {
            if (values[j] != ColumnValues.UNSUPPORTED) {
                row.put(kept[j], values[j]);
            }
        }
        return row;
    }

    /** Whether the result has two columns of one name, so that every {@link #row()} is empty. */
    boolean ambiguous() {
        return duplicates;
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
    /** Whether {@code column} is a result column of a boolean or bit type. */
    boolean isBoolean(String column) {
        for (int i = 0; i < names.length; i++) {
            if (column.equals(names[i])) {
                return TableColumns.isBoolean(types[i]);
            }
        }
        return false;
    }

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
