package dev.isocheck.internal.recording.sql;

import java.sql.Types;
import java.util.List;
import java.util.Map;

/**
 * A table's columns as the database lists them: the primary key (lower case, in key order) and
 * each column by its lower-case name, with its exact name and JDBC type. Names that two columns
 * fold to are not listed, so that nothing is ever sent for the wrong column; nor are columns the
 * application's role may not read ({@code allReadable} false then), which the recorder must never
 * ask for: a statement it changed would fail where the application's would not. With
 * {@code rowSecurity} (PostgreSQL's row-level security enabled on the table) a query may not see
 * rows that are there: what it returned is not every row its WHERE selects, and an empty result is
 * no proof that a row is absent.
 */
public record TableColumns(List<String> key, Map<String, Column> columns, boolean allReadable, boolean rowSecurity) {

    /**
     * A table every column of which the application's role may read, with no row-level security.
     *
     * @param key     the primary key columns, lower case, in key order
     * @param columns the columns the role may read, by lower-case name
     */
    public TableColumns(List<String> key, Map<String, Column> columns) {
        this(key, columns, true, false);
    }

    /**
     * One column: its name exactly as the database spells it, its {@link Types} code, and whether
     * it holds character strings the database compares for equality code point by code point, as
     * the checker does ({@code text} in a deterministic collation on PostgreSQL, H2's
     * {@code VARCHAR} in its default binary collation): only then may a predicate read rest on
     * {@code =}, {@code <>}, {@code IN} or {@code LIKE} over it; and whether it is declared NOT NULL.
     */
    public record Column(String name, int type, boolean exactText, boolean notNull) {

        /** A column whose strings, if any, are not known to compare exactly. */
        public Column(String name, int type) {
            this(name, type, false, false);
        }

        /** A column not known to be NOT NULL. */
        public Column(String name, int type, boolean exactText) {
            this(name, type, exactText, false);
        }

        /** The column as an identifier in {@code dialect}'s SQL: quoted, so that its exact spelling is what is meant. */
        public String quoted(Dialect dialect) {
            return dialect.quote(name);
        }
    }

    /**
     * Whether comparisons of values of {@code type} are evaluated by the checker exactly as a
     * database does: integers, exact decimals and booleans. Strings are not (collations differ),
     * nor are floating-point numbers (a literal and a column may round differently).
     */
    public static boolean exactlyComparable(int type) {
        return switch (type) {
            case Types.INTEGER, Types.BIGINT, Types.SMALLINT, Types.TINYINT, Types.DECIMAL, Types.NUMERIC,
                 Types.BOOLEAN, Types.BIT -> true;
            default -> false;
        };
    }

    /** Whether {@code type} is a boolean or bit type (MySQL's BOOLEAN is TINYINT(1), reported as one). */
    public static boolean isBoolean(int type) {
        return type == Types.BIT || type == Types.BOOLEAN;
    }

    /**
     * Whether the checker evaluates the comparisons a WHERE makes on {@code column} exactly as the
     * database does: any comparison of integers, exact decimals and booleans; equality, IN and
     * LIKE (not {@code ordered} comparisons, which follow the collation's order) of an
     * {@linkplain Column#exactText() exact text} column. False for a column not of the table.
     */
    public boolean comparedExactly(String column, boolean ordered) {
        Column found = columns.get(column.toLowerCase(java.util.Locale.ROOT));
        return found != null && (exactlyComparable(found.type()) || found.exactText() && !ordered);
    }

    /**
     * Whether every key column is an integer: only then is a key written in a WHERE
     * ({@code id = ?}, {@code id = 7}) with an integer the value the database holds, so that the
     * recorder may key a row by it. A string key may be spelt otherwise than it is stored (an
     * upper-case uuid, a {@code char(4)} without its padding, a timestamp without seconds), and is
     * taken from the rows the database returns.
     */
    public boolean integerKey() {
        for (String column : key) {
            Column found = columns.get(column);
            if (found == null || !switch (found.type()) {
                case Types.INTEGER, Types.BIGINT, Types.SMALLINT, Types.TINYINT -> true;
                default -> false;
            }) {
                return false;
            }
        }
        return !key.isEmpty();
    }

    /**
     * Whether a value of {@code type} comes out of an aggregated array as the same Java value as
     * {@code getObject} gives for the column itself, in every driver the recorder aggregates with
     * (PostgreSQL, H2): integers, exact decimals, booleans and character strings. Other types
     * (dates, binary, driver objects) are not aggregated.
     */
    public static boolean sameInArrays(int type) {
        return exactlyComparable(type) || type == Types.VARCHAR || type == Types.NVARCHAR
                || type == Types.LONGVARCHAR || type == Types.LONGNVARCHAR;
    }
}
