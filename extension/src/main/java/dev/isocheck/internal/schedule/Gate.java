package dev.isocheck.internal.schedule;

import dev.isocheck.internal.recording.LockProbe;
import dev.isocheck.internal.recording.Recording;
import dev.isocheck.internal.recording.SideSessions;
import dev.isocheck.internal.recording.StatementGate;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The scheduler of one run of an interleaving test: the test's threads are held at each point
 * (statement, commit, rollback, {@code getConnection}) and let through one at a time, in the
 * order a {@link Strategy} chooses, each after the one before it is back at the gate, finished,
 * or found waiting (for a lock in the database, or outside the database) for longer than its
 * {@link Timing} allows.
 *
 * <p>The gate decides only which thread goes next; whatever it does, the run is an ordinary run of
 * the application, and its verdict comes from the recorded history alone. A wrong guess (a slow
 * statement taken for one waiting on a lock) costs control over one step, never soundness.
 *
 * <p>Threads join the gate when they first reach a point. Threads the test's threads create carry
 * a ticket from their creation, so that the first decision waits a moment for them rather than
 * let the first thread run alone.
 */
public final class Gate implements StatementGate {

    private static final Set<String> RETRIED = Set.of("40001", "40P01");
    /**
     * Statement timeout or cancel, idle-in-transaction timeout, a driver's timeout: what holding
     * threads may cause. Not 55P03: a NOWAIT lock refused is the order's doing, which a run
     * exists to show, and the gate holds no thread long enough for a lock timeout.
     */
    private static final Set<String> TIMEOUTS = Set.of("57014", "25P03", "HYT00", "HYT01");

    private final Strategy strategy;
    private final Timing timing;
    private final Recording recording;
    private final Thread testThread;
    private final Map<Thread, Participant> participants = new LinkedHashMap<>();
    private final List<Ticket> tickets = new ArrayList<>();
    private final List<MutableStep> steps = new ArrayList<>();
    private final List<String> uncontrolled = new ArrayList<>();
    private final Thread scheduler;
    private final SideSessions sessions;
    /**
     * The threads inside the gate's own methods: a thread waiting for the gate's lock is blocked by
     * the gate, not by the application, and must not be taken to wait outside the database.
     */
    private final Set<Thread> inside = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private Participant running;
    private boolean closed;
    private long firstArrival = -1;
    private boolean lettered;
    private int letters;
    private long lastProgress = System.nanoTime();
    private String invalid;
    private String stalled;

    private Gate(Recording recording, Strategy strategy, Timing timing, SideSessions sessions) {
        this.recording = recording;
        this.sessions = sessions;
        this.strategy = strategy;
        this.timing = timing;
        this.testThread = Thread.currentThread();
        this.scheduler = new Thread(this::schedule, "isocheck-gate");
        scheduler.setDaemon(true);
    }

    /**
     * Opens a gate on {@code recording}'s threads, choosing by {@code strategy}, asking its lock
     * questions on {@code sessions} (kept by the caller across the runs of one test, which closes
     * them).
     */
    public static Gate open(Recording recording, Strategy strategy, Timing timing, SideSessions sessions) {
        Gate gate = new Gate(recording, strategy, timing, sessions);
        recording.gate(gate);
        gate.scheduler.start();
        return gate;
    }

    /** Lets every thread go on unheld from now on, and says what the run was. */
    public Trace close() {
        recording.gate(null);
        synchronized (this) {
            closed = true;
            notifyAll();
        }
        try {
            scheduler.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            Map<String, String> threads = new LinkedHashMap<>();
            participants.values().stream().filter(p -> p.letter != null).forEach(p -> threads.put(p.letter, p.name));
            return new Trace(steps.stream().map(MutableStep::toStep).toList(), threads, uncontrolled,
                    Optional.ofNullable(invalid), Optional.ofNullable(stalled));
        }
    }

    @Override
    public synchronized Object threadCreated() {
        Ticket ticket = new Ticket(System.nanoTime());
        tickets.add(ticket);
        return ticket;
    }

    @Override
    public Passage enter(String what, Object ticket, LockProbe probe) {
        Thread thread = Thread.currentThread();
        inside.add(thread);
        try {
            return held(thread, what, ticket, probe);
        } finally {
            inside.remove(thread);
        }
    }

