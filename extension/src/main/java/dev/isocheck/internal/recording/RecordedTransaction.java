package dev.isocheck.internal.recording;

import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.HistoryBuilder.TransactionBuilder;
import dev.isocheck.history.SqlStatement;
import dev.isocheck.history.Value;
import dev.isocheck.internal.recording.Observation.LeftOut;
import dev.isocheck.internal.recording.Observation.RowsRead;
import dev.isocheck.internal.recording.Observation.RowsWritten;
import dev.isocheck.internal.recording.Observation.StatementSent;
import dev.isocheck.internal.recording.TransactionLog.Outcome;
import dev.isocheck.internal.recording.sql.SqlAnalyzer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A finished transaction, its observations turned into operations on keys {@code table/pk}. The
 * tables it left out are dropped only when the whole recording is {@linkplain Recording#finish()
 * finished}, since a write not seen in one transaction makes every transaction's view of that
 * table unreliable.
 */
public final class RecordedTransaction {

    /** Stands for "every table" among the tables left out. */
    static final String EVERY_TABLE = "*";

    /** Why an UPDATE of a table whose primary key the database computes leaves it out. */
    public static final String KEY_COMPUTED = "an UPDATE of a table whose primary key the database computes"
            + " (a generated column) may move rows, and the old keys' removal is not seen";

    /**
     * The reason given for transaction control sent as SQL text ({@code COMMIT}, {@code BEGIN}):
     * the recorder's transactions are then not the database's, whatever records the writes.
     */
    public static final String TRANSACTION_CONTROL =
            "transaction control sent as SQL text: the recorder cannot tell where the database's transactions begin and end";

    private final String session;
    private final String thread;
    private final long start;
    private final long end;
    /** Whether the start and end are known: not for a transaction no recorded connection ran. */
    private final boolean timed;
    private final boolean committed;
    private final List<Op> ops = new ArrayList<>();
    private final List<LeftOut> leftOut = new ArrayList<>();
    private final List<Observation.ColumnsLeftOut> columnsLeftOut = new ArrayList<>();
    private final List<NotModelled> notes = new ArrayList<>();
    /** What the recorder knows of the tables, for reads; set before any read is added. */
    private PrimaryKeyLookup primaryKeys = table -> Optional.empty();
    /** The database whose rows it read and wrote. */
    private DatabaseIdentity database = DatabaseIdentity.UNNAMED;

    /** Has this be a transaction of {@code database}; returns it. */
    RecordedTransaction in(DatabaseIdentity database) {
        this.database = java.util.Objects.requireNonNull(database, "database is null");
        return this;
    }

    /** The database whose rows it read and wrote. */
    DatabaseIdentity database() {
        return database;
    }

    private RecordedTransaction(String session, String thread, long start, long end, boolean timed, boolean committed) {
        this.session = session;
        this.thread = thread;
        this.start = start;
        this.end = end;
        this.timed = timed;
        this.committed = committed;
    }

    /**
     * A transaction no recorded connection ran (another pool, a migration, a scheduled job) that
     * the database's log shows committed: its writes, in its own session, with no times.
     */
    static RecordedTransaction unrecorded(WriteLog.CommittedTransaction committed) {
        RecordedTransaction t = new RecordedTransaction(null,
                "not recorded: a connection the test did not wrap (server transaction " + committed.xid() + ")",
                Long.MAX_VALUE, Long.MAX_VALUE, false, true);
        t.ops.addAll(writes(committed.writes()));
        return t;
    }

    /**
     * A transaction of a database whose writes come from its log: the reads from the recorded
     * statements, the writes from {@code committed} (what the log says this transaction
     * committed; {@code null} when the log has none for it), each put where its statement ran.
     *
     * <p>Where a write stands among the reads matters only for the keys the transaction both
     * read and wrote. The writes are put after their own statement when the statements say
     * unambiguously which wrote which rows (each that may have written named its table and the
     * rows it changed, and the log's changes add up to that, table by table, in order). Otherwise
     * they go at the end, and the reads, from the first statement that may have written to the
     * end, of a key it wrote (or over a table it wrote) are left out: they may have come before or
     * after the write (a deferred trigger writes at the commit).
     *
     * @param idKnown whether the log's account of this transaction is known to be complete:
     *                its id was learnt, or it cannot have written; when not, and it may have
     *                written, its writes may be in the log as a transaction of no session, and
     *                its reads from its first statement that may have written are left out
     */
    static RecordedTransaction decoded(TransactionLog.Finished finished, WriteLog.CommittedTransaction committed,
                                       boolean idKnown, java.util.function.Consumer<NotModelled> notes) {
        boolean isCommitted = committed != null || finished.outcome() == Outcome.COMMITTED;
        RecordedTransaction t = new RecordedTransaction(finished.session(), finished.thread(), finished.start(),
                finished.end(), true, isCommitted);
        t.in(finished.database());
        new WritePlacement(t, finished, committed == null ? List.of() : committed.writes(), idKnown, notes).place();
        return t;
    }

