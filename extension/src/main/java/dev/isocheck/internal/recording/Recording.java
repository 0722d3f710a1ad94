package dev.isocheck.internal.recording;

import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.UnknownInitialValues;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The history of one test under construction: every transaction the test's recorded connections
 * ran, from any thread. Thread-safe.
 *
 * <p>Which recording a connection records into is decided by {@link #current()}: the recording
 * {@linkplain #bind() bound} to the calling thread or inherited from the thread that started it;
 * failing that, the only recording in progress (a thread pool created before the test still records
 * into the one test running). With several tests in progress and no binding, nothing is recorded.
 */
public final class Recording {

    /**
     * The recording bound to a thread, and whether the thread only inherited it from the thread
     * that started it (a pool's thread may later run work for another test).
     */
    private record Bound(Recording recording, boolean inherited, Object ticket) {
    }

    private static final InheritableThreadLocal<Bound> BOUND = new InheritableThreadLocal<>() {
        @Override
        protected Bound childValue(Bound parent) {
            if (parent == null) {
                return null;
            }
            StatementGate gate = parent.recording().gate;
            return new Bound(parent.recording(), true, gate == null ? null : gate.threadCreated());
        }
    };
    private static final Set<Recording> IN_PROGRESS = ConcurrentHashMap.newKeySet();
    /**
     * Orders the starts of transactions against the watermarks of rounds: a start is read and
     * registered under it, and a watermark taken under it, so that no transaction a later round
     * takes can have started before a watermark an earlier round was given.
     */
    private static final Object TIMELINE = new Object();

    private final String name;
    private List<TransactionLog.Finished> transactions = new ArrayList<>();
    /** Each database's write log for this test, by its source, or why it has none (a String). */
    private final Map<Object, Object> writeLogs = new ConcurrentHashMap<>();
    private final List<NotModelled> notModelled = new ArrayList<>();
    private final Set<NotModelled> notModelledSeen = new java.util.HashSet<>();
    private final List<NotModelled> failures = new ArrayList<>();
    private final Map<Object, String> sessions = new IdentityHashMap<>();
    /** Read on every statement from every recorded thread: volatile, so that reading it takes no lock. */
    private volatile boolean finished;
    /** The scheduler of an interleaving test while its body runs; {@code null} otherwise. Read at every point. */
    private volatile StatementGate gate;
    /** What {@link #finish()} built, kept for later questions; {@code null} before. */
    private Built built;
    /**
     * The starts of the transactions in progress, each with the threads of those that started then
     * (for messages). Guarded by {@link #TIMELINE}.
     */
    private final java.util.TreeMap<Long, List<String>> inProgress = new java.util.TreeMap<>();
    /** When the recording began ({@link System#nanoTime}): before any of its transactions started. */
    private final long began = System.nanoTime();
    /** Whether the recording is checked in rounds ({@link #take()}), so that it keeps no whole history. */
    private volatile boolean inRounds;
    /** What every recorded statement from now on throws: a violation found while the test runs; {@code null} for none. */
    private volatile Error stopWith;

    /** A recording in progress, named after its test (for messages). */
    public Recording(String name) {
        this.name = Objects.requireNonNull(name, "name is null");
        IN_PROGRESS.add(this);
    }

    /**
     * Starts a transaction of {@code recordings} now: its start, read and registered in each as a
     * transaction in progress until it is {@linkplain #add added} (or {@linkplain #forget forgotten}).
     *
     * @return the start ({@link System#nanoTime})
     */
    public static long start(List<Recording> recordings) {
        String thread = Thread.currentThread().getName();
        synchronized (TIMELINE) {
            long start = System.nanoTime();
            for (Recording recording : recordings) {
                recording.inProgress.computeIfAbsent(start, s -> new ArrayList<>(1)).add(thread);
            }
            return start;
        }
    }

    /** Takes a transaction that started at {@code start} off those in progress: it ended, or will never be added. */
    public void forget(long start, String thread) {
        synchronized (TIMELINE) {
            List<String> threads = inProgress.get(start);
            if (threads != null) {
                // That thread's, where several started at one tick: the messages name the thread still in progress.
                int at = threads.indexOf(thread);
                threads.remove(at >= 0 ? at : threads.size() - 1);
                if (threads.isEmpty()) {
                    inProgress.remove(start);
                }
            }
        }
    }

    /**
     * The transaction in progress that started first: its start ({@link System#nanoTime}) and thread;
     * empty when none is. What holds back the watermark of {@link #take()}.
     */
    public Optional<Open> oldestInProgress() {
        synchronized (TIMELINE) {
            Map.Entry<Long, List<String>> first = inProgress.firstEntry();
            return first == null ? Optional.empty() : Optional.of(new Open(first.getKey(), first.getValue().get(0)));
        }
    }

    /** A transaction in progress: when it started ({@link System#nanoTime}) and the thread that started it. */
    public record Open(long start, String thread) {
    }

    /** When the recording began ({@link System#nanoTime}): every transaction of it started later. */
    public long began() {
        return began;
    }

    /**
     * Has the recording checked in rounds: it hands what finished to {@link #take()} and builds
     * no whole history ({@link #soFar} is refused).
     */
    public void checkInRounds() {
        inRounds = true;
    }

    /** Whether the recording is checked in rounds. */
    public boolean inRounds() {
        return inRounds;
    }

    /**
     * Has every recorded statement (not a commit or a rollback) of this recording from now on throw
     * {@code error}: a violation found while the test runs, for a test configured to stop early.
     */
    public void stopWith(Error error) {
        this.stopWith = Objects.requireNonNull(error, "error is null");
    }

    /**
     * What a round takes: the transactions finished since the last take, in the order they were
     * added, and a watermark: no transaction a later take returns started before it.
     *
     * @param finished  the transactions
     * @param watermark {@link System#nanoTime}; {@link Long#MAX_VALUE} once the recording has stopped
     */
    public record Taken(List<TransactionLog.Finished> finished, long watermark) {
    }

    /**
     * Takes every transaction finished so far off the recording (a recording checked in rounds keeps
     * none after), with the watermark: the earliest start of a transaction still in progress, or now.
     * Once the recording has {@linkplain #stop() stopped}, what is left, with no later transaction.
     */
    public Taken take() {
        long watermark;
        // The watermark first: a transaction added after it was taken was still in progress then
        // (add lists it before it leaves those in progress), so started at or after it.
        synchronized (TIMELINE) {
            long now = System.nanoTime();
            watermark = inProgress.isEmpty() ? now : Math.min(now, inProgress.firstKey());
        }
        List<TransactionLog.Finished> taken;
        synchronized (this) {
            taken = transactions;
            transactions = new ArrayList<>();
            if (finished) {
                watermark = Long.MAX_VALUE;
            }
            notifyAll();
        }
        return new Taken(taken, watermark);
    }

    /**
     * Past {@code waiting} finished transactions not yet taken, a thread adding one waits for a
     * round to take them, up to {@value #HOLD_MILLIS} ms: rounds that fall behind the application
     * slow it down rather than let the recording grow with it. Never longer: the round may need a
     * connection of the application's pool, which the waiting threads hold. 0 (the default): never.
     */
    public synchronized void holdAt(int waiting) {
        this.holdAt = waiting;
        notifyAll();
    }

    /** How often, and for how long in all (nanoseconds), adding threads waited for the rounds. */
    public synchronized long[] held() {
        return new long[] {holds, heldNanos};
    }

    private static final long HOLD_MILLIS = 100;
    private int holdAt;
    private long holds;
    private long heldNanos;

    /** Called holding this recording's lock, which the wait lets go. */
    private void waitForTheRounds() {
        if (holdAt <= 0 || transactions.size() < holdAt) {
            return;
        }
        long from = System.nanoTime();
        holds++;
        try {
            // Once, not until taken: each thread past the mark adds one transaction per wait at
            // most, so the recording grows far slower than rounds take, and no wait is unbounded.
            wait(HOLD_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            heldNanos += System.nanoTime() - from;
        }
    }

    /** How many finished transactions wait to be {@linkplain #take() taken}. */
    public synchronized int waiting() {
        return transactions.size();
    }

    /**
     * The write logs opened for this recording so far: each a {@link WriteLog}, or why a database
     * has none (a String).
     */
    public List<Object> writeLogs() {
        return List.copyOf(writeLogs.values());
    }

    /** The notes so far of what was left out of the check, each once; the recorder's failures first. */
    public synchronized List<NotModelled> notesSoFar() {
        List<NotModelled> all = new ArrayList<>(failures.isEmpty() ? List.of() : List.of(failures.get(0)));
        all.addAll(notModelled);
        return all;
    }

    /** Why the recorder failed, when it did: every table is then left out. */
    public synchronized Optional<NotModelled> failure() {
        return failures.isEmpty() ? Optional.empty() : Optional.of(failures.get(0));
    }

    /**
     * Stops recording, leaving what finished for a last {@link #take()}: a recording checked in
     * rounds ends so. Straggler threads' work that comes later is ignored.
     */
    public synchronized void stop() {
        finished = true;
        IN_PROGRESS.remove(this);
        notifyAll();
    }

    /** The test's name, for messages. */
    public String name() {
        return name;
    }

    /**
     * The recording the calling thread records into.
     *
     * @return empty outside a recorded test, or when several are in progress and none is bound
     */
    public static Optional<Recording> current() {
        Bound bound = BOUND.get();
        if (bound != null && !bound.recording().isFinished()) {
            return Optional.of(bound.recording());
        }
        List<Recording> open = List.copyOf(IN_PROGRESS);
        return open.size() == 1 ? Optional.of(open.get(0)) : Optional.empty();
    }

    /**
     * Every recording a transaction starting now on the calling thread belongs to, the
     * {@linkplain #current() current} one first. A thread bound by its test belongs to that test.
     * A thread that only inherited its binding (an executor's thread, started by one test and
     * perhaps running work for another), or that has none, belongs to every test in progress when
     * several are: which one its work is for cannot be told, and a transaction recorded in a
     * history it does not belong to is still one that ran, while one left out of the history it
     * belongs to could make that test's reads look impossible.
     */
    public static List<Recording> currentAll() {
        Bound bound = BOUND.get();
        if (bound != null && !bound.inherited() && !bound.recording().isFinished()) {
            return List.of(bound.recording());
        }
        List<Recording> open = new ArrayList<>(IN_PROGRESS);
        if (bound != null && !bound.recording().isFinished()) {
            open.remove(bound.recording());
            open.add(0, bound.recording());
        } else if (open.size() > 1) {
            open.sort(java.util.Comparator.comparing(Recording::name));
        }
        return open;
    }

    /**
     * Makes this the recording of the calling thread and of the threads it starts from now on,
     * until the binding is closed.
     */
    public Binding bind() {
        Bound previous = BOUND.get();
        BOUND.set(new Bound(this, false, null));
        return () -> BOUND.set(previous);
    }

    /**
     * Holds the calling thread at {@code gate} while one is set and its recording is the current
     * one: the scheduler of an interleaving test decides when it goes on.
     *
     * @param what  the statement's SQL, or {@code commit}, {@code rollback}, {@code getConnection}
     * @param probe what asks the database whether the call waits for a lock (giving {@code null} for nothing), asked only when a gate is set
     * @return what the caller tells when its call is back; {@link StatementGate.Passage#FREE} when
     *         no gate holds the thread
     */
    public static StatementGate.Passage enterGate(String what, java.util.function.Supplier<LockProbe> probe) {
        Bound bound = BOUND.get();
        Optional<Recording> current = current();
        Error stop = current.map(r -> r.stopWith).orElse(null);
        if (stop != null && !endsATransaction(what)) {
            // A commit or a rollback goes on: the application ends what it began, its locks are let go.
            throw stop;
        }
        StatementGate gate = current.map(r -> r.gate).orElse(null);
        if (gate == null) {
            return StatementGate.Passage.FREE;
        }
        return gate.enter(what, bound != null && bound.recording() == current.get() ? bound.ticket() : null, probe.get());
    }

    /** Whether {@code what} (a call, or a statement's SQL) commits or rolls back: {@code COMMIT}, {@code ROLLBACK [TO ...]}, {@code END}, {@code ABORT}. */
    private static boolean endsATransaction(String what) {
        String word = what == null ? "" : what.strip().split("[\\s;]", 2)[0].toLowerCase(java.util.Locale.ROOT);
        return word.equals("commit") || word.equals("rollback") || word.equals("end") || word.equals("abort");
    }

    /** Sets the gate the recording's threads pass, or none ({@code null}). */
    public void gate(StatementGate gate) {
        this.gate = gate;
    }

    /**
     * The session name of a connection in this recording: {@code connection-1}, {@code connection-2}, …
     * in the order the connections first ran a transaction here, so that a test's report names its
     * connections the same way whatever ran before it in the JVM.
     *
     * @param connection the connection, compared by identity
     */
    public synchronized String sessionOf(Object connection) {
        return sessions.computeIfAbsent(Objects.requireNonNull(connection, "connection is null"),
                c -> "connection-" + (sessions.size() + 1));
    }

    /**
     * Adds a finished transaction, built when the recording finishes. Ignored once finished: a
     * straggler thread's work comes too late.
     */
    public void add(TransactionLog.Finished transaction) {
        Objects.requireNonNull(transaction, "transaction is null");
        synchronized (this) {
            if (!finished) {
                transactions.add(transaction);
                waitForTheRounds();
            }
        }
        // Only now: a round that took its watermark before the line above saw it in progress.
        forget(transaction.start(), transaction.thread());
    }

    /**
     * The write log of one database for this test, opened by {@code opener} the first time a
     * connection to it asks (before the test's first transaction there); empty when the database
     * keeps none the recorder can read (then the writes come from the statements, and the
     * reason is reported), or once the recording finished.
     *
     * @param source the database's recorder (a recorded data source or URL), compared by identity
     */
    public Optional<WriteLog> writeLog(Object source, Opener opener) {
        if (finished) {
            return Optional.empty();
        }
        Object log = writeLogs.computeIfAbsent(source, s -> {
            try {
                return opener.open();
            } catch (Exception e) {
                return String.valueOf(e.getMessage());
            }
        });
        if (finished && log instanceof WriteLog opened) {
            // Opened as the recording finished: nobody will read it.
            opened.close();
        }
        return log instanceof WriteLog opened ? Optional.of(opened) : Optional.empty();
    }

    /**
     * The user and password a database's log that needs a login of its own (MariaDB's binary
     * log) is read as, each {@code null} where not configured.
     *
     * @param user     the user
     * @param password the password
     */
    public record LogAccount(String user, String password) {

        @Override
        public String toString() {
            return "LogAccount[" + user + "]";
        }
    }

    private volatile LogAccount logAccount;

    /** Has logs that need a login of their own read as {@code account} ({@code isocheck.binlog.user}, {@code .password}). */
    public void logAccount(LogAccount account) {
        this.logAccount = account;
    }

    /** The configured account for logs that need a login of their own; empty when none was configured. */
    public Optional<LogAccount> logAccount() {
        return Optional.ofNullable(logAccount);
    }

    /** Opens a database's write log, or says why it cannot. */
    @FunctionalInterface
    public interface Opener {

        /** The log, open. */
        WriteLog open() throws Exception;
    }

    /** Leaves every table out: the recorder failed, and what it kept cannot be trusted to be complete. */
    public synchronized void failed(String reason) {
        if (!finished) {
            failures.add(new NotModelled("every table", reason));
        }
    }

    /** Notes something left out of the check. */
    public synchronized void notModelled(NotModelled what) {
        Objects.requireNonNull(what, "what is null");
        // A statement run a thousand times is listed once.
        if (!finished && notModelledSeen.add(what)) {
            notModelled.add(what);
        }
    }

    /** Whether {@link #finish()} was called. */
    public boolean isFinished() {
        return finished;
    }

    /**
     * Stops recording and builds the history: transactions in the order they were added, their
     * times in nanoseconds since the first one started, the
     * initial state unknown and possibly a value some transaction writes again
     * ({@link UnknownInitialValues#ANY}), since the recorder never saw the tables' rows before the test.
     * The tables some transaction wrote without the recorder seeing the rows are left out of every
     * transaction, each listed once in {@link RecordedHistory#notModelled()} with the first statement
     * and reason. Called again, returns the same history.
     */
    public synchronized RecordedHistory finish() {
        if (inRounds) {
            throw new IllegalStateException("the recording of " + name + " is checked in rounds: stop() it and take() what is left");
        }
        if (built == null) {
            stop();
            built = build(transactions, notModelled, notModelledSeen, false);
        }
        return built.history(Long.MIN_VALUE);
    }

    /**
     * The history of the transactions finished so far, built as {@link #finish()} builds it but
     * leaving the recording (and the database's write log) as it was; once finished, the
     * finished history. Transactions that started before {@code readsFrom} ({@link System#nanoTime})
     * keep their writes and lose their reads: a slice of the test whose earlier writes still explain
     * the values its reads saw. Reads taken away only take constraints away, so a slice violates a
     * level only where the whole history does.
     *
     * @param readsFrom the earliest start of a transaction whose reads are kept;
     *                  {@link Long#MIN_VALUE} for every transaction's
     */
    public RecordedHistory soFar(long readsFrom) {
        if (inRounds) {
            throw new IllegalStateException("the recording of " + name + " is checked in rounds (isocheck.rounds): it keeps"
                    + " no history of the test so far, only what the rounds still need");
        }
        List<TransactionLog.Finished> copy;
        List<NotModelled> notes;
        Set<NotModelled> seen;
        synchronized (this) {
            if (built != null) {
                return built.history(readsFrom);
            }
            copy = List.copyOf(transactions);
            notes = new ArrayList<>(notModelled);
            seen = new java.util.HashSet<>(notModelledSeen);
        }
        // Built outside the lock: reading a write log is a round trip, and the test's threads add
        // their transactions meanwhile.
        return build(copy, notes, seen, true).history(readsFrom);
    }

    /**
     * The transactions of {@code finished} with their writes attributed, and what was left out.
     *
     * @param notes the recording's notes so far, to which notes made in building are added
     * @param seen  the notes already in {@code notes}
     * @param peek  whether the write logs are to be read and left open (a snapshot), not read and closed
     */
    private Built build(List<TransactionLog.Finished> finished, List<NotModelled> notes, Set<NotModelled> seen, boolean peek) {
        LeftOutTables leftOut = new LeftOutTables();
        List<String> writesFrom = new ArrayList<>();
        java.util.function.Consumer<NotModelled> note = n -> {
            if (seen.add(n)) {
                notes.add(n);
            }
        };
        List<Object> logs = List.copyOf(writeLogs.values());
        List<RecordedTransaction> transactions = new WriteAttribution(finished, logs, leftOut, note, writesFrom, peek)
                .withDatabases(this::databaseOf).transactions();
        for (RecordedTransaction t : transactions) {
            t.notes().forEach(note);
            leftOut.from(t);
            namespaces.touched(t.database(), t.tables(), leftOut);
        }
        failure().ifPresent(f -> leftOut.leaveOut(RecordedTransaction.EVERY_TABLE, f));
        List<NotModelled> all = leftOut.notes();
        all.addAll(notes);
        return new Built(transactions, leftOut.tables(), Map.copyOf(leftOut.columns()), all, writesFrom, namespaces);
    }

    /** Notes that {@code log} is {@code database}'s log (the first account given stands). */
    public void databaseOf(WriteLog log, DatabaseIdentity database) {
        logDatabases.putIfAbsent(log, database);
    }

    /** The database of {@code log}, as the connection that opened it reached it; {@code null} where not known. */
    DatabaseIdentity databaseOf(WriteLog log) {
        return logDatabases.get(log);
    }

    private final Map<WriteLog, DatabaseIdentity> logDatabases = java.util.Collections.synchronizedMap(new IdentityHashMap<>());

    /** The databases the recording's transactions reached, and the prefixes of their keys. */
    public DatabaseNamespaces namespaces() {
        return namespaces;
    }

    private final DatabaseNamespaces namespaces = new DatabaseNamespaces();

    /** The transactions built from a recording, and what was left out of them. */
    private record Built(List<RecordedTransaction> transactions, Set<String> leftOutTables,
                         Map<String, Set<String>> leftOutColumns, List<NotModelled> notModelled, List<String> writesFrom,
                         DatabaseNamespaces namespaces) {

        /** The history, with the reads of the transactions started before {@code readsFrom} taken away. */
        RecordedHistory history(long readsFrom) {
            HistoryBuilder builder = History.builder().unknownInitialValues(UnknownInitialValues.ANY);
            // Times count from the first transaction's start, in nanoseconds, as Jepsen's histories do:
            // System.nanoTime's own origin is arbitrary, and its values unreadable in a report.
            long origin = transactions.stream().mapToLong(RecordedTransaction::start).min().orElse(0);
            for (int i = 0; i < transactions.size(); i++) {
                RecordedTransaction t = transactions.get(i);
                t.addTo(builder, "T" + (i + 1), leftOutTables, leftOutColumns, origin, t.start() >= readsFrom,
                        namespaces.prefix(t.database()));
            }
            return new RecordedHistory(builder.build(), notModelled, writesFrom);
        }
    }

    /** Undoes a {@link #bind()}: the thread records where it did before. */
    @FunctionalInterface
    public interface Binding extends AutoCloseable {

        @Override
        void close();
    }
}
