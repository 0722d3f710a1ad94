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
import java.util.Set;
import java.util.function.Consumer;

/**
 * Matches the transactions a database's log says were committed to the transactions the test's
 * connections ran, and builds every transaction of the history. Input: the finished transactions
 * and the recording's write logs; output: the transactions, the recorded ones in the order they
 * finished, then those no recorded connection ran, in commit order.
 *
 * <p>A transaction run with auto-commit off is matched by the rows it changed where its statements
 * said exactly which ({@link MatchByKeys}), else by the id the server gave it (asked just before
 * its commit). An auto-commit statement cannot be asked: it is matched when exactly one
 * transaction of the log has an id in the range the server was assigning while it ran and wrote
 * the table it names, and no other such statement could claim that one. What is not matched stays
 * apart, never guessed: its writes are a transaction of no session.
 */
final class WriteAttribution {

    private final List<Finished> finished;
    private final Collection<Object> logs;
    private final LeftOutTables leftOut;
    private final Consumer<NotModelled> notes;
    private final List<String> writesFrom;
    /** Whether the logs are read and left open (a snapshot of the test so far), not read and closed. */
    private final boolean peek;
    /** How many transactions were to be found in the log by the rows they changed, and how many were. */
    private int byKeysTried;
    private int byKeysMatched;
    private int byKeysFoundOtherwise;

    WriteAttribution(List<Finished> finished, Collection<Object> logs, LeftOutTables leftOut,
                     Consumer<NotModelled> notes, List<String> writesFrom, boolean peek) {
        this.finished = finished;
        this.logs = logs;
        this.leftOut = leftOut;
        this.notes = notes;
        this.writesFrom = writesFrom;
        this.peek = peek;
    }

    /** The database of each log, as the connection that opened it reached it; {@code null} where not known. */
    private java.util.function.Function<WriteLog, DatabaseIdentity> databaseOfLog = log -> null;

    /** Has the transactions of a log no recorded one claimed be of the database {@code databaseOfLog} gives. */
    WriteAttribution withDatabases(java.util.function.Function<WriteLog, DatabaseIdentity> databaseOfLog) {
        this.databaseOfLog = java.util.Objects.requireNonNull(databaseOfLog, "databaseOfLog is null");
        return this;
    }

    List<RecordedTransaction> transactions() {
        Map<WriteLog, List<CommittedTransaction>> accounts = new IdentityHashMap<>();
        for (Object log : logs) {
            if (log instanceof WriteLog opened) {
                read(opened).ifPresent(a -> accounts.put(opened, a));
            } else {
                writesFrom.add("writes recorded from the statements: the database's log of its writes is not available (" + log + ")");
            }
        }
        Attributed attributed = attribute(accounts);
        byKeysLine(byKeysTried, byKeysMatched, byKeysFoundOtherwise).ifPresent(writesFrom::add);
        List<RecordedTransaction> built = new ArrayList<>(attributed.transactions());
        // Databases some of whose recorded transactions wrote from their statements (their data
        // source's log could not be opened): one of theirs may be in another data source's log of
        // that database, unclaimed, and added again it would be a write made twice.
        Set<DatabaseIdentity> alsoFromStatements = new java.util.HashSet<>();
        finished.forEach(f -> {
            if (f.writeLog() == null && TransactionLog.mayHaveWritten(f.observations())) {
                alsoFromStatements.add(f.database());
            }
        });
        // A log is one database's: a transaction no recorded one claimed is of that database.
        attributed.unmatched().forEach((log, left) -> {
            DatabaseIdentity database = java.util.Optional.ofNullable(databaseOfLog.apply(log)).orElse(DatabaseIdentity.UNNAMED);
            boolean mayBeRecorded = alsoFromStatements.contains(database) || alsoFromStatements.contains(DatabaseIdentity.UNNAMED)
                    || database.unnamed() && !alsoFromStatements.isEmpty();
            for (WriteLog.CommittedTransaction c : left) {
                if (!mayBeRecorded) {
                    built.add(RecordedTransaction.unrecorded(c).in(database));
                    continue;
                }
                for (WriteLog.CommittedWrite w : c.writes()) {
                    leftOut.leaveOut(w.table(), new NotModelled("table " + w.table() + " (server transaction " + c.xid() + ")",
                            "written by a transaction the log could not tie to a recorded one, while connections to the"
                                    + " same database wrote from their statements (their data source's log could not be"
                                    + " opened): it may be one of theirs, and taken twice it would look like a lost update"));
                }
            }
        });
        return built;
    }