    /**
     * The operations of committed writes: each row's old version, as far as the log gives it, read
     * before it is replaced; where it gives only the key (a DELETE, an UPDATE that kept or changed
     * its key: {@code ServerRendering}), a read of the key columns alone, which says the row was there.
     */
    static List<Op> writes(List<WriteLog.CommittedWrite> writes) {
        List<Op> ops = new ArrayList<>();
        for (WriteLog.CommittedWrite w : writes) {
            if (w.before() != null && !w.before().isEmpty()) {
                ops.add(new Op.Read(w.table(), w.key(), w.before()));
            } else if (w.inserted()) {
                // An INSERT succeeded: no row had its key then, so the row was absent before it.
                ops.add(new Op.Read(w.table(), w.key(), null));
            }
            ops.add(new Op.Write(w.table(), w.key(), w.after()));
        }
        return ops;
    }

    /** The operations so far, for {@link WritePlacement}. */
    List<Op> ops() {
        return ops;
    }

    /** Turns a read into operations, as for a transaction whose writes come from its statements. */
    void addRead(RowsRead read, PrimaryKeyLookup primaryKeys) {
        this.primaryKeys = primaryKeys;
        primaryKeys.keyOf(read.table()).ifPresent(key -> read(read, key));
    }

    /** Notes a table (or every table) left out. */
    void leaveOut(LeftOut what) {
        leftOut.add(what);
    }

    RecordedTransaction(String session, String thread, long start, long end, Outcome outcome,
                        List<Observation> observations, PrimaryKeyLookup primaryKeys) {
        this(session, thread, start, end, true, outcome == Outcome.COMMITTED);
        this.primaryKeys = primaryKeys;
        if (outcome == Outcome.UNKNOWN) {
            // It may have committed or not: its writes are not guessed either way.
            for (Observation o : observations) {
                if (o instanceof RowsWritten w) {
                    leftOut.add(new LeftOut(Optional.of(w.table()), "COMMIT",
                            "the commit's outcome is unknown (the connection failed before it was acknowledged)"));
                }
            }
        }
        for (Observation o : observations) {
            if (o instanceof StatementSent s) {
                ops.add(new Op.Statement(s.statement()));
            } else if (o instanceof RowsRead r) {
                primaryKeys.keyOf(r.table()).ifPresent(key -> read(r, key));
            } else if (o instanceof RowsWritten w && outcome != Outcome.UNKNOWN) {
                written(w, primaryKeys.keyOf(w.table()), primaryKeys);
            } else if (o instanceof Observation.MayHaveWritten m && outcome != Outcome.ABORTED) {
                // Sent as written for another test's log (a transaction recorded in several
                // histories): here, where the writes come from the statements, its rows are unseen.
                leftOut.add(new LeftOut(m.table(), lastStatement(),
                        "sent as written for another test's database log: its rows are not seen in this test's"));
            } else if (o instanceof Observation.ColumnsLeftOut c) {
                // Whatever the outcome: the columns' values are unknown in the committed state if it committed.
                columnsLeftOut.add(c);
            } else if (o instanceof LeftOut l && !(outcome == Outcome.ABORTED && l.undoneByRollback())) {
                // (A failed batch of a transaction that then aborted is skipped: the rows it may
                // have written were rolled back with it, and a table left out is left out of every
                // transaction of the test.)
                leftOut.add(l);
                // A write not seen to a table changes what a write to it changes: its cascades and
                // triggers. DDL (DROP, ALTER) fires no row trigger and cascades no row.
                if (!SqlAnalyzer.isDdl(l.statement())) {
                    l.table().ifPresent(table -> primaryKeys.changedAlongWith(table).forEach((other, why) -> leftOut.add(
                            new LeftOut(other.equals(EVERY_TABLE) ? Optional.empty() : Optional.of(other), l.statement(), why))));
                }
            }
        }
    }

