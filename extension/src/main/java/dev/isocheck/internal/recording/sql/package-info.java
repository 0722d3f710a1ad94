/**
 * The SQL side of recording: {@link dev.isocheck.internal.recording.sql.SqlAnalyzer} classifies a
 * statement with JSqlParser (a single-table query it can key, a write it can rewrite, something
 * that writes no rows, or something opaque), {@link dev.isocheck.internal.recording.sql.Dialect}
 * rewrites writes so that they return their rows, {@link dev.isocheck.internal.recording.sql.ColumnValues}
 * converts JDBC values to the history's values, and {@link dev.isocheck.internal.recording.sql.WhereText}
 * turns a WHERE with bound parameters into the text of a predicate read.
 *
 * <p><strong>Internal.</strong> This package is not API: it may change at any time without notice,
 * and using it from outside isocheck is not supported.
 */
package dev.isocheck.internal.recording.sql;