    private Passage held(Thread thread, String what, Object ticket, LockProbe probe) {
        synchronized (this) {
            if (closed) {
                return Passage.FREE;
            }
            if (ticket instanceof Ticket t) {
                t.arrived = true;
            }
            Participant p = participants.computeIfAbsent(thread, Participant::new);
            if (firstArrival < 0) {
                firstArrival = System.nanoTime();
            }
            if (lettered && p.letter == null) {
                p.letter = Letters.of(letters++);
            }
            p.hold(what, probe);
            if (probe != null) {
                // Opened once for the test's runs, on a thread of its own: ready when a statement first waits.
                probe.prepare(sessions);
            }
            lastProgress = System.nanoTime();
            notifyAll();
            boolean interrupted = false;
            while (p.state == State.HELD && !closed) {
                try {
                    wait(50);
                } catch (InterruptedException e) {
                    // The test's timeout or a stall: let the thread go and keep its interrupt.
                    interrupted = true;
                    p.state = State.IN_DATABASE;
                }
            }
            if (interrupted) {
                thread.interrupt();
            }
            return new Pass(p);
        }
    }

    /**
     * The scheduler's loop. Should it ever fail, every thread goes on unheld and the run says it
     * was not controlled: a scheduler's bug must not hang the test.
     */
    private synchronized void schedule() {
        try {
            decide();
        } catch (RuntimeException | Error e) {
            uncontrolled.add("the gate failed (" + e + ") and let every thread go on unheld");
            closed = true;
            notifyAll();
        }
    }

    /** One decision at a time, polled every millisecond. */
    private void decide() {
        while (!closed) {
            long now = System.nanoTime();
            if (running != null && stillRunning(running, now)) {
                pause();
                continue;
            }
            running = null;
            if (firstArrival < 0 || waitingForArrivals(now)) {
                pause();
                continue;
            }
            if (!lettered) {
                letter();
            }
            List<Participant> held = participants.values().stream().filter(p -> p.state == State.HELD)
                    .sorted(Comparator.comparingInt(p -> Letters.indexOf(p.letter))).toList();
            if (held.isEmpty()) {
                watchForStall(now);
                pause();
                continue;
            }
            Participant chosen = choose(held);
            release(chosen, now);
        }
    }

    private void pause() {
        try {
            wait(1);
        } catch (InterruptedException e) {
            closed = true;
        }
    }

    /** Letters for the threads so far, in the order they were created (their ids grow with it). */
    private void letter() {
        participants.values().stream().sorted(Comparator.comparingLong(p -> p.thread.getId()))
                .forEach(p -> p.letter = Letters.of(letters++));
        lettered = true;
    }

    private boolean waitingForArrivals(long now) {
        long window = timing.arrival().toNanos();
        if (!lettered && now - firstArrival < window) {
            return true;
        }
        return tickets.stream().anyMatch(t -> !t.arrived && now - t.created < window);
    }

    private Participant choose(List<Participant> held) {
        // A thread that failed too often runs alone: forced orders must not make threads abort each other forever.
        Optional<Participant> alone = held.stream().filter(p -> p.alone).findFirst();
        if (alone.isPresent()) {
            return alone.get();
        }
        String letter = strategy.choose(held.stream().map(p -> p.letter).toList(), steps.size());
        return held.stream().filter(p -> p.letter.equals(letter)).findFirst().orElse(held.get(0));
    }

    private void release(Participant p, long now) {
        p.state = State.IN_DATABASE;
        p.since = now;
        p.step = new MutableStep(steps.size() + 1, p.letter, p.name, p.what);
        steps.add(p.step);
        running = p;
        lastProgress = now;
        notifyAll();
    }

