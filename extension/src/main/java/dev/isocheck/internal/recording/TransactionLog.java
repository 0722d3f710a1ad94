package dev.isocheck.internal.recording;

import dev.isocheck.internal.recording.Observation.LeftOut;
import dev.isocheck.internal.recording.Observation.RowsRead;
import dev.isocheck.internal.recording.Observation.RowsWritten;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A transaction in progress on one connection: what it was seen doing so far, in order. Not
 * thread-safe; its connection serialises access.
 */
public final class TransactionLog {

    private final Recording recording;
    private final String session;
    private final String thread;
    private final long start;
    private final List<Observation> observations = new ArrayList<>();
    /** Where this transaction's writes are recorded; {@code null} when from its statements. */
    private WriteLog writeLog;
    /**
     * The other recordings the transaction goes to (a thread several tests in progress may have
     * run it for), each with its session name and write log.
     */
    private final List<Also> also = new ArrayList<>();

    /** Another recording a transaction goes to, its session there, and where its writes are recorded there. */
    public record Also(Recording recording, String session, WriteLog writeLog) {
    }
    private boolean autoCommit;
    /** The server's id of the transaction, when known; -1 otherwise. */
    private long xid = -1;
    /** For an auto-commit statement: ids the server had not assigned before it, and had after it; -1 when not known. */
    private long idsFrom = -1;
    private long idsUntil = -1;
    /** When its commit was sent ({@link System#nanoTime}); -1 when it was not. */
    private long commitSent = -1;

    /** The database its connection reached. */
    private DatabaseIdentity database = DatabaseIdentity.UNNAMED;

    /** Has the transaction be one of {@code database}'s. */
    public void database(DatabaseIdentity database) {
        this.database = java.util.Objects.requireNonNull(database, "database is null");
    }

    /** The session (connection) it runs on, for messages. */
    public String session() {
        return session;
    }

    /** A transaction that started at {@code start} ({@link System#nanoTime}) on {@code thread}. */
    public TransactionLog(Recording recording, String session, String thread, long start) {
        this.recording = Objects.requireNonNull(recording, "recording is null");
        this.session = session;
        this.thread = thread;
        this.start = start;
    }

    /**
     * Has the transaction's writes come from {@code log}, the database's account, rather than
     * from its statements; {@code autoCommit}: whether it is one auto-commit statement.
     */
    public void writesFrom(WriteLog log, boolean autoCommit) {
        this.writeLog = log;
        this.autoCommit = autoCommit;
        if (log != null) {
            recording.databaseOf(log, database);
        }
    }

    /** Where this transaction's writes are recorded; {@code null} when from its statements. */
    public WriteLog writeLog() {
        return writeLog;
    }

    /** Records the transaction into {@code other} too. */
    public void alsoFor(Also other) {
        also.add(other);
        if (other.writeLog() != null) {
            other.recording().databaseOf(other.writeLog(), database);
        }
    }

    /** Whether a statement that may have written was sent. */
    public boolean mayHaveWritten() {
        return mayHaveWritten(observations);
    }

    /** Whether {@code observations} hold a statement that may have written. */
    static boolean mayHaveWritten(List<Observation> observations) {
        for (Observation o : observations) {
            if (o instanceof Observation.MayHaveWritten || o instanceof RowsWritten || o instanceof LeftOut) {
                return true;
            }
        }
        return false;
    }

    /**
     * The keys of every row this transaction changed, when each statement that may have written
     * said exactly which ({@link Observation.MayHaveWritten#keys()}) and at least one row was
     * changed; empty otherwise. Such a transaction can be found in the log by those rows.
     */
    public Optional<Set<String>> keysWritten() {
        return keysWritten(observations);
    }

    /** {@link #keysWritten()} of {@code observations}. */
    static Optional<Set<String>> keysWritten(List<Observation> observations) {
        Set<String> keys = new java.util.HashSet<>();
        for (Observation o : observations) {
            if (o instanceof Observation.MayHaveWritten m && m.keys() != null) {
                keys.addAll(m.keys());
            } else if (o instanceof Observation.MayHaveWritten || o instanceof RowsWritten || o instanceof LeftOut) {
                return Optional.empty();
            }
        }
        return keys.isEmpty() ? Optional.empty() : Optional.of(keys);
    }

    /**
     * Whether the transaction was ended or begun midway by SQL text the recorder does not follow
     * (COMMIT, BEGIN): the server's transactions are then not this one.
     */
    public boolean controlledBySql() {
        for (Observation o : observations) {
            if (o instanceof LeftOut l && RecordedTransaction.TRANSACTION_CONTROL.equals(l.reason())) {
                return true;
            }
        }
        return false;
    }

    /** Notes that the transaction's commit is about to be sent, now. */
    public void commitSent(long nanoTime) {
        this.commitSent = nanoTime;
    }

    /** Notes the server's id of this transaction (64 bits, as {@code pg_current_xact_id} gives it). */
    public void xid(long xid) {
        this.xid = xid;
    }

    /**
     * Notes, for an auto-commit statement, that the server assigned its transaction an id in
     * {@code [from, until)}: {@code from} was not yet assigned before it was sent, {@code until}
     * not yet after it returned.
     */
    public void idsBetween(long from, long until) {
        this.idsFrom = from;
        this.idsUntil = until;
    }

    /** The recording the transaction goes to: the one current when it started. */
    public Recording recording() {
        return recording;
    }

    /**
     * Notes what of the transaction is not checked in every recording it goes to: each test that
     * gets the transaction checks it as little, and must say so.
     */
    public void notModelled(NotModelled note) {
        recording.notModelled(note);
        for (Also other : also) {
            other.recording().notModelled(note);
        }
    }

    /** Appends an observation. */
    public void add(Observation observation) {
        observations.add(Objects.requireNonNull(observation, "observation is null"));
    }

