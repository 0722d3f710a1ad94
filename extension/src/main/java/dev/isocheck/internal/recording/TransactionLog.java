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

    /** A transaction that started at {@code start} ({@link System#nanoTime}) on {@code thread}. */
    /** The session (connection) it runs on, for messages. */
    public String session() {
        return session;
    }

    public TransactionLog(Recording recording, String session, String thread, long start) {
        this.recording = Objects.requireNonNull(recording, "recording is null");
        this.session = session;
        this.thread = thread;
        this.start = start;
    }

    /** The recording the transaction goes to: the one current when it started. */
    public Recording recording() {
        return recording;
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
        List<Observation> kept = undone.stream().filter(LeftOut.class::isInstance).toList();
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
            }
        }
        return tables;
    }

    /** Whether every table whose rows this transaction read or wrote is {@code known}: {@link #tables()} without building it. */
    public boolean tablesAll(java.util.function.Predicate<String> known) {
        for (Observation o : observations) {
            if (o instanceof RowsRead r && !known.test(r.table()) || o instanceof RowsWritten w && !known.test(w.table())) {
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
        recording.add(() -> new RecordedTransaction(session, thread, start, ended, outcome, seen, primaryKeys));
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