    /**
     * Whether the thread released last is still to be waited for: on its way back to the gate,
     * and not yet found waiting for longer than the timing allows.
     */
    private boolean stillRunning(Participant p, long now) {
        if (p.state == State.HELD) {
            return false;
        }
        if (!p.thread.isAlive()) {
            return false;
        }
        if (p.state == State.IN_DATABASE) {
            return stillInTheDatabase(p, now);
        }
        if (inside.contains(p.thread)) {
            return true;
        }
        Frames frames = new Frames(p.thread);
        if (frames.inRecordedCall() && now - p.since < timing.slow().toNanos()) {
            // A call on a recorded connection that is no point of the gate (prepareStatement,
            // setAutoCommit, reading a result): the recorder's and the driver's work for the
            // application, parsing a statement the first time in a cold JVM among it.
            return true;
        }
        Thread.State state = p.thread.getState();
        if (state == Thread.State.RUNNABLE) {
            p.parkedSince = -1;
            return stillInTheApplication(p, now, frames);
        }
        if (p.parkedSince < 0) {
            p.parkedSince = now;
        }
        if (now - p.parkedSince < timing.parked().toNanos()) {
            return true;
        }
        if (frames.loadingAClass()) {
            // Waiting for a class another thread is loading (the first run loads the application's
            // classes on several threads at once) ends by itself: the thread runs the application.
            return stillInTheApplication(p, now, frames);
        }
        if (inside.contains(p.thread) || p.thread.getState() == Thread.State.RUNNABLE) {
            // It went on since its state was read, into the gate or running: it waited less than it seemed.
            p.parkedSince = -1;
            return true;
        }
        releaseConnectionsIfAPoolIsWaitedFor(frames);
        String where = frames.waitingAt();
        p.step.afterward = "waited outside the database" + where;
        note(p, "waited outside the database" + where);
        return false;
    }

    /** Whether a thread running the application's code may still take its time to come back. */
    private boolean stillInTheApplication(Participant p, long now, Frames frames) {
        if (now - p.since < timing.application().toNanos() || frames.recorderAtWork()) {
            return true;
        }
        note(p, "ran the application's code for more than " + timing.application().toMillis()
                + " ms without reaching the database; the gate let another thread go");
        return false;
    }

    /**
     * Whether a call still in the database is to be waited for. One that waits for a lock (the
     * database says so, or the thread is parked: an embedded database's lock, a pool) is not:
     * another thread goes. One the database says waits for nothing may run for
     * {@link Timing#slow()}; where the database cannot be asked, a statement is taken to wait for
     * a lock after {@link Timing#database()}, a connection being opened after {@link Timing#slow()}.
     */
    private boolean stillInTheDatabase(Participant p, long now) {
        if (inside.contains(p.thread)) {
            return true;
        }
        long elapsed = now - p.since;
        if (p.thread.getState() != Thread.State.RUNNABLE) {
            if (p.parkedSince < 0) {
                p.parkedSince = now;
            }
            if (now - p.parkedSince < timing.parked().toNanos()) {
                return true;
            }
            Frames frames = new Frames(p.thread);
            if (frames.recorderAtWork()) {
                return true;
            }
            if (frames.opensAConnection() && elapsed < timing.slow().toNanos()) {
                // A driver that opens its connection on a thread of its own (PostgreSQL's, with a
                // login timeout) parks the caller: it waits for the server, not for a lock.
                return true;
            }
            p.step.waited = true;
            releaseConnectionsIfAPoolIsWaitedFor(frames);
            return false;
        }
        p.parkedSince = -1;
        if (p.probe != null && elapsed >= timing.parked().toNanos() && now - p.probed >= timing.parked().toNanos()) {
            // Asked only of a statement not back within a few milliseconds: most never need the
            // recorder's own connection, which a small pool would miss.
            p.probed = now;
            LockProbe.Answer answer = p.probe.waitsForLock(sessions);
            if (answer == LockProbe.Answer.WAITS) {
                p.step.waited = true;
                p.step.blockedBy = holders(p.probe.blockers());
                return false;
            }
            // Working (the statement, or the recorder's own questions inside the call): the
            // database says so, and the call is waited for; the recorder's connection still
            // opening: for a while.
            p.answered = answer == LockProbe.Answer.WORKS;
            p.opening = answer == LockProbe.Answer.NOT_YET;
        }
        boolean connecting = "getConnection".equals(p.what);
        long limit = (p.answered || connecting ? timing.slow() : p.opening ? timing.application() : timing.database()).toNanos();
        if (elapsed < limit) {
            return true;
        }
        p.step.waited = true;
        return false;
    }

    /** The test's threads whose connections are the sessions {@code blockers}, by letter and name. */
    private String holders(List<Integer> blockers) {
        List<String> named = new ArrayList<>();
        for (Participant other : participants.values()) {
            if (other.probe != null && other.probe.session().isPresent() && blockers.contains(other.probe.session().getAsInt())) {
                named.add(other.letter + " (" + other.name + ")");
            }
        }
        return named.isEmpty() ? (blockers.isEmpty() ? null : "another session") : String.join(" and ", named);
    }

