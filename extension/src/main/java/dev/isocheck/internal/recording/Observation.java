package dev.isocheck.internal.recording;

import dev.isocheck.history.SqlStatement;
import dev.isocheck.internal.recording.sql.WhereText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One thing a transaction was seen doing, as the JDBC layer saw it: rows with their columns, not
 * yet keys, because primary keys are looked up only when the connection is idle (looking them up
 * mid-transaction would send the database a statement the application did not).
 */
public sealed interface Observation {

    /**
     * A statement the application sent; the observations after it are what it did. Its
     * parameters are kept as bound and turned into text when the history is built, off the
     * application's thread; a value that could change after binding (a {@code Date}, an array)
     * is turned into text at once.
     *
     * @param sql        the SQL text as sent
     * @param parameters the bound values in placeholder order ({@code null} for unbound,
     *                   {@link WhereText.Unbound#NULL} for SQL null)
     * @param name       what the application calls the statement, empty when unnamed
     */
    record StatementSent(String sql, Object[] parameters, Optional<String> name) implements Observation {

        /** Keeps {@code parameters} (an array of the caller's own), their mutable values as text. */
        public StatementSent {
            for (int i = 0; i < parameters.length; i++) {
                if (parameters[i] != null && parameters[i] != WhereText.Unbound.NULL && !immutable(parameters[i])) {
                    parameters[i] = String.valueOf(parameters[i]);
                }
            }
        }

        /** The statement, its parameters as text ({@code NULL} for SQL null). */
        public SqlStatement statement() {
            List<String> texts = new ArrayList<>(parameters.length);
            for (Object value : parameters) {
                texts.add(value == WhereText.Unbound.NULL ? "NULL" : String.valueOf(value));
            }
            return new SqlStatement(sql, texts, name);
        }

        private static boolean immutable(Object value) {
            return value instanceof String || value instanceof Integer || value instanceof Long
                    || value instanceof Short || value instanceof Byte || value instanceof Boolean
                    || value instanceof java.math.BigDecimal || value instanceof java.math.BigInteger
                    || value instanceof Double || value instanceof Float || value instanceof Character
                    || value instanceof java.util.UUID || value instanceof java.time.temporal.TemporalAccessor
                    && value.getClass().getPackageName().equals("java.time");
        }
    }

    /**
     * Rows a single-table SELECT returned, as far as the application read them. Added when the
     * statement runs, so that it keeps its place among the transaction's operations, and filled
     * as the application moves through the result.
     */
    final class RowsRead implements Observation {

        private final String table;
        private final Map<String, Object> fixedByWhere;
        private final boolean onlyEqualities;
        private final List<Map<String, Object>> rows = new ArrayList<>();
        private boolean exhausted;
        private boolean closed;
        private String predicateWhere;
        private boolean afterItsStatementsWrites;

        /**
         * @param table          the normalised table name
         * @param fixedByWhere   the columns the WHERE fixes to one value ({@code id = ?}), with those values
         * @param onlyEqualities whether the WHERE is nothing but those equalities
         */
        public RowsRead(String table, Map<String, Object> fixedByWhere, boolean onlyEqualities) {
            this(table, onlyEqualities, Map.copyOf(fixedByWhere));
        }

        private RowsRead(String table, boolean onlyEqualities, Map<String, Object> fixedByWhere) {
            this.table = table;
            this.fixedByWhere = fixedByWhere;
            this.onlyEqualities = onlyEqualities;
        }

        /** Adds a row the application moved to: column name to JSON-like value. */
        public void add(Map<String, Object> row) {
            rows.add(row);
        }

        /**
         * Notes that the application read the result to its end.
         *
         * @param predicateWhere the WHERE, parameters substituted, when the checker can evaluate it
         *                       exactly as the database did; {@code null} otherwise
         */
        public void exhausted(String predicateWhere) {
            this.exhausted = true;
            this.predicateWhere = predicateWhere;
        }

        /** The normalised table name. */
        public String table() {
            return table;
        }