    /** Why a read of a table that may hide rows is checked as the rows returned only. */
    static final String ROW_SECURITY = "checked as the rows returned, not as a predicate or an absence:"
            + " row-level security may hide rows from it (or the table's security was not looked up)";

    /** What was not modelled in this transaction beyond tables left out, for the recording's list. */
    List<NotModelled> notes() {
        return notes;
    }

    private void read(RowsRead read, List<String> keyColumns) {
        Map<String, Map<String, Object>> rows = new LinkedHashMap<>();
        boolean allKeyed = true;
        for (Map<String, Object> row : read.rows()) {
            Optional<String> key = key(read.table(), keyColumns, row).or(() -> key(read.table(), keyColumns, read.fixedByWhere()));
            if (key.isEmpty() || row.isEmpty() || rows.containsKey(key.get())) {
                allKeyed = false;
                continue;
            }
            rows.put(key.get(), row);
        }
        boolean hiding = primaryKeys.hidesRows(read.table());
        boolean namesOneKey = SqlAnalyzer.sameColumns(read.fixedByWhere().keySet(), keyColumns);
        if (read.predicateWhere() != null && allKeyed && !hiding) {
            // A WHERE naming one key says all by the row it found, or by none where no other
            // condition could have hidden the row.
            String absent = read.rows().isEmpty() && read.absentIfEmpty() && namesOneKey
                    ? key(read.table(), keyColumns, read.fixedByWhere()).orElse(null) : null;
            boolean point = namesOneKey && (!read.rows().isEmpty() || absent != null);
            ops.add(new Op.Predicate(read.table(), read.predicateWhere(), rows, point, absent));
            return;
        }
        if (hiding && (read.predicateWhere() != null || read.absentIfEmpty())) {
            notes.add(new NotModelled("the reads of " + read.table(), ROW_SECURITY));
        }
        rows.forEach((key, row) -> ops.add(new Op.Read(read.table(), key, row)));
        if (read.rows().isEmpty() && read.absentIfEmpty() && !hiding && namesOneKey) {
            key(read.table(), keyColumns, read.fixedByWhere()).ifPresent(key -> ops.add(new Op.Read(read.table(), key, null)));
        }
    }