    private void note(Participant p, String what) {
        String line = p.letter + " (" + p.name + ") " + what;
        if (!uncontrolled.contains(line) && uncontrolled.size() < 10) {
            uncontrolled.add(line);
        }
    }

    /**
     * A thread parked in a {@code getConnection} waits for a pool (the application's own call, or
     * the recorder's lookups through it): the recorder's connection for lock questions goes back
     * to the pool for good, so that it is never what the application waits for.
     */
    private void releaseConnectionsIfAPoolIsWaitedFor(Frames frames) {
        if (frames.any(frame -> frame.getMethodName().equals("getConnection"))) {
            sessions.close();
        }
    }

    /**
     * A thread's stack, read once, when the first question about it is asked, for the questions
     * one look at the thread asks: where it is tells the gate whether it waits for the
     * application, the database, a pool or the recorder.
     */
    private static final class Frames {

        private final Thread thread;
        private StackTraceElement[] frames;

        Frames(Thread thread) {
            this.thread = thread;
        }

        boolean any(java.util.function.Predicate<StackTraceElement> frame) {
            if (frames == null) {
                frames = thread.getStackTrace();
            }
            for (StackTraceElement each : frames) {
                if (frame.test(each)) {
                    return true;
                }
            }
            return false;
        }

        /** The innermost frame outside the JDK (and, with {@code recorder} false, outside the recorder), if any. */
        private Optional<StackTraceElement> innermost(boolean recorder) {
            StackTraceElement[] found = new StackTraceElement[1];
            any(frame -> {
                String c = frame.getClassName();
                boolean outside = !c.startsWith("java.") && !c.startsWith("jdk.") && !c.startsWith("sun.")
                        && (recorder || !c.startsWith("dev.isocheck.internal."));
                if (outside) {
                    found[0] = frame;
                }
                return outside;
            });
            return Optional.ofNullable(found[0]);
        }

        /**
         * Whether a parked thread waits in the recorder's own work (a bounded parse, a question on
         * a connection of its own), not in the application's: its innermost frame outside the JDK
         * is the recorder's.
         */
        boolean recorderAtWork() {
            return innermost(true).map(StackTraceElement::getClassName)
                    .filter(c -> c.startsWith("dev.isocheck.internal.") && !c.startsWith("dev.isocheck.internal.schedule."))
                    .isPresent();
        }

        /** Whether the thread is inside a driver's {@code connect}: opening a connection, not waiting for a pool's. */
        boolean opensAConnection() {
            return any(frame -> frame.getMethodName().equals("connect") && !frame.getClassName().startsWith("java."));
        }

        /** Whether the thread is inside a call on a recorded connection, statement or result. */
        boolean inRecordedCall() {
            return any(frame -> frame.getClassName().startsWith("dev.isocheck.internal.recording."));
        }

        /**
         * Whether a thread that does not run loads a class or waits for another thread to (the
         * class loader's lock): a {@code ClassLoader.loadClass} on its stack.
         */
        boolean loadingAClass() {
            return any(frame -> "java.lang.ClassLoader".equals(frame.getClassName()) && "loadClass".equals(frame.getMethodName()));
        }

        /** The application frame the thread waits in, for a message: the first below the JDK's own. */
        String waitingAt() {
            return innermost(false).map(frame -> " (at " + frame + ")").orElse("");
        }
    }

    /**
     * No thread held, none in the database, some alive and waiting outside it for the stall
     * timeout: nothing the gate holds can free them. The run is stopped (the test's thread
     * interrupted) rather than left to hang, and said so.
     */
    private void watchForStall(long now) {
        if (stalled != null || now - lastProgress < timing.stall().toNanos()) {
            return;
        }
        List<Participant> waiting = participants.values().stream()
                .filter(p -> p.thread.isAlive() && p.state == State.BACK && p.thread.getState() != Thread.State.RUNNABLE).toList();
        boolean inDatabase = participants.values().stream().anyMatch(p -> p.thread.isAlive() && p.state == State.IN_DATABASE);
        if (waiting.isEmpty() || inDatabase) {
            return;
        }
        StringBuilder why = new StringBuilder("no thread reached the database for ").append(timing.stall().toSeconds())
                .append(" s while ");
        for (int i = 0; i < waiting.size(); i++) {
            Participant p = waiting.get(i);
            why.append(i == 0 ? "" : ", ").append(p.letter).append(" (").append(p.name).append(") waited outside it")
                    .append(new Frames(p.thread).waitingAt());
        }
        stalled = why.toString();
        testThread.interrupt();
        waiting.forEach(p -> p.thread.interrupt());
    }