        /**
         * Marks the read as made after the writes of its own statement: the recorder's read back
         * of the rows an UPDATE matched, whose changes the database's log holds.
         */
        public RowsRead afterItsStatementsWrites() {
            afterItsStatementsWrites = true;
            return this;
        }

        /** Whether the read came after its statement's own writes ({@link #afterItsStatementsWrites()}). */
        public boolean isAfterItsStatementsWrites() {
            return afterItsStatementsWrites;
        }

        /** Notes that the result was closed or read to its end: no row is added from now on. */
        public void closed() {
            closed = true;
        }

        /**
         * What has been seen so far, kept apart from the rows the application may still move to:
         * itself once its result is closed, as nearly every result is by the commit.
         */
        public RowsRead frozen() {
            if (closed) {
                return this;
            }
            RowsRead copy = new RowsRead(table, onlyEqualities, fixedByWhere);
            copy.rows.addAll(rows);
            copy.exhausted = exhausted;
            copy.predicateWhere = predicateWhere;
            copy.afterItsStatementsWrites = afterItsStatementsWrites;
            return copy;
        }

        /** The rows seen so far; read-only. */
        public List<Map<String, Object>> rows() {
            // A view, not a copy: asked several times per read when the history is built, and
            // the rows of a frozen read do not change.
            return java.util.Collections.unmodifiableList(rows);
        }

        /** The columns the WHERE fixes to one value, with those values. */
        public Map<String, Object> fixedByWhere() {
            return fixedByWhere;
        }

        /** Whether an empty result means the row with {@link #fixedByWhere()} is absent. */
        public boolean absentIfEmpty() {
            return exhausted && onlyEqualities;
        }

        /** The predicate read this result was, when read to its end and the WHERE is exact; else {@code null}. */
        public String predicateWhere() {
            return exhausted ? predicateWhere : null;
        }
    }

    /**
     * The full rows a statement wrote, new rows for INSERT and UPDATE, old rows for DELETE.
     *
     * @param deleted  whether the rows were deleted
     * @param assigned the columns the statement sets explicitly (an UPDATE's SET list)
     * @param batch    whether the rows are a batch's, in the order the driver gave them: when the
     *                 batch wrote one key twice, which write came last is the driver's practice,
     *                 not a promise, and the table is left out
     * @param rangedOver a DELETE's WHERE, parameters substituted, when the checker evaluates it as
     *                 the database did: the deleted rows (old versions) are then a predicate read
     *                 of it, and a DELETE that removed nothing read that nothing; {@code null}
     *                 otherwise, when a deleted row is an item read of its old version; for an
     *                 UPDATE, the same of its WHERE over {@code oldRows}, or, when its old rows
     *                 did not come back and it changed nothing, the WHERE that matched nothing
     * @param oldRows  an UPDATE's rows as they were before it, row by row with {@code rows}, where
     *                 the database returns them (PostgreSQL 18's {@code RETURNING old.*}); else
     *                 {@code null}
     * @param updated  whether the statement is an UPDATE (not an upsert, whose rows may be new):
     *                 each row it wrote was there before it, under the same key unless it sets a
     *                 key column, which is known even when {@code oldRows} are not
     * @param inserted whether the statement is an INSERT that updates nothing (no
     *                 {@code ON CONFLICT DO UPDATE}): each row it wrote had a key no row had then
     */
    record RowsWritten(String table, List<Map<String, Object>> rows, boolean deleted, java.util.Set<String> assigned,
                       boolean batch, String rangedOver, List<Map<String, Object>> oldRows, boolean updated,
                       boolean inserted) implements Observation {

        /** Rows written whose old versions are not known but by a DELETE. */
        public RowsWritten(String table, List<Map<String, Object>> rows, boolean deleted, java.util.Set<String> assigned,
                           boolean batch, String rangedOver) {
            this(table, rows, deleted, assigned, batch, rangedOver, null, false, false);
        }

        /** Rows written by a statement whose WHERE is not read as a predicate. */
        public RowsWritten(String table, List<Map<String, Object>> rows, boolean deleted, java.util.Set<String> assigned,
                           boolean batch) {
            this(table, rows, deleted, assigned, batch, null);
        }
    }

