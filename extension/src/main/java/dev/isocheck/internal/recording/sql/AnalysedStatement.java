package dev.isocheck.internal.recording.sql;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.sf.jsqlparser.expression.Expression;

/**
 * What the recorder makes of one SQL statement before it is sent: a read it can key, a write it
 * can rewrite to see the rows written, something that touches no rows, or something it cannot
 * analyse.
 */
public sealed interface AnalysedStatement {

    /**
     * A SELECT over one table whose result columns are the table's columns.
     *
     * @param table      the normalised table name
     * @param columns    the table column of each result column, by position ({@code null} where
     *                   the result column is not one), or {@code null} when the projection is
     *                   {@code *} and the result's labels are the column names
     * @param equalities the top-level {@code column = literal-or-parameter} conjuncts of the WHERE
     * @param onlyEqualities whether the WHERE is nothing but those conjuncts (so that an empty result
     *                   means the row with those values is absent, when they cover the key)
     * @param where      the WHERE clause, {@code null} for none
     * @param limited    whether LIMIT, OFFSET, FETCH or TOP may cut the result short, so that it
     *                   is not every row satisfying the WHERE
     * @param distinct   whether the projection is DISTINCT (so that a column added to it would
     *                   change which rows come back)
     */
    record Query(String table, List<String> columns, Map<String, Operand> equalities, boolean onlyEqualities,
                 Expression where, boolean limited, boolean distinct) implements AnalysedStatement {

        /**
         * Whether the WHERE is nothing but equalities on exactly the columns of {@code key}
         * ({@code WHERE id = ?}): the read of one row, or of its absence, which says all a
         * predicate read would, at the cost of one key.
         */
        public boolean isPointLookup(List<String> key) {
            return onlyEqualities && !limited && !key.isEmpty() && SqlAnalyzer.sameColumns(equalities.keySet(), key);
        }
    }

    /**
     * A SELECT over tables joined ({@code FROM a LEFT JOIN b ON b.id = a.b_id}), whose projection
     * is columns of theirs: each row it returns is made of a row of each table (or of none, on the
     * outer side of a join that matched nothing). The recorder adds every column of each table to
     * the projection, hidden, and reads each table's rows from them ({@link HiddenColumns#join}).
     *
     * @param sources  the tables, the FROM's first, in the order the statement names them
     * @param where    the WHERE clause, {@code null} for none
     * @param limited  whether LIMIT, OFFSET, FETCH, TOP, SKIP LOCKED or sampling may cut the result short
     */
    record Joined(List<Source> sources, Expression where, boolean limited) implements AnalysedStatement {

        /**
         * One table of a join.
         *
         * @param table the normalised table name
         * @param alias   the name the statement qualifies its columns with (its alias, or its name), lower case
         * @param written that name as the statement writes it (quoted, in its case), to qualify columns added
         * @param on      the condition it is joined on, {@code null} for the FROM's table (and a join without one)
         * @param outer   whether it is the outer side of a LEFT JOIN, whose rows do not filter the others'
         */
        public record Source(String table, String alias, String written, Expression on, boolean outer) {
        }

        /** Whether every join is a LEFT JOIN: the FROM's table's rows are then every row its WHERE selects. */
        public boolean keepsEveryRowOfTheFirst() {
            return sources.stream().skip(1).allMatch(Source::outer);
        }
    }

    /**
     * A SELECT over one table whose projection is nothing but aggregates ({@code count(*)},
     * {@code count(col)}, {@code sum}, {@code min}, {@code max}, {@code avg}) without GROUP BY: one
     * row computed from every row the WHERE selects, which is a predicate read of those rows.
     *
     * @param table     the normalised table name
     * @param where     the WHERE clause, {@code null} for none
     * @param arguments the columns the aggregates take (lower case), which the rows read include
     * @param limited   whether LIMIT, OFFSET, FETCH, TOP, SKIP LOCKED or sampling may drop the
     *                  row or the rows it ranges over
     */
    record Aggregate(String table, Expression where, java.util.Set<String> arguments, boolean limited)
            implements AnalysedStatement {
    }

    /**
     * An INSERT, UPDATE or DELETE of one table that a dialect may rewrite to return its rows.
     *
     * @param assigned the columns an UPDATE (or an INSERT's ON CONFLICT DO UPDATE) sets: when one
     *                 is a key column, the row moves to another key and the old key's removal is
     *                 not seen
     * @param where    a DELETE's or UPDATE's WHERE clause, which it ranged over ({@code null} for
     *                 none, and for INSERT)
     * @param limited  whether LIMIT or ORDER BY may have left rows the WHERE selects untouched
     * @param used     the lower-cased words of an UPDATE's (or ON CONFLICT DO UPDATE's) SET expressions and WHERE, which
     *                 include every column whose old value it used ({@code n} in
     *                 {@code SET n = n + 1}); a column it only overwrote ({@code SET n = ?}) is
     *                 not read, however the database found the row
     */
    record Write(WriteKind kind, String table, java.util.Set<String> assigned, Expression where, boolean limited,
                 java.util.Set<String> used) implements AnalysedStatement {

        /** A write without a WHERE (an INSERT), or whose WHERE is not of interest. */
        public Write(WriteKind kind, String table, java.util.Set<String> assigned) {
            this(kind, table, assigned, null, false, java.util.Set.of());
        }

        /** Whether this is an INSERT with {@code ON CONFLICT DO UPDATE}, which updates the rows it finds. */
        public boolean isUpsert() {
            return kind == WriteKind.INSERT && !assigned.isEmpty();
        }

        /** A DELETE or UPDATE ranging over {@code where}, without SET expressions. */
        public Write(WriteKind kind, String table, java.util.Set<String> assigned, Expression where, boolean limited) {
            this(kind, table, assigned, where, limited, java.util.Set.of());
        }
    }

    /**
     * A statement that reads nothing the recorder can key and writes no rows: weaker, never wrong.
     *
     * @param readsRows whether it is a query whose reads go unchecked (a join, an expression in
     *                  the projection), which the recording lists, rather than a statement that
     *                  reads no rows (DDL, a setting)
     */
    record NoRowsKnown(String reason, boolean readsRows) implements AnalysedStatement {

        /** A statement that reads no rows. */
        public NoRowsKnown(String reason) {
            this(reason, false);
        }

        /** A query whose reads the recorder cannot key. */
        public static NoRowsKnown unkeyedQuery(String reason) {
            return new NoRowsKnown(reason, true);
        }
    }

    /**
     * A statement that may write rows the recorder cannot see.
     *
     * @param table the table it may write, or empty when it may write any table
     */
    record Opaque(Optional<String> table, String reason) implements AnalysedStatement {
    }

    /** The three kinds of row writes. */
    enum WriteKind {
        INSERT, UPDATE, DELETE,
        /** A MERGE, which may insert, update and delete rows in one statement. */
        MERGE
    }

    /** The right-hand side of a WHERE equality: a literal, or the n-th (1-based) JDBC parameter. */
    sealed interface Operand {

        /** A literal: Long, BigDecimal, String, Boolean or {@code null}. */
        record Literal(Object value) implements Operand {
        }

        /** A {@code ?} parameter. */
        record Parameter(int index) implements Operand {
        }
    }
}
