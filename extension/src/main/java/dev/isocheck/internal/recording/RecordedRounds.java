package dev.isocheck.internal.recording;

import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.UnknownInitialValues;
import dev.isocheck.internal.recording.WriteLog.CommittedTransaction;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A recording checked in rounds, as batches: each {@link #next()} takes what finished since the
 * last ({@link Recording#take()}), drains each database's write log, attributes the writes as a
 * whole recording does, and builds the batch with its watermark, the input of
 * {@code dev.isocheck.internal.rounds.RoundChecker}. What it keeps between batches is bounded: the
 * tables left out so far and the log's transactions no finished one claimed yet.
 *
 * <p>A transaction of the log that no recorded one claims may belong to one still in progress; it
 * waits until every transaction in progress when the log gave it has been taken. Then it is one
 * no recorded connection ran (another pool, another test, a job), or one of several recorded
 * auto-commit statements alike that ran at once and cannot be told apart; either way rounds
 * cannot place it in time (its start is not known, and a round's fold needs every later
 * transaction to start after the watermark): the tables it wrote are left out from then on, said
 * so. (A whole check keeps it as a transaction without times.) Where a table is left
 * out only from some round on, the rounds before checked it with every transaction that could
 * have written what their reads saw; the caller drops a violation found there on a table left out
 * later, since the value read may have come from the write no recorded connection made.
 */
public final class RecordedRounds {

    /** A batch: the transactions taken, as a history, and the watermark (nanoseconds since the recording began). */
    public record Batch(History history, long watermark) {
    }

    /**
     * A transaction of a log no finished one has claimed yet, when the drain that gave it returned,
     * and a time before which it had not committed (the start of the drain before, which did not
     * give it), both {@link System#nanoTime}.
     */
    private record Unclaimed(CommittedTransaction transaction, long drained, long notBefore) {
    }

    private final Recording recording;
    private final LeftOutTables leftOut = new LeftOutTables();
    private final Map<WriteLog, List<Unclaimed>> unclaimed = new IdentityHashMap<>();
    private final Map<WriteLog, String> unreadable = new IdentityHashMap<>();
    /** When each log's last drain started ({@link System#nanoTime}): what it did not give committed after. */
    private final Map<WriteLog, Long> lastDrain = new IdentityHashMap<>();
    /** How many columns of each table were left out by the batches so far. */
    private final Map<String, Integer> columnsLeftOut = new java.util.HashMap<>();
    private final Set<NotModelled> notes = new LinkedHashSet<>();
    /** Every table a transaction touched so far: to tell a key's table where a name holds a {@code /}. */
    private final Set<String> tables = new java.util.HashSet<>();
    private final long origin;
    private long ids;
    private int batches;
    private int byKeysTried;
    private int byKeysMatched;
    private int byKeysFoundOtherwise;
    private boolean predicatesAsRows;
    private long unclaimedReleased;
    private long claimed;

    /**
     * Runs {@code hook} in each {@link #next()} between the read of the logs before the take and
     * the take: for tests, to commit in the window where a log transaction is given after the
     * take though it committed before.
     */
    public void beforeTake(Runnable hook) {
        this.beforeTake = Objects.requireNonNull(hook, "hook is null");
    }

    private Runnable beforeTake = () -> { };

    /** The batches of {@code recording}, which is from now on checked in rounds. */
    public RecordedRounds(Recording recording) {
        this.recording = Objects.requireNonNull(recording, "recording is null");
        recording.checkInRounds();
        this.origin = recording.began();
    }

    /**
     * The next batch: what finished since the last, with every write the logs gave attributed.
     * Once the recording has stopped, what is left, with a watermark of {@link Long#MAX_VALUE}:
     * the last batch.
     */
    public Batch next() {
        // Read just before the take too: what the read after it gives then committed after this
        // one began, a moment before the watermark, and holds back little (see drainNow).
        drainNow();
        beforeTake.run();
        Recording.Taken taken = recording.take();
        boolean last = taken.watermark() == Long.MAX_VALUE;
        List<TransactionLog.Finished> finished = taken.finished();
        // Drained after the take: every transaction taken had committed before, so its writes
        // are in what the log gives now.
        Map<WriteLog, List<CommittedTransaction>> accounts = new IdentityHashMap<>();
        drainNow();
        unclaimed.forEach((log, left) -> accounts.put(log, left.stream().map(Unclaimed::transaction).toList()));
        List<String> ignored = new ArrayList<>();
        WriteAttribution attribution = new WriteAttribution(finished, List.of(), leftOut, notes::add, ignored, false);
        WriteAttribution.Attributed attributed = attribution.attribute(accounts);
        byKeysTried += attribution.byKeysTried();
        byKeysMatched += attribution.byKeysMatched();
        byKeysFoundOtherwise += attribution.byKeysFoundOtherwise();
        long watermark = last ? Long.MAX_VALUE : taken.watermark();
        release(attributed.unmatched(), watermark);
        // A read that ended after a transaction still unclaimed may have committed may have seen
        // its writes, which no batch holds yet: such reads wait for a later round.
        for (List<Unclaimed> left : unclaimed.values()) {
            for (Unclaimed u : left) {
                watermark = Math.min(watermark, u.notBefore());
            }
        }
        for (RecordedTransaction t : attributed.transactions()) {
            t.notes().forEach(notes::add);
            leftOut.from(t);
            recording.namespaces().touched(t.database(), t.tables(), leftOut);
        }
        columnsLeftOutMidway();
        recording.failure().ifPresent(f -> leftOut.leaveOut(RecordedTransaction.EVERY_TABLE, f));
        HistoryBuilder builder = History.builder().unknownInitialValues(UnknownInitialValues.ANY);
        for (RecordedTransaction t : attributed.transactions()) {
            t.tables().forEach(tables::add);
            if (t.addTo(builder, "T" + (++ids), leftOut.tables(), leftOut.columns(), origin, true, false,
                    recording.namespaces().prefix(t.database()))) {
                predicatesAsRows = true;
            }
        }
        batches++;
        return new Batch(builder.build(), watermark == Long.MAX_VALUE ? Long.MAX_VALUE : watermark - origin);
    }

    /**
     * Leaves out whole a table some of whose columns were left out from this batch on, after earlier
     * batches had them: the values kept from those rounds carry the columns, the new ones do not,
     * and the two would not compare.
     */
    private void columnsLeftOutMidway() {
        leftOut.columns().forEach((table, columns) -> {
            Integer before = columnsLeftOut.put(table, columns.size());
            if (batches > 0 && columns.size() != (before == null ? 0 : before) && tables.contains(table)) {
                leftOut.leaveOut(table, new NotModelled("table " + table, "columns " + String.join(", ", columns)
                        + " could not be read from round " + (batches + 1) + " on, after earlier rounds checked them:"
                        + " checking in rounds leaves the table out"));
            }
        });
    }

    /** Whether the operations on {@code key} ({@code table/pk}) are left out of the check by now. */
    public boolean leavesOutKey(String key) {
        return leftOut.leavesOut(tableOf(recording.namespaces().unprefixed(key)));
    }

    /**
     * Reads what each write log holds since its last drain, between rounds: a log transaction no
     * finished one claims yet holds back the reads that ended after the drain before the one that
     * gave it, so the more often the logs are read, the less a round holds back. Call it from the
     * thread that calls {@link #next()}.
     */
    public void drainNow() {
        for (Object log : recording.writeLogs()) {
            if (log instanceof WriteLog opened && !unreadable.containsKey(opened)) {
                drain(opened);
            }
        }
    }

    /** Reads what {@code log} holds since its last drain into the unclaimed; a log that fails is read no more. */
    private void drain(WriteLog log) {
        long started = System.nanoTime();
        long notBefore = lastDrain.getOrDefault(log, origin);
        try {
            WriteLog.Account account = log.drain();
            long drained = System.nanoTime();
            lastDrain.put(log, started);
            account.leftOut().forEach((table, why) -> leftOut.leaveOut(table,
                    new NotModelled("table " + table + " (the database's log of the writes)", why)));
            List<Unclaimed> left = unclaimed.computeIfAbsent(log, l -> new ArrayList<>());
            account.transactions().forEach(c -> left.add(new Unclaimed(c, drained, notBefore)));
        } catch (Exception e) {
            unreadable.put(log, String.valueOf(e.getMessage()));
            unclaimed.remove(log);
            leftOut.leaveOut(RecordedTransaction.EVERY_TABLE, new NotModelled("every table",
                    "the database's log of the test's writes could not be read: " + e.getMessage()));
        }
    }

    /**
     * Keeps what no finished transaction claimed; those the log gave before {@code watermark} (no
     * transaction still to come had started then) belong to none recorded: their tables are left out.
     */
    private void release(Map<WriteLog, List<CommittedTransaction>> unmatched, long watermark) {
        for (Map.Entry<WriteLog, List<Unclaimed>> e : unclaimed.entrySet()) {
            Set<CommittedTransaction> still = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
            still.addAll(unmatched.getOrDefault(e.getKey(), List.of()));
            for (Iterator<Unclaimed> it = e.getValue().iterator(); it.hasNext(); ) {
                Unclaimed u = it.next();
                if (!still.contains(u.transaction())) {
                    it.remove();
                    claimed++;
                } else if (u.drained() < watermark) {
                    it.remove();
                    unclaimedReleased++;
                    for (WriteLog.CommittedWrite w : u.transaction().writes()) {
                        leftOut.leaveOut(w.table(), new NotModelled("table " + w.table() + " (server transaction "
                                + u.transaction().xid() + ")", "written by a transaction the log could not tie to one recorded"
                                + " transaction (auto-commit statements alike at once, or a connection not recorded: another"
                                + " pool, another test, a job), which checking in rounds cannot place in time (checked whole,"
                                + " without isocheck.rounds, the test keeps it as a transaction without times)"));
                    }
                }
            }
        }
    }

    /** Whether {@code table} is left out of the check, wholly, by now. */
    public boolean leavesOut(String table) {
        return leftOut.leavesOut(table);
    }

    /**
     * The table of {@code key} ({@code table/pk}) as the batches name it; the key itself when no
     * table seen so far names it.
     */
    public String tableOf(String key) {
        for (int slash = key.indexOf('/'); slash >= 0; slash = key.indexOf('/', slash + 1)) {
            String table = key.substring(0, slash);
            if (tables.contains(table)) {
                return table;
            }
        }
        return key;
    }

    /**
     * When the oldest transaction of a log still waiting for its finished one was given
     * ({@link System#nanoTime}); {@link Long#MAX_VALUE} when none waits.
     */
    public long oldestUnclaimed() {
        long oldest = Long.MAX_VALUE;
        for (List<Unclaimed> left : unclaimed.values()) {
            for (Unclaimed u : left) {
                oldest = Math.min(oldest, u.drained());
            }
        }
        return oldest;
    }

    /** What was left out of the check so far, each once: tables and columns, then the recorder's notes. */
    public List<NotModelled> notModelled() {
        List<NotModelled> all = new ArrayList<>(leftOut.notes());
        Set<NotModelled> seen = new java.util.HashSet<>(all);
        for (NotModelled n : notes) {
            if (seen.add(n)) {
                all.add(n);
            }
        }
        for (NotModelled n : recording.notesSoFar()) {
            if (seen.add(n)) {
                all.add(n);
            }
        }
        if (predicatesAsRows) {
            all.add(new NotModelled("the rows a WHERE did not return", "checking in rounds checks the rows a predicate read"
                    + " returned, not that no other row matched it (a phantom is not checked)"));
        }
        return all;
    }

    /** How the writes were recorded, a line per database, for reports. */
    public List<String> writesFrom() {
        List<String> lines = new ArrayList<>();
        for (Object log : recording.writeLogs()) {
            if (log instanceof WriteLog opened) {
                lines.add("writes recorded " + opened.describe() + (unreadable.containsKey(opened)
                        ? ", which could not be read: " + unreadable.get(opened) : ", drained each round"));
            } else {
                lines.add("writes recorded from the statements: the database's log of its writes is not available (" + log + ")");
            }
        }
        if (unclaimedReleased > 0) {
            lines.add(unclaimedReleased + " of " + (claimed + unclaimedReleased) + " transactions of the log tied to no"
                    + " recorded transaction: the tables they wrote were left out from then on");
        }
        WriteAttribution.byKeysLine(byKeysTried, byKeysMatched, byKeysFoundOtherwise).ifPresent(lines::add);
        return lines;
    }

    /** Closes every write log the recording opened (a replication slot is dropped). */
    public void close() {
        for (Object log : recording.writeLogs()) {
            if (log instanceof WriteLog opened) {
                opened.close();
            }
        }
    }
}