    /**
     * An UPDATE on MariaDB whose changes come from the binary log: how many rows its WHERE
     * matched (the driver counts the rows found). The log shows only the rows it changed; a row it
     * set to the values it had is not there, and neither is what the UPDATE read of it, unless the
     * recorder read the rows back after it ({@code readBack}).
     *
     * @param table     the table it names
     * @param statement the statement, for messages
     * @param count     the rows it matched
     * @param readBack  whether every row it matched is accounted for: read back after it, as a read
     *                  of the transaction, or changed by it whatever it held (so in the log)
     * @param upsert    an {@code INSERT ... ON DUPLICATE KEY UPDATE} or {@code REPLACE}, whose
     *                  {@code count} is the rows it lists, each inserted, changed or left as it was
     */
    record MatchedRows(String table, String statement, long count, boolean readBack, boolean upsert) implements Observation {

        /** An UPDATE's. */
        public MatchedRows(String table, String statement, long count, boolean readBack) {
            this(table, statement, count, readBack, false);
        }
    }

    /**
     * A statement that may have written rows, sent as written to a database whose
     * {@link WriteLog} records the writes: where it stands among the transaction's reads, and
     * what the driver said it did, so that the rows the log shows can be put in their place.
     *
     * @param table the one table the statement names as its target, when it is a plain
     *              INSERT, UPDATE, DELETE or MERGE; empty when it may write anywhere (a function
     *              call, a procedure, several statements)
     * @param count the rows the driver said it changed, -1 when it did not say
     * @param keys  the keys ({@code table/pk}) of every row it changed, when the statement alone
     *              says so: an UPDATE or DELETE of the one row its WHERE names by an integer
     *              key, and the driver said it changed that row (or none); {@code null} otherwise.
     *              A transaction whose writes are all such is matched to the log by them,
     *              without asking the server its id ({@code WriteAttribution})
     */
    record MayHaveWritten(Optional<String> table, long count, java.util.Set<String> keys) implements Observation {

        /** A statement whose rows are not known from its text. */
        public MayHaveWritten(Optional<String> table, long count) {
            this(table, count, null);
        }

        /** Validates and copies. */
        public MayHaveWritten {
            keys = keys == null ? null : java.util.Set.copyOf(keys);
        }
    }

    /**
     * Columns of a table whose values a write set without the recorder seeing them (an INSERT
     * leaving a column to its default, an UPDATE in auto-commit mode of some of a row's columns):
     * those columns are left out of every read and every write of the table in the check, which
     * then checks the table as if it had only its other columns (a read may see a subset of a
     * row's fields). Never a key column.
     *
     * @param columns the columns, lower case
     */
    record ColumnsLeftOut(String table, java.util.Set<String> columns, String statement, String reason) implements Observation {

        /** Validates and copies. */
        public ColumnsLeftOut {
            columns = java.util.Set.copyOf(columns);
        }
    }

    /**
     * A write the recorder could not see: its table (or every table, when empty) is left out of
     * the check.
     *
     * @param undoneByRollback whether what went unseen is only rows this transaction itself wrote
     *                         to {@code table} inside a transaction the application controls (not
     *                         auto-commit), which a rollback of the transaction undoes: a failed
     *                         batch. When the transaction then aborts, nobody's committed state
     *                         holds those rows, and the table is kept. Never for what may act
     *                         outside the transaction (a procedure, the driver's own connection,
     *                         transaction control in SQL text), nor in auto-commit mode, where a
     *                         driver may have committed part of a batch that failed as a whole
     */
    record LeftOut(Optional<String> table, String statement, String reason, boolean undoneByRollback)
            implements Observation {

        /** A write left out whatever the transaction's outcome. */
        public LeftOut(Optional<String> table, String statement, String reason) {
            this(table, statement, reason, false);
        }
    }
}
