package dev.isocheck.internal.recording;

import dev.isocheck.internal.recording.TransactionLog.Finished;
import dev.isocheck.internal.recording.WriteLog.CommittedTransaction;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Matches the transactions a database's log says were committed to the transactions the test's
 * connections ran, and builds every transaction of the history. Input: the finished transactions
 * and the recording's write logs; output: the transactions, the recorded ones in the order they
 * finished, then those no recorded connection ran, in commit order.
 *
 * <p>A transaction run with auto-commit off is matched by the id the server gave it (asked just
 * before its commit). An auto-commit statement cannot be asked: it is matched when exactly one
 * transaction of the log has an id in the range the server was assigning while it ran and wrote
 * the table it names, and no other such statement could claim that one. What is not matched stays
 * apart, never guessed: its writes are a transaction of no session.
 */
final class WriteAttribution {

    private final List<Finished> finished;
    private final Collection<Object> logs;
    private final Map<String, NotModelled> leftOut;
    private final Consumer<NotModelled> notes;
    private final List<String> writesFrom;

    WriteAttribution(List<Finished> finished, Collection<Object> logs, Map<String, NotModelled> leftOut,
                     Consumer<NotModelled> notes, List<String> writesFrom) {
        this.finished = finished;
        this.logs = logs;
        this.leftOut = leftOut;
        this.notes = notes;
        this.writesFrom = writesFrom;
    }

    List<RecordedTransaction> transactions() {
        Map<WriteLog, List<CommittedTransaction>> accounts = new IdentityHashMap<>();
        for (Object log : logs) {
            if (log instanceof WriteLog opened) {
                read(opened).ifPresent(a -> accounts.put(opened, a));
            } else {
                writesFrom.add("writes recorded from the statements: logical decoding is not available (" + log + ")");
            }
        }
        Map<Finished, CommittedTransaction> matched = new IdentityHashMap<>();
        List<CommittedTransaction> unrecorded = new ArrayList<>();
        accounts.forEach((log, committed) -> unrecorded.addAll(match(log, committed, matched)));
        List<RecordedTransaction> built = new ArrayList<>();
        for (Finished f : finished) {
            if (f.writeLog() == null) {
                built.add(f.fromStatements());
            } else if (!accounts.containsKey(f.writeLog())) {
                // The log could not be read: every table is left out already; the reads are kept for the record.
                built.add(RecordedTransaction.decoded(f, null, true, notes));
            } else {
                CommittedTransaction c = matched.get(f);
                boolean idKnown = c != null || f.xid() >= 0 || !TransactionLog.mayHaveWritten(f.observations());
                built.add(RecordedTransaction.decoded(f, c, idKnown, notes));
            }
        }
        for (CommittedTransaction c : unrecorded) {
            built.add(RecordedTransaction.unrecorded(c));
        }
        return built;
    }

    private Optional<List<CommittedTransaction>> read(WriteLog log) {
        try {
            WriteLog.Account account = log.read();
            writesFrom.add("writes recorded " + log.describe());
            account.leftOut().forEach((table, why) -> leftOut.putIfAbsent(table,
                    new NotModelled("table " + table + " (the database's log of the writes)", why)));
            return Optional.of(account.transactions());
        } catch (Exception e) {
            writesFrom.add("writes recorded " + log.describe() + ", which could not be read");
            leftOut.putIfAbsent(RecordedTransaction.EVERY_TABLE, new NotModelled("every table",
                    "the database's log of the test's writes could not be read: " + e.getMessage()));
            return Optional.empty();
        }
    }

    /** Matches {@code committed} to the log's transactions in {@code matched}; returns those left unmatched, in order. */
    private List<CommittedTransaction> match(WriteLog log, List<CommittedTransaction> committed, Map<Finished, CommittedTransaction> matched) {
        Map<Long, CommittedTransaction> byXid = new LinkedHashMap<>();
        for (CommittedTransaction c : committed) {
            byXid.put(c.xid(), c);
        }
        List<Finished> autoCommitted = new ArrayList<>();
        for (Finished f : finished) {
            if (f.writeLog() != log) {
                continue;
            }
            if (f.xid() >= 0) {
                CommittedTransaction c = byXid.remove(f.xid() & 0xFFFF_FFFFL);
                if (c != null) {
                    matched.put(f, c);
                }
            } else if (f.autoCommit() && f.idsFrom() >= 0 && f.idsUntil() >= 0 && target(f).isPresent()) {
                autoCommitted.add(f);
            }
        }
        Map<Finished, List<CommittedTransaction>> candidates = new HashMap<>();
        for (Finished f : autoCommitted) {
            List<CommittedTransaction> in = new ArrayList<>();
            for (CommittedTransaction c : byXid.values()) {
                long id = widen(c.xid(), f.idsFrom());
                if (id >= f.idsFrom() && id < f.idsUntil()
                        && c.writes().stream().anyMatch(w -> w.table().equals(target(f).get()))) {
                    in.add(c);
                }
            }
            candidates.put(f, in);
        }
        boolean progress = true;
        while (progress) {
            progress = false;
            for (Finished f : autoCommitted) {
                if (matched.containsKey(f)) {
                    continue;
                }
                List<CommittedTransaction> open = candidates.get(f).stream().filter(byXid::containsValue).toList();
                if (open.size() != 1) {
                    continue;
                }
                CommittedTransaction c = open.get(0);
                boolean claimedElsewhere = autoCommitted.stream().anyMatch(other -> other != f && !matched.containsKey(other)
                        && candidates.get(other).contains(c));
                if (!claimedElsewhere) {
                    matched.put(f, c);
                    byXid.remove(c.xid());
                    progress = true;
                }
            }
        }
        return new ArrayList<>(byXid.values());
    }

    /** The one table an auto-commit statement says it wrote rows of, when it says so. */
    private static Optional<String> target(Finished f) {
        Optional<String> table = Optional.empty();
        for (Observation o : f.observations()) {
            if (o instanceof Observation.MayHaveWritten m) {
                if (table.isPresent() || m.table().isEmpty() || m.count() == 0) {
                    return Optional.empty();
                }
                table = m.table();
            } else if (o instanceof Observation.RowsWritten || o instanceof Observation.LeftOut) {
                return Optional.empty();
            }
        }
        return table;
    }

    /** A 32-bit id as the 64-bit one it is, given a 64-bit id assigned shortly before it. */
    private static long widen(long xid, long near) {
        long id = (near & 0xFFFF_FFFF_0000_0000L) | (xid & 0xFFFF_FFFFL);
        return id < near ? id + (1L << 32) : id;
    }
}