    private void back(Participant p, Throwable failure) {
        Thread thread = Thread.currentThread();
        inside.add(thread);
        try {
            backFromTheDatabase(p, failure);
        } finally {
            inside.remove(thread);
        }
    }

    private synchronized void backFromTheDatabase(Participant p, Throwable failure) {
        if (p.state == State.IN_DATABASE) {
            p.state = State.BACK;
            p.since = System.nanoTime();
            p.parkedSince = -1;
        }
        lastProgress = System.nanoTime();
        if (p.step != null && p.step.waited && p.step.waitedMillis == 0) {
            p.step.waitedMillis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - p.releasedAt()));
        }
        if (failure != null && p.step != null) {
            String state = failure instanceof SQLException e && e.getSQLState() != null ? "SQLSTATE " + e.getSQLState()
                    : failure.getClass().getSimpleName();
            p.step.failure = state;
            judge(p, failure);
        }
        notifyAll();
    }

    private void judge(Participant p, Throwable failure) {
        String state = failure instanceof SQLException e ? e.getSQLState() : null;
        if (state != null && RETRIED.contains(state) && ++p.failures > timing.retries() && !p.alone) {
            p.alone = true;
            note(p, "saw " + p.failures + " transactions fail (SQLSTATE " + state + ") and ran alone from then on");
        }
        boolean timeout = failure instanceof SQLTimeoutException || failure instanceof SQLTransientConnectionException
                || (state != null && TIMEOUTS.contains(state));
        if (timeout && invalid == null) {
            invalid = p.letter + " (" + p.name + ")'s " + oneLine(p.step.what) + " timed out (" + (state == null ? "" : "SQLSTATE "
                    + state + ": ") + failure.getMessage() + "); a timeout"
                    + " of the database or the pool can come of the gate holding threads, so this run is not judged";
        }
    }

    private static String oneLine(String what) {
        String flat = what.strip().replaceAll("\\s+", " ");
        return flat.length() > 80 ? flat.substring(0, 77) + "..." : flat;
    }

    private enum State {
        HELD, IN_DATABASE, BACK
    }

    /** A thread created by one of the test's threads, which may soon reach the gate. */
    private static final class Ticket {

        final long created;
        volatile boolean arrived;

        Ticket(long created) {
            this.created = created;
        }
    }

    /** A thread that reached the gate. */
    private static final class Participant {

        final Thread thread;
        final String name;
        String letter;
        State state = State.BACK;
        String what;
        long since;
        long parkedSince = -1;
        MutableStep step;
        int failures;
        boolean alone;
        LockProbe probe;
        long probed;
        boolean answered;
        boolean opening;

        Participant(Thread thread) {
            this.thread = thread;
            this.name = thread.getName();
        }

        void hold(String what, LockProbe probe) {
            this.what = what;
            this.probe = probe;
            this.probed = 0;
            this.answered = false;
            this.opening = false;
            this.state = State.HELD;
            this.since = System.nanoTime();
        }

        long releasedAt() {
            return step == null ? since : step.releasedAt;
        }
    }

    private static final class MutableStep {

        final int index;
        final String letter;
        final String thread;
        final String what;
        final long releasedAt = System.nanoTime();
        boolean waited;
        long waitedMillis;
        String blockedBy;
        String failure;
        String afterward;

        MutableStep(int index, String letter, String thread, String what) {
            this.index = index;
            this.letter = letter;
            this.thread = thread;
            this.what = what;
        }

        Step toStep() {
            return new Step(index, letter, thread, what, waited ? Math.max(1, waitedMillis) : 0, Optional.ofNullable(blockedBy),
                    Optional.ofNullable(failure), Optional.ofNullable(afterward));
        }
    }

    /** The passage of one call: tells the gate when it is back. */
    private final class Pass implements Passage {

        private final Participant participant;
        private Throwable failure;

        Pass(Participant participant) {
            this.participant = participant;
        }

        @Override
        public void threw(Throwable failure) {
            this.failure = failure;
        }

        @Override
        public void left() {
            back(participant, failure);
        }
    }
}