    private void written(RowsWritten write, Optional<List<String>> keyColumns, PrimaryKeyLookup tables) {
        if (!committed) {
            // Rolled back, with whatever it changed unseen: only the rows it can key are kept, for
            // the aborted reads of others.
            keyColumns.ifPresent(columns -> {
                if (columns.stream().noneMatch(write.assigned()::contains) && !(write.batch() && writesAKeyTwice(write, columns))) {
                    for (Map<String, Object> row : write.rows()) {
                        key(write.table(), columns, row).ifPresent(k -> ops.add(new Op.Write(write.table(), k, write.deleted() ? null : row)));
                    }
                }
            });
            return;
        }
        tables.changedAlongWith(write.table()).forEach((table, why) -> leftOut.add(new LeftOut(
                table.equals(EVERY_TABLE) ? Optional.empty() : Optional.of(table), lastStatement(), why)));
        if (write.oldRows() != null && keyColumns.isPresent()) {
            updatedWithOldRows(write, keyColumns.get());
            return;
        }
        if (keyColumns.isPresent() && keyColumns.get().stream().anyMatch(write.assigned()::contains)) {
            leftOut.add(new LeftOut(Optional.of(write.table()), lastStatement(),
                    "an UPDATE that sets a primary key column moves rows, and the old keys' removal is not seen"));
            return;
        }
        if (keyColumns.isPresent() && !write.assigned().isEmpty() && tables.keyComputed(write.table())) {
            // Its SET names no key column, yet the database recomputes one: the row written may
            // have left another key, which would still look present (and, read as present before
            // the write, this key would look present too early).
            leftOut.add(new LeftOut(Optional.of(write.table()), lastStatement(), KEY_COMPUTED));
            return;
        }
        if (write.batch() && keyColumns.isPresent() && writesAKeyTwice(write, keyColumns.get())) {
            leftOut.add(new LeftOut(Optional.of(write.table()), lastStatement(),
                    "a batch wrote one row twice, and which write came last is not known"));
            return;
        }
        List<Op> writes = new ArrayList<>();
        List<Op> present = new ArrayList<>();
        Map<String, Map<String, Object>> deleted = new LinkedHashMap<>();
        for (Map<String, Object> row : write.rows()) {
            Optional<String> key = keyColumns.flatMap(columns -> key(write.table(), columns, row));
            if (key.isEmpty()) {
                leftOut.add(new LeftOut(Optional.of(write.table()), lastStatement(),
                        keyColumns.isEmpty() ? "the table has no primary key the recorder could find"
                                : "a row written has no value for a primary key column"));
                return;
            }
            if (write.updated()) {
                // An UPDATE whose old rows did not come back (they did above, where the database
                // returns them): of its reads, what is known is that each row it changed was
                // there, under this key, which it sets no column of. Its key columns alone are
                // read so, before the write: any version of the row is such a row, and no absence.
                present.add(new Op.Read(write.table(), key.get(), keyPart(row, keyColumns.get())));
            } else if (write.inserted() && !write.deleted()) {
                // An INSERT that updates nothing wrote this row: no row had its key then.
                present.add(new Op.Read(write.table(), key.get(), null));
            }
            writes.add(new Op.Write(write.table(), key.get(), write.deleted() ? null : row));
            if (write.deleted()) {
                deleted.put(key.get(), row);
            }
        }
        if (write.updated() && write.rows().isEmpty() && write.rangedOver() != null && keyColumns.isPresent()
                && !primaryKeys.hidesRows(write.table())) {
            // An UPDATE that changed nothing read that its WHERE matched nothing.
            ops.add(new Op.Predicate(write.table(), write.rangedOver(), Map.of()));
        }
        if (write.deleted()) {
            // A DELETE read the rows it removed, as they were, and ranged over its WHERE.
            if (write.rangedOver() != null && !primaryKeys.hidesRows(write.table()) && deleted.size() == write.rows().size()
                    && namesOnlyColumnsOf(write.rangedOver(), write.rows())) {
                ops.add(new Op.Predicate(write.table(), write.rangedOver(), deleted));
            } else {
                deleted.forEach((key, row) -> ops.add(new Op.Read(write.table(), key, row)));
            }
        }
        ops.addAll(present);
        ops.addAll(writes);
    }

    /**
     * An UPDATE whose old rows came back: it read each row as it was (the predicate read of its
     * WHERE, when exact), and wrote each new version; a row whose key it changed is removed from
     * its old key, all removals before all writes, so that keys shifted along
     * ({@code SET id = id + 1}) end as the statement left them.
     */
    private void updatedWithOldRows(RowsWritten write, List<String> keyColumns) {
        Map<String, Map<String, Object>> old = new LinkedHashMap<>();
        List<Op> writes = new ArrayList<>();
        Set<String> newKeys = new java.util.HashSet<>();
        for (int i = 0; i < write.rows().size(); i++) {
            Optional<String> oldKey = key(write.table(), keyColumns, write.oldRows().get(i));
            Optional<String> newKey = key(write.table(), keyColumns, write.rows().get(i));
            if (newKey.isEmpty() && oldKey.isEmpty()) {
                leftOut.add(new LeftOut(Optional.of(write.table()), lastStatement(), "a row written has no value for a primary key column"));
                return;
            }
            // No old key: the row was inserted (ON CONFLICT or MERGE found none); no new key: MERGE deleted it.
            if (oldKey.isPresent()) {
                old.put(oldKey.get(), write.oldRows().get(i));
            }
            if (newKey.isPresent()) {
                newKeys.add(newKey.get());
                writes.add(new Op.Write(write.table(), newKey.get(), write.rows().get(i)));
            }
        }
        if (write.rangedOver() != null && !primaryKeys.hidesRows(write.table()) && old.size() == write.oldRows().size()
                && namesOnlyColumnsOf(write.rangedOver(), write.oldRows())) {
            // An UPDATE: every row it changed had a key before.
            ops.add(new Op.Predicate(write.table(), write.rangedOver(), old));
        } else {
            old.forEach((key, row) -> ops.add(new Op.Read(write.table(), key, row)));
        }
        for (String key : old.keySet()) {
            if (!newKeys.contains(key)) {
                ops.add(new Op.Write(write.table(), key, null));
            }
        }
        ops.addAll(writes);
    }