    /**
     * The finished transactions built, and what of each log no finished transaction claimed.
     *
     * @param transactions the finished transactions, in the order given
     * @param unmatched    per log, its transactions no finished one was matched to, in commit order
     */
    record Attributed(List<RecordedTransaction> transactions, Map<WriteLog, List<CommittedTransaction>> unmatched) {
    }

    /**
     * Matches the finished transactions to {@code accounts} (each log's committed transactions
     * read so far, those of logs that could not be read left out) and builds them.
     */
    Attributed attribute(Map<WriteLog, List<CommittedTransaction>> accounts) {
        Map<Finished, CommittedTransaction> matched = new IdentityHashMap<>();
        Map<WriteLog, List<CommittedTransaction>> unmatched = new IdentityHashMap<>();
        accounts.forEach((log, committed) -> unmatched.put(log, match(log, committed, matched)));
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
        return new Attributed(built, unmatched);
    }

    /**
     * The report's line on the transactions to be found in the log by the rows they changed:
     * {@code tried}, {@code matched} so, {@code otherwise} found by their ids instead; none when none was tried.
     */
    static Optional<String> byKeysLine(int tried, int matched, int otherwise) {
        if (tried == 0) {
            return Optional.empty();
        }
        return Optional.of(matched + " of " + tried + " transactions found in the log by the rows they changed"
                + (otherwise > 0 ? ", " + otherwise + " more by their ids" : "")
                + (matched + otherwise < tried ? " (the rest could not be told apart: their reads after their first write"
                + " are not checked)" : ""));
    }

    /** How many of {@link #byKeysTried()} were found by their ids (or id ranges) where their rows could not tell. */
    int byKeysFoundOtherwise() {
        return byKeysFoundOtherwise;
    }

    /** How many transactions were to be found in the log by the rows they changed. */
    int byKeysTried() {
        return byKeysTried;
    }

    /** How many of {@link #byKeysTried()} were. */
    int byKeysMatched() {
        return byKeysMatched;
    }

    private Optional<List<CommittedTransaction>> read(WriteLog log) {
        try {
            WriteLog.Account account = peek ? log.peek() : log.read();
            writesFrom.add("writes recorded " + log.describe());
            account.leftOut().forEach((table, why) -> leftOut.leaveOut(table,
                    new NotModelled("table " + table + " (the database's log of the writes)", why)));
            return Optional.of(account.transactions());
        } catch (Exception e) {
            writesFrom.add("writes recorded " + log.describe() + ", which could not be read");
            leftOut.leaveOut(RecordedTransaction.EVERY_TABLE, new NotModelled("every table",
                    "the database's log of the test's writes could not be read: " + e.getMessage()));
            return Optional.empty();
        }
    }