    /** A mark to {@linkplain #rollbackTo(int) roll back to}: a savepoint. */
    public int mark() {
        return observations.size();
    }

    /**
     * Forgets what was done after {@code mark}, as a rollback to a savepoint undoes it, except
     * the tables left out: a write not seen stays unseen.
     */
    public void rollbackTo(int mark) {
        if (mark > observations.size()) {
            return;
        }
        List<Observation> undone = observations.subList(mark, observations.size());
        List<Observation> kept = undone.stream().filter(o -> o instanceof LeftOut || o instanceof Observation.ColumnsLeftOut).toList();
        undone.clear();
        observations.addAll(kept);
    }

    /** The tables whose rows this transaction read or wrote, for primary key look-ups. */
    public Set<String> tables() {
        Set<String> tables = new LinkedHashSet<>();
        for (Observation o : observations) {
            if (o instanceof RowsRead r) {
                tables.add(r.table());
            } else if (o instanceof RowsWritten w) {
                tables.add(w.table());
            } else if (o instanceof Observation.MayHaveWritten m && m.table().isPresent()) {
                // Its key tells which rows a later write of it changes (WrittenKeys).
                tables.add(m.table().get());
            } else if (o instanceof LeftOut l && l.table().isPresent()) {
                // What else a write to it changes is looked up too.
                tables.add(l.table().get());
            }
        }
        return tables;
    }

    /** Whether every table whose rows this transaction read or wrote is {@code known}: {@link #tables()} without building it. */
    public boolean tablesAll(java.util.function.Predicate<String> known) {
        for (Observation o : observations) {
            if (o instanceof RowsRead r && !known.test(r.table()) || o instanceof RowsWritten w && !known.test(w.table())
                    || o instanceof LeftOut l && l.table().isPresent() && !known.test(l.table().get())
                    || o instanceof Observation.MayHaveWritten m && m.table().isPresent() && !known.test(m.table().get())) {
                return false;
            }
        }
        return true;
    }

    /** The tables this transaction wrote, or may have written; empty in the list means every table. */
    public List<Optional<String>> tablesWritten() {
        List<Optional<String>> tables = new ArrayList<>();
        for (Observation o : observations) {
            if (o instanceof RowsWritten w) {
                tables.add(Optional.of(w.table()));
            } else if (o instanceof LeftOut l) {
                tables.add(l.table());
            }
        }
        return tables;
    }

    /**
     * Ends the transaction and hands it to its recording.
     *
     * @param end         when its end was acknowledged ({@link System#nanoTime})
     * @param outcome     how it ended
     * @param primaryKeys the primary key columns of each table, empty when unknown
     */
    public void finish(long end, Outcome outcome, PrimaryKeyLookup primaryKeys) {
        List<Observation> seen = new ArrayList<>(observations.size());
        for (Observation o : observations) {
            seen.add(o instanceof Observation.RowsRead read ? read.frozen() : o);
        }
        long ended = Math.max(end, start);
        // Turned into operations when the recording finishes, not here on the application's thread:
        // the observations are frozen as they are now and the primary keys a cache that only grows, so the
        // result is the same, and the application's transaction does not pay for it.
        recording.add(new Finished(session, thread, start, ended, outcome, seen, primaryKeys, writeLog, autoCommit, xid,
                idsFrom, idsUntil, commitSent, database));
        for (Also other : also) {
            other.recording().add(new Finished(other.session(), thread, start, ended, outcome, seen, primaryKeys,
                    other.writeLog(), autoCommit, xid, idsFrom, idsUntil, commitSent, database));
        }
    }

    /**
     * Takes the transaction off those in progress of its recordings without adding it: it failed
     * to finish before it was added (the recording is then failed).
     */
    public void abandon() {
        recording.forget(start, thread);
        for (Also other : also) {
            other.recording().forget(start, thread);
        }
    }

    /**
     * A transaction as it ended, turned into operations when the recording finishes.
     *
     * @param writeLog   where its writes are recorded, {@code null} when from its statements
     * @param autoCommit whether it was one auto-commit statement
     * @param xid        the server's id of it (64 bits), -1 when not known
     * @param idsFrom    for an auto-commit statement, the first id it may have had; -1 when not known
     * @param idsUntil   for an auto-commit statement, the first id it cannot have had; -1 when not known
     * @param commitSent when its commit was sent ({@link System#nanoTime}); -1 when it was not
     */
    public record Finished(String session, String thread, long start, long end, Outcome outcome,
                           List<Observation> observations, PrimaryKeyLookup primaryKeys, WriteLog writeLog,
                           boolean autoCommit, long xid, long idsFrom, long idsUntil, long commitSent,
                           DatabaseIdentity database) {

        /** A transaction of the one database of its recording. */
        public Finished(String session, String thread, long start, long end, Outcome outcome,
                        List<Observation> observations, PrimaryKeyLookup primaryKeys, WriteLog writeLog,
                        boolean autoCommit, long xid, long idsFrom, long idsUntil, long commitSent) {
            this(session, thread, start, end, outcome, observations, primaryKeys, writeLog, autoCommit, xid, idsFrom,
                    idsUntil, commitSent, DatabaseIdentity.UNNAMED);
        }

        /** Its operations, its writes as its statements showed them. */
        RecordedTransaction fromStatements() {
            return new RecordedTransaction(session, thread, start, end, outcome, observations, primaryKeys).in(database);
        }
    }

    /** How a transaction ended. */
    public enum Outcome {
        /** Committed: the database acknowledged the commit. */
        COMMITTED,
        /** Rolled back, failed, or closed with work pending. */
        ABORTED,
        /** The commit was sent and no answer came back: it may or may not have committed. */
        UNKNOWN
    }
}
