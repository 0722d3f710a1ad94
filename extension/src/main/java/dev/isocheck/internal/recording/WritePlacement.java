package dev.isocheck.internal.recording;

import dev.isocheck.internal.recording.Observation.LeftOut;
import dev.isocheck.internal.recording.Observation.MayHaveWritten;
import dev.isocheck.internal.recording.Observation.RowsRead;
import dev.isocheck.internal.recording.Observation.RowsWritten;
import dev.isocheck.internal.recording.Observation.StatementSent;
import dev.isocheck.internal.recording.RecordedTransaction.Op;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Puts the writes a database's log shows for one transaction among the reads its statements
 * showed ({@link RecordedTransaction#decoded}). Input: the transaction's observations and its
 * committed writes in the order it made them; output: its operations, in order.
 */
final class WritePlacement {

    private final RecordedTransaction into;
    private final TransactionLog.Finished finished;
    private final List<WriteLog.CommittedWrite> writes;
    private final boolean idKnown;
    private final Consumer<NotModelled> notes;

    /** The statement (0 for operations before the first) each operation came from. */
    private final List<Integer> opStatement = new ArrayList<>();
    /** Whether each operation came after its statement's own writes ({@link RowsRead#isAfterItsStatementsWrites}). */
    private final List<Boolean> opAfter = new ArrayList<>();
    /** The UPDATEs on MariaDB that said how many rows they matched, in order. */
    private final List<Observation.MatchedRows> matched = new ArrayList<>();
    /** For each statement that may have written: what it said it did (table, count), in order. */
    private final List<Integer> writers = new ArrayList<>();
    private final List<Optional<String>> writerTables = new ArrayList<>();
    private final List<Long> writerCounts = new ArrayList<>();

    WritePlacement(RecordedTransaction into, TransactionLog.Finished finished, List<WriteLog.CommittedWrite> writes,
                   boolean idKnown, Consumer<NotModelled> notes) {
        this.into = into;
        this.finished = finished;
        this.writes = writes;
        this.idKnown = idKnown;
        this.notes = notes;
    }

    void place() {
        List<Op> reads = readsAndStatements();
        noteUnchangedRows();
        unchangedRowsWritten(reads);
        int statements = opStatement.isEmpty() ? 0 : opStatement.get(opStatement.size() - 1);
        List<Uncertain> unsure = new ArrayList<>();
        List<List<Op>> blocks = exactBlocks(unsure);
        List<Op> out = into.ops();
        if (blocks != null) {
            boolean dropped = false;
            for (int s = 0; s <= statements; s++) {
                for (boolean after : new boolean[] {false, true}) {
                    if (after) {
                        int writer = writers.indexOf(s);
                        if (writer >= 0) {
                            out.addAll(blocks.get(writer));
                        }
                    }
                    for (int i = 0; i < reads.size(); i++) {
                        if (opStatement.get(i) == s && opAfter.get(i) == after) {
                            Op op = reads.get(i);
                            int statement = s;
                            if (unsure.stream().anyMatch(u -> statement >= u.from() && statement <= u.to()
                                    && touches(op, u.keys(), u.tables()))) {
                                dropped = true;
                            } else {
                                out.add(op);
                            }
                        }
                    }
                }
            }
            if (dropped) {
                notes.accept(new NotModelled("some reads of " + finished.session(), "rows a trigger (or a deferred"
                        + " constraint) wrote between two of its statements, or at its commit, were read where it is not"
                        + " known whether they had been written yet: those reads are not checked"));
            }
            return;
        }
        List<Op> writeOps = RecordedTransaction.writes(writes);
        int first = writers.isEmpty() ? 0 : writers.get(0);
        // To the end of the transaction, not the last statement that may have written: a deferred
        // constraint trigger writes at the commit, after every statement.
        int last = statements;
        Set<String> keys = new HashSet<>();
        Set<String> tables = new HashSet<>();
        for (WriteLog.CommittedWrite w : writes) {
            keys.add(w.key());
            tables.add(w.table());
        }
        boolean ownWritesUnknown = !idKnown && !writers.isEmpty() && finished.outcome() != TransactionLog.Outcome.ABORTED;
        boolean dropped = false;
        for (int s = 0; s <= statements; s++) {
            for (boolean after : new boolean[] {false, true}) {
                if (after && s == last) {
                    out.addAll(writeOps);
                }
                for (int i = 0; i < reads.size(); i++) {
                    if (opStatement.get(i) != s || opAfter.get(i) != after) {
                        continue;
                    }
                    Op op = reads.get(i);
                    boolean uncertain = !writeOps.isEmpty() && s >= first && s <= last && touches(op, keys, tables)
                            || ownWritesUnknown && s >= first && !(op instanceof Op.Statement);
                    if (uncertain) {
                        dropped = true;
                    } else {
                        out.add(op);
                    }
                }
            }
        }
        if (dropped) {
            notes.accept(new NotModelled("some reads of " + finished.session(), ownWritesUnknown
                    ? "the transaction may have written, and which of the database's transactions it was is not known:"
                    + " its reads from its first statement that may have written are not checked"
                    : "a statement that may have written did not say which rows it changed: the reads around it of the"
                    + " rows the transaction wrote are not checked"));
        }
    }

    /**
     * Turns the read back of a row an UPDATE matched and left as it was into the write it was:
     * MariaDB logs no row an UPDATE set to the values it had, so a row read back after an UPDATE
     * that the log shows no write of in the whole transaction is one the UPDATE wrote unchanged,
     * as the statements path records it (so a lost update whose two transactions write the same
     * value reads as one). A row the transaction changed elsewhere stays a read.
     */
    private void unchangedRowsWritten(List<Op> reads) {
        if (!idKnown || finished.outcome() == TransactionLog.Outcome.ABORTED) {
            return;
        }
        Set<String> written = new HashSet<>();
        writes.forEach(w -> written.add(w.key()));
        for (int i = 0; i < reads.size(); i++) {
            if (opAfter.get(i) && reads.get(i) instanceof Op.Read r && r.value() != null && !written.contains(r.key())) {
                reads.set(i, new Op.Write(r.table(), r.key(), r.value()));
            }
        }
    }

    /**
     * Notes where the UPDATEs of a table matched more rows than the log shows the transaction
     * changed there, and not every such UPDATE was read back: rows set to the values they had
     * (which MariaDB does not log) were written unseen, and what those UPDATEs read of them is
     * not checked. A write that made no new version leaves no edge out that the rows read give
     * the checker, so the check is weaker for it, never wrong.
     */
    private void noteUnchangedRows() {
        if (matched.isEmpty() || !idKnown || finished.outcome() == TransactionLog.Outcome.ABORTED) {
            return;
        }
        java.util.Map<String, Long> found = new java.util.TreeMap<>();
        java.util.Map<String, Long> listed = new java.util.TreeMap<>();
        java.util.Map<String, String> unread = new java.util.TreeMap<>();
        for (Observation.MatchedRows m : matched) {
            (m.upsert() ? listed : found).merge(m.table(), m.count(), Long::sum);
            if (!m.readBack() && m.count() > 0) {
                unread.putIfAbsent(m.table(), m.statement());
            }
        }
        for (java.util.Map.Entry<String, String> e : unread.entrySet()) {
            String table = e.getKey();
            java.util.Map<Integer, boolean[]> changes = new java.util.HashMap<>();
            for (WriteLog.CommittedWrite w : writes) {
                if (w.table().equals(table)) {
                    boolean[] seen = changes.computeIfAbsent(w.change(), c -> new boolean[2]);
                    seen[0] |= w.before() != null && !w.inserted();
                    seen[1] |= w.after() != null;
                }
            }
            long updates = changes.values().stream().filter(seen -> seen[0] && seen[1]).count();
            if (found.getOrDefault(table, 0L) > updates || listed.getOrDefault(table, 0L) > changes.size()) {
                notes.accept(new NotModelled("rows of table " + table + " a write of " + finished.session()
                        + " matched (statement: " + e.getValue() + ")", "it set them to the values they had, which the"
                        + " binary log does not show: what it read of them is not checked (an UPDATE naming its rows by key"
                        + " in a transaction is read back after it)"));
            }
        }
    }

    /**
     * Rows the log shows the transaction changed in tables none of its statements named (a
     * trigger's, a cascade's, a deferred constraint's), after statement {@code from}'s own rows
     * and before those of statement {@code to} ({@link Integer#MAX_VALUE}: its end): written by
     * either, or by the commit. Reads of them by the statements between are not checked.
     */
    private record Uncertain(int from, int to, Set<String> keys, Set<String> tables) {
    }

    private static boolean touches(Op op, Set<String> keys, Set<String> tables) {
        if (op instanceof Op.Read r) {
            return keys.contains(r.key());
        }
        return op instanceof Op.Predicate p && tables.contains(p.table());
    }

    /**
     * The statements and reads in order, each operation's statement in {@link #opStatement};
     * notes the statements that may have written.
     */
    private List<Op> readsAndStatements() {
        int statement = 0;
        for (Observation o : finished.observations()) {
            if (o instanceof StatementSent s) {
                statement++;
                into.ops().add(new Op.Statement(s.statement()));
            } else if (o instanceof RowsRead r) {
                int before = into.ops().size();
                into.addRead(r, finished.primaryKeys());
                while (opAfter.size() < into.ops().size()) {
                    opAfter.add(opAfter.size() >= before && r.isAfterItsStatementsWrites());
                }
            } else if (o instanceof Observation.MatchedRows m) {
                matched.add(m);
            } else if (o instanceof MayHaveWritten m) {
                wrote(statement, m.table(), m.count());
            } else if (o instanceof RowsWritten w) {
                // Sent rewritten (prepared before the log was opened): the log has its rows.
                wrote(statement, Optional.of(w.table()), w.rows().size());
            } else if (o instanceof LeftOut l) {
                if (RecordedTransaction.TRANSACTION_CONTROL.equals(l.reason())) {
                    into.leaveOut(l);
                }
                wrote(statement, Optional.empty(), -1);
            }
            while (opStatement.size() < into.ops().size()) {
                opStatement.add(statement);
            }
            while (opAfter.size() < into.ops().size()) {
                opAfter.add(false);
            }
        }
        List<Op> ops = new ArrayList<>(into.ops());
        into.ops().clear();
        return ops;
    }

    private void wrote(int statement, Optional<String> table, long count) {
        int at = writers.indexOf(statement);
        if (at < 0) {
            writers.add(statement);
            writerTables.add(table);
            writerCounts.add(count);
        } else {
            // Two accounts of one statement: not one table and one count any more.
            writerTables.set(at, Optional.empty());
            writerCounts.set(at, -1L);
        }
    }

    /**
     * The log's writes split by statement, when the statements account for them exactly: each
     * statement that may have written named its table and count, and the log's changes of those
     * tables are, in order, that many changes of that table per statement. Changes of tables no
     * statement named (a trigger's) go with the statement before them: within a statement's own
     * changes they are its own; after its last one they may be the next statement's, or the
     * commit's, and are noted in {@code uncertain}. {@code null} when the statements do not
     * account for the log's changes so.
     */
    private List<List<Op>> exactBlocks(List<Uncertain> uncertain) {
        List<List<WriteLog.CommittedWrite>> changes = new ArrayList<>();
        int lastChange = -1;
        for (WriteLog.CommittedWrite w : writes) {
            if (w.change() != lastChange) {
                changes.add(new ArrayList<>());
                lastChange = w.change();
            }
            changes.get(changes.size() - 1).add(w);
        }
        if (writers.isEmpty()) {
            return changes.isEmpty() ? List.of() : null;
        }
        Set<String> named = new HashSet<>();
        for (int i = 0; i < writers.size(); i++) {
            if (writerTables.get(i).isEmpty() || writerCounts.get(i) < 0) {
                return null;
            }
            named.add(writerTables.get(i).get());
        }
        List<List<WriteLog.CommittedWrite>> blocks = new ArrayList<>();
        int next = 0;
        for (int i = 0; i < writers.size(); i++) {
            String table = writerTables.get(i).get();
            List<WriteLog.CommittedWrite> block = new ArrayList<>();
            // A statement's own changes, with what its triggers wrote among them (and before
            // them, for the first: nothing else came before it).
            for (long own = 0; own < writerCounts.get(i); next++) {
                if (next >= changes.size()) {
                    return null;
                }
                List<WriteLog.CommittedWrite> change = changes.get(next);
                if (change.stream().allMatch(w -> w.table().equals(table))) {
                    own++;
                } else if (change.stream().anyMatch(w -> named.contains(w.table()))) {
                    return null;
                }
                block.addAll(change);
            }
            blocks.add(block);
            // What comes after, before the next statement's own changes: this statement's, the
            // next one's, or the commit's.
            int after = i + 1;
            while (after < writers.size() && writerCounts.get(after) == 0) {
                after++;
            }
            Set<String> keys = new HashSet<>();
            Set<String> tables = new HashSet<>();
            while (next < changes.size() && changes.get(next).stream().noneMatch(w -> named.contains(w.table()))) {
                for (WriteLog.CommittedWrite w : changes.get(next)) {
                    block.add(w);
                    keys.add(w.key());
                    tables.add(w.table());
                }
                next++;
            }
            if (!keys.isEmpty()) {
                uncertain.add(new Uncertain(writers.get(i), after < writers.size() ? writers.get(after) : Integer.MAX_VALUE,
                        keys, tables));
            }
        }
        if (next != changes.size()) {
            return null;
        }
        List<List<Op>> ops = new ArrayList<>();
        for (List<WriteLog.CommittedWrite> block : blocks) {
            ops.add(RecordedTransaction.writes(block));
        }
        return ops;
    }
}