    /**
     * Matches {@code committed} to the log's transactions in {@code matched}; returns those left
     * unmatched, in order. By id first; then by id range and by rows changed in turn, each taking
     * what the other left (a transaction claimed by one is a candidate the other need not doubt),
     * until neither finds more.
     */
    private List<CommittedTransaction> match(WriteLog log, List<CommittedTransaction> committed, Map<Finished, CommittedTransaction> matched) {
        Map<Long, CommittedTransaction> open = new LinkedHashMap<>();
        for (CommittedTransaction c : committed) {
            open.put(c.xid(), c);
        }
        List<Finished> byRange = new ArrayList<>();
        List<Finished> byKeys = new ArrayList<>();
        // Those found by their rows whose id was asked as well (tests ask every id): matched by
        // their rows as if their ids were unknown, then checked against them.
        Map<Finished, CommittedTransaction> byId = new IdentityHashMap<>();
        for (Finished f : finished) {
            if (f.writeLog() != log) {
                continue;
            }
            if (MatchByKeys.applies(f)) {
                byKeys.add(f);
                if (f.xid() >= 0) {
                    byId.put(f, open.get(log.idOf(f.xid())));
                }
            } else if (f.xid() >= 0) {
                CommittedTransaction c = open.remove(log.idOf(f.xid()));
                if (c != null) {
                    matched.put(f, c);
                }
            } else if (inRange(f)) {
                byRange.add(f);
            }
        }
        boolean progress = true;
        while (progress) {
            progress = matchByRange(byRange, open, matched);
            List<Finished> left = byKeys.stream().filter(f -> !matched.containsKey(f)).toList();
            Map<Finished, CommittedTransaction> found = MatchByKeys.match(left, new ArrayList<>(open.values()));
            for (Finished f : left) {
                CommittedTransaction c = found.get(f);
                if (c == null) {
                    continue;
                }
                checkAgainstId(f, c, byId);
                matched.put(f, c);
                open.remove(c.xid());
                progress = true;
            }
        }
        int foundByKeys = 0;
        for (Finished f : byKeys) {
            if (matched.containsKey(f)) {
                foundByKeys++;
            } else if (byId.get(f) != null && open.remove(byId.get(f).xid()) != null) {
                matched.put(f, byId.get(f));
            } else if (inRange(f)) {
                byRange.add(f);
            }
        }
        byKeysTried += byKeys.size();
        byKeysMatched += foundByKeys;
        matchByRange(byRange, open, matched);
        // Those the rows could not tell that an id or an id range then found.
        byKeysFoundOtherwise += (int) byKeys.stream().filter(matched::containsKey).count() - foundByKeys;
        return new ArrayList<>(open.values());
    }

    /** Whether {@code f} is an auto-commit statement that names its table and whose id range is known. */
    private static boolean inRange(Finished f) {
        return f.autoCommit() && f.idsFrom() >= 0 && f.idsUntil() >= 0 && target(f).isPresent();
    }

    /**
     * Where {@code f}'s id (or, for an auto-commit statement, its id range) is known as well as
     * the rows it changed, notes every table left out if the two disagree: a fault of isocheck's,
     * which the tests that ask every id look for.
     */
    private void checkAgainstId(Finished f, CommittedTransaction c, Map<Finished, CommittedTransaction> byId) {
        boolean agrees = !byId.containsKey(f) || byId.get(f) == c;
        if (f.autoCommit() && f.idsFrom() >= 0 && f.idsUntil() >= 0) {
            long id = widen(c.xid(), f.idsFrom());
            agrees &= id >= f.idsFrom() && id < f.idsUntil();
        }
        if (!agrees) {
            leftOut.leaveOut(RecordedTransaction.EVERY_TABLE, new NotModelled("every table",
                    "isocheck matched a transaction of " + f.session() + " to the database's log by the rows it changed"
                    + " otherwise than by its id: a fault of isocheck's, to report"));
        }
    }

    /**
     * Matches auto-commit statements by the range of ids the server was assigning while each ran:
     * one is matched when exactly one open transaction of the log has an id in its range and wrote
     * the table it names, and no other such statement could claim that one. Whether any was.
     */
    private static boolean matchByRange(List<Finished> statements, Map<Long, CommittedTransaction> open,
                                        Map<Finished, CommittedTransaction> matched) {
        Map<Finished, List<CommittedTransaction>> candidates = new HashMap<>();
        for (Finished f : statements) {
            if (matched.containsKey(f)) {
                continue;
            }
            List<CommittedTransaction> in = new ArrayList<>();
            for (CommittedTransaction c : open.values()) {
                long id = widen(c.xid(), f.idsFrom());
                if (id >= f.idsFrom() && id < f.idsUntil()
                        && c.writes().stream().anyMatch(w -> w.table().equals(target(f).get()))) {
                    in.add(c);
                }
            }
            candidates.put(f, in);
        }
        boolean any = false;
        boolean progress = true;
        while (progress) {
            progress = false;
            for (Finished f : candidates.keySet()) {
                if (matched.containsKey(f)) {
                    continue;
                }
                List<CommittedTransaction> left = candidates.get(f).stream().filter(open::containsValue).toList();
                if (left.size() != 1) {
                    continue;
                }
                CommittedTransaction c = left.get(0);
                boolean claimedElsewhere = candidates.keySet().stream().anyMatch(other -> other != f
                        && !matched.containsKey(other) && candidates.get(other).contains(c));
                if (!claimedElsewhere) {
                    matched.put(f, c);
                    open.remove(c.xid());
                    progress = true;
                    any = true;
                }
            }
        }
        return any;
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