    /** Whether every row a DELETE returned has every column its WHERE mentions (a LOB may be left out of a row). */
    private static boolean namesOnlyColumnsOf(String rangedOver, List<Map<String, Object>> rows) {
        if (!(dev.isocheck.internal.predicate.WherePredicate.parse(rangedOver)
                instanceof dev.isocheck.internal.predicate.WherePredicate where)) {
            return false;
        }
        for (Map<String, Object> row : rows) {
            for (String column : where.columns()) {
                if (!row.containsKey(column.toLowerCase(java.util.Locale.ROOT))) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The key columns of {@code row}, which has a value for each. */
    private static Map<String, Object> keyPart(Map<String, Object> row, List<String> keyColumns) {
        Map<String, Object> part = new LinkedHashMap<>();
        for (String column : keyColumns) {
            part.put(column, row.get(column));
        }
        return part;
    }

    private static boolean writesAKeyTwice(RowsWritten write, List<String> keyColumns) {
        Set<String> seen = new java.util.HashSet<>();
        for (Map<String, Object> row : write.rows()) {
            Optional<String> key = key(write.table(), keyColumns, row);
            if (key.isPresent() && !seen.add(key.get())) {
                return true;
            }
        }
        return false;
    }

    private String lastStatement() {
        for (int i = ops.size() - 1; i >= 0; i--) {
            if (ops.get(i) instanceof Op.Statement s) {
                return s.statement().sql();
            }
        }
        return "?";
    }

    /**
     * The primary key columns of {@code row}, a row with a value for each, in key order: what a
     * log's old row says of a row it changed when read as its key alone.
     */
    public static Map<String, Object> keyColumns(List<String> keyColumns, Map<String, Object> row) {
        Map<String, Object> key = new java.util.LinkedHashMap<>();
        for (String column : keyColumns) {
            key.put(column, row.get(column));
        }
        return key;
    }

    /**
     * The key of a row, {@code table/value} for a one-column key and {@code table/[v1,v2]} (JSON)
     * for a composite one; empty when a key column is missing or NULL.
     */
    public static Optional<String> key(String table, List<String> keyColumns, Map<String, Object> row) {
        List<Object> parts = new ArrayList<>(keyColumns.size());
        for (String column : keyColumns) {
            Object part = row.get(column);
            if (part == null) {
                return Optional.empty();
            }
            parts.add(Value.of(part).toJava());
        }
        if (parts.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(table + "/" + (parts.size() == 1 ? String.valueOf(parts.get(0)) : Value.of(parts).toString()));
    }

    List<LeftOut> leftOut() {
        return leftOut;
    }

    /** The columns this transaction's writes set unseen ({@link Observation.ColumnsLeftOut}). */
    List<Observation.ColumnsLeftOut> columnsLeftOut() {
        return columnsLeftOut;
    }

    /** Adds this transaction to {@code builder}, without the operations on the tables in {@code leftOutTables}. */
    /**
     * Adds this transaction to {@code builder} as {@code id}, without the operations on
     * {@code leftOutTables}, and without its reads unless {@code readsKept}: a transaction before a
     * slice of the test still wrote what the slice's reads may see.
     */
    void addTo(HistoryBuilder builder, String id, Set<String> leftOutTables, Map<String, Set<String>> leftOutColumns,
               long origin, boolean readsKept, String prefix) {
        addTo(builder, id, leftOutTables, leftOutColumns, origin, readsKept, true, prefix);
    }

    /**
     * As {@link #addTo(HistoryBuilder, String, Set, Map, long, boolean)}; {@code predicates}: whether
     * a predicate read is added as one, else as reads of the rows it returned (weaker: a row it
     * did not return is not checked), for a check that takes no predicate reads.
     *
     * {@code prefix} goes before every key and predicate's table: its database's
     * ({@link DatabaseNamespaces}).
     *
     * @return whether a predicate read was added as reads of its rows
     */
    boolean addTo(HistoryBuilder builder, String id, Set<String> leftOutTables, Map<String, Set<String>> leftOutColumns,
               long origin, boolean readsKept, boolean predicates, String prefix) {
        boolean asRows = false;
        TransactionBuilder t = builder.transaction(id);
        if (session != null) {
            t.session(session);
        }
        if (thread != null) {
            t.thread(thread);
        }
        if (timed) {
            t.times(start - origin, end - origin);
        }
        if (!committed) {
            t.aborted();
        }
        boolean everything = leftOutTables.contains(EVERY_TABLE);
        for (Op op : ops) {
            if (op instanceof Op.Statement s) {
                t.statement(s.statement());
            } else if (everything || leftOutTables.contains(op.table())) {
                continue;
            } else if (op instanceof Op.Read r) {
                if (readsKept) {
                    t.read(prefix + r.key(), without(leftOutColumns.get(r.table()), r.value()));
                }
            } else if (op instanceof Op.Write w) {
                t.write(prefix + w.key(), without(leftOutColumns.get(w.table()), w.value()));
            } else if (op instanceof Op.Predicate p && readsKept) {
                Set<String> columns = leftOutColumns.get(p.table());
                if (!predicates) {
                    // A point read loses nothing so: the one row it names, or that there was none.
                    asRows |= !p.point();
                    p.rows().forEach((key, row) -> t.read(prefix + key, without(columns, row)));
                    if (p.absent() != null) {
                        t.read(prefix + p.absent(), null);
                    }
                } else if (columns == null || columns.stream().noneMatch(c -> mentions(p.where(), c))) {
                    Map<String, Map<String, Object>> rows = new java.util.LinkedHashMap<>();
                    p.rows().forEach((key, row) -> rows.put(prefix + key, without(columns, row)));
                    t.predicate(prefix + p.table(), p.where(), rows);
                } else {
                    // A predicate over a column left out cannot be evaluated without it: only the
                    // rows it returned are kept, as reads of them (weaker).
                    p.rows().forEach((key, row) -> t.read(prefix + key, without(columns, row)));
                }
            }
        }
        return asRows;
    }

    /** {@code row} without {@code columns} (none when {@code null}); {@code null} (an absent row) stays {@code null}. */
    private static Map<String, Object> without(Set<String> columns, Map<String, Object> row) {
        if (columns == null || row == null || columns.stream().noneMatch(row::containsKey)) {
            return row;
        }
        Map<String, Object> kept = new java.util.LinkedHashMap<>(row);
        kept.keySet().removeAll(columns);
        return kept;
    }

    /** Whether {@code where} (the history's predicate text: plain lower-case names) may mention {@code column}. */
    private static boolean mentions(String where, String column) {
        return where != null && java.util.regex.Pattern.compile("(?<![a-z0-9_])" + java.util.regex.Pattern.quote(column)
                + "(?![a-z0-9_])", java.util.regex.Pattern.CASE_INSENSITIVE).matcher(where).find();
    }

    /** The tables whose rows its operations read or wrote. */
    Set<String> tables() {
        Set<String> tables = new java.util.HashSet<>();
        for (Op op : ops) {
            if (!(op instanceof Op.Statement)) {
                tables.add(op.table());
            }
        }
        return tables;
    }

    /** When the transaction started ({@link System#nanoTime}). */
    long start() {
        return start;
    }

    /** An operation with its table. */
    sealed interface Op {

        default String table() {
            return "";
        }

        record Statement(SqlStatement statement) implements Op {
        }

        record Read(String table, String key, Map<String, Object> value) implements Op {
        }

        record Write(String table, String key, Map<String, Object> value) implements Op {
        }

        /**
         * A predicate read: the rows its WHERE matched, by key.
         *
         * @param point  whether the rows say all it read: its WHERE names one key (every key column
         *               equal to a value), and it found that row, or found none and nothing but the
         *               key could have hidden it
         * @param absent the key it names, where it found no row and nothing else could have hidden it;
         *               {@code null} otherwise
         */
        record Predicate(String table, String where, Map<String, Map<String, Object>> rows, boolean point, String absent)
                implements Op {

            /** One whose WHERE is not known to name one key. */
            Predicate(String table, String where, Map<String, Map<String, Object>> rows) {
                this(table, where, rows, false, null);
            }
        }
    }
}
