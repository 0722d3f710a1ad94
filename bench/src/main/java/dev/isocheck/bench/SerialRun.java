package dev.isocheck.bench;

import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Runs transactions one at a time against an in-memory key-value map and records them: the
 * serial database every {@link Workloads} generator drives.
 *
 * <p>Each operation takes effect at once, so reads see exactly what the serial order before
 * them wrote (own writes included), and the history is serializable by construction. Transaction
 * {@code k} (from 0) takes effect at time {@code 10k + 5}; the times recorded around that point
 * depend on the {@link Timing}, and the gaps leave room for an injected pair.
 *
 * <p>Sessions take turns at random among those with transactions left, each running
 * {@code transactions / sessions} (the first few one more), like closed-loop clients of equal speed.
 * The history lists the transactions session by session, not in the serial order.
 *
 * <p>The injected anomaly and the times draw from random streams of their own, so the operations
 * of the clean transactions of a seed are the same whatever the anomaly and the timing.
 */
final class SerialRun {

    private static final long TIME_STEP = 10;
    static final String ANOMALY_X = "anomaly.x";
    static final String ANOMALY_Y = "anomaly.y";

    final SplittableRandom random;
    private final HistoryBuilder builder;
    private final Map<String, Integer> state = new HashMap<>();
    private final String[] sessionNames;
    private final int[] sessionAt;
    /** The transactions not yet begun, by position in the serial order. */
    private final HistoryBuilder.TransactionBuilder[] transactions;
    private final List<String> order = new ArrayList<>();
    private final int total;
    private int begun;
    private int nextValue = 1;
    /** Where a run continues another: the keys' values it starts from (else those declared). */
    private Map<String, Integer> startState;

    private final Timing timing;
    private final SplittableRandom clock;
    /** Per session, under {@link Timing#OVERLAPPING}: the transaction not yet acknowledged, and what bounds its end. */
    private final HistoryBuilder.TransactionBuilder[] unacknowledged;
    private final long[] startOf;
    private final long[] earliestEnd;

    private final InjectedAnomaly anomaly;
    private final int injectBefore;
    private final int[] injectSessions;
    private HistoryBuilder.TransactionBuilder anomalyA;
    private HistoryBuilder.TransactionBuilder anomalyB;
    private boolean injected;

    /**
     * @param initialStateComplete whether keys never given an {@link #initial initial value} start absent
     */
    SerialRun(long seed, int sessions, int transactions, boolean initialStateComplete, InjectedAnomaly anomaly,
            Timing timing) {
        if (sessions < 2 || transactions < 0) {
            throw new IllegalArgumentException("a run needs at least 2 sessions and a non-negative transaction count");
        }
        this.random = new SplittableRandom(seed);
        this.builder = History.builder().initialStateComplete(initialStateComplete);
        this.sessionNames = new String[sessions];
        for (int s = 0; s < sessions; s++) {
            sessionNames[s] = "s" + s;
        }
        this.total = transactions;
        this.timing = timing;
        this.clock = new SplittableRandom(seed ^ 0x2545F4914F6CDD1DL);
        this.unacknowledged = new HistoryBuilder.TransactionBuilder[sessions];
        this.startOf = new long[sessions];
        this.earliestEnd = new long[sessions];
        this.anomaly = anomaly;
        SplittableRandom own = new SplittableRandom(seed ^ 0x9E3779B97F4A7C15L);
        this.injectBefore = own.nextInt(transactions + 1);
        int first = own.nextInt(sessions);
        int second = (first + 1 + own.nextInt(sessions - 1)) % sessions;
        this.injectSessions = new int[] {first, second};
        this.sessionAt = schedule(sessions, transactions);
        this.transactions = new HistoryBuilder.TransactionBuilder[transactions];
        addInSessionOrder();
    }

    /** Which session runs each transaction of the serial order: a random turn among those with transactions left. */
    private int[] schedule(int sessions, int transactions) {
        int[] remaining = new int[sessions];
        List<Integer> active = new ArrayList<>();
        for (int s = 0; s < sessions; s++) {
            remaining[s] = transactions / sessions + (s < transactions % sessions ? 1 : 0);
            if (remaining[s] > 0) {
                active.add(s);
            }
        }
        int[] at = new int[transactions];
        for (int k = 0; k < transactions; k++) {
            int pick = random.nextInt(active.size());
            at[k] = active.get(pick);
            if (--remaining[at[k]] == 0) {
                active.remove(pick);
            }
        }
        return at;
    }

    /**
     * Adds every transaction to the history up front, session after session, as dbcop's and
     * Cobra's files list them: neither the order of the history nor the ids ({@code s3.17}, the
     * 18th transaction of session {@code s3}) give the serial order away.
     */
    private void addInSessionOrder() {
        List<List<Integer>> positions = new ArrayList<>();
        for (int s = 0; s < sessionNames.length; s++) {
            positions.add(new ArrayList<>());
        }
        for (int k = 0; k < total; k++) {
            positions.get(sessionAt[k]).add(k);
        }
        for (int s = 0; s < sessionNames.length; s++) {
            int index = 0;
            boolean injectHere = anomaly != InjectedAnomaly.NONE && (s == injectSessions[0] || s == injectSessions[1]);
            for (int k : positions.get(s)) {
                if (injectHere && k >= injectBefore) {
                    addAnomalyTransaction(s);
                    injectHere = false;
                }
                transactions[k] = builder.transaction(sessionNames[s] + "." + index++).session(sessionNames[s]);
            }
            if (injectHere) {
                addAnomalyTransaction(s);
            }
        }
    }

    private void addAnomalyTransaction(int session) {
        HistoryBuilder.TransactionBuilder t = builder.transaction(session == injectSessions[0] ? "anomaly-a" : "anomaly-b")
                .session(sessionNames[session]);
        if (session == injectSessions[0]) {
            anomalyA = t;
        } else {
            anomalyB = t;
        }
    }

    /**
     * Makes this run continue one that ended in {@code state} having written values below
     * {@code firstValue}: keys start at their values there, and unique values start at {@code firstValue}.
     */
    void continueFrom(Map<String, Integer> state, int firstValue) {
        this.startState = Map.copyOf(state);
        this.nextValue = firstValue;
    }

    /** Declares a key's value before the first transaction. */
    void initial(String key, Integer value) {
        if (startState != null) {
            // Continuing: a key the run before left absent (deleted) starts absent.
            value = startState.get(key);
        }
        builder.initialValue(key, value);
        if (value != null) {
            state.put(key, value);
        }
    }

    /**
     * Declares a row's value before the first transaction, outside the key-value state: the
     * generator that uses rows keeps their state itself (see {@link Tx#writeRow}).
     */
    void initialRow(String key, Map<String, Object> row) {
        builder.initialValue(key, row);
    }

    /** A value never written before: values written this way are unique in the history. */
    int unique() {
        return nextValue++;
    }

    /** Whether every transaction asked for has begun. */
    boolean done() {
        return begun == total;
    }

    /** Begins the next transaction of the serial order. */
    Tx begin() {
        if (done()) {
            throw new IllegalStateException("all " + total + " transactions have run");
        }
        injectIfDue();
        HistoryBuilder.TransactionBuilder t = transactions[begun];
        long at = TIME_STEP * begun;
        time(sessionAt[begun], t, at, at + 1, at + TIME_STEP / 2, 0);
        order.add(t.id());
        transactions[begun] = null;
        begun++;
        return new Tx(t);
    }

    /**
     * Records the times of {@code t}, which takes effect at {@code effect}: {@code [serialStart,
     * serialEnd]} under {@link Timing#SERIAL}; under {@link Timing#OVERLAPPING}, from just after
     * its session's previous transaction was acknowledged to a time, not before {@code effect} nor
     * {@code earliest}, picked when its session's next transaction takes effect.
     */
    private void time(int session, HistoryBuilder.TransactionBuilder t, long serialStart, long serialEnd, long effect,
            long earliest) {
        switch (timing) {
            case SERIAL -> t.times(serialStart, serialEnd);
            case OVERLAPPING -> {
                long start = acknowledge(session, effect - 1) + 1;
                unacknowledged[session] = t;
                startOf[session] = start;
                earliestEnd[session] = Math.max(effect, earliest);
            }
            case NONE -> {
            }
        }
    }

    /**
     * Acknowledges the session's pending transaction at a time up to {@code latest}, and returns
     * that time ({@code -1} when none was pending: sessions start at time 0).
     */
    private long acknowledge(int session, long latest) {
        HistoryBuilder.TransactionBuilder t = unacknowledged[session];
        if (t == null) {
            return -1;
        }
        long low = earliestEnd[session];
        long end = low + clock.nextLong(latest - low + 1);
        t.times(startOf[session], end);
        unacknowledged[session] = null;
        return end;
    }

    /** The history, once every transaction has run; the run cannot be used afterwards. */
    BenchHistory finish(Workloads.Kind workload, long seed, boolean uniqueValues) {
        if (!done()) {
            throw new IllegalStateException(begun + " of " + total + " transactions have run");
        }
        injectIfDue();
        for (int s = 0; s < sessionNames.length; s++) {
            if (unacknowledged[s] != null) {
                acknowledge(s, earliestEnd[s] + TIME_STEP * sessionNames.length);
            }
        }
        History history = builder.build();
        return new BenchHistory(workload, seed, timing, history, anomaly == InjectedAnomaly.NONE ? order : List.of(),
                uniqueValues, anomaly, state, nextValue);
    }

    private void injectIfDue() {
        if (injected || anomaly == InjectedAnomaly.NONE || begun != injectBefore) {
            return;
        }
        injected = true;
        builder.initialValue(ANOMALY_X, 0).initialValue(ANOMALY_Y, 0);
        // Between the previous transaction (effect at 10k - 5) and the next (10k + 5). Each ends after
        // the other took effect: concurrent, so snapshot isolation may let both read the old values.
        long at = TIME_STEP * begun - TIME_STEP / 2;
        HistoryBuilder.TransactionBuilder a = anomalyA;
        HistoryBuilder.TransactionBuilder b = anomalyB;
        if (anomaly == InjectedAnomaly.STALE_READ) {
            // The writer is acknowledged at at + 3, and the reader starts after that.
            time(injectSessions[0], a, at, at + 2, at + 1, at + 2);
            if (timing == Timing.OVERLAPPING) {
                acknowledge(injectSessions[0], at + 2);
                acknowledge(injectSessions[1], at + 2);
                unacknowledged[injectSessions[1]] = b;
                startOf[injectSessions[1]] = at + 3;
                earliestEnd[injectSessions[1]] = at + 4;
            } else {
                time(injectSessions[1], b, at + 3, at + 4, at + 3, at + 4);
            }
        } else {
            time(injectSessions[0], a, at, at + 3, at + 1, at + 3);
            time(injectSessions[1], b, at + 1, at + 4, at + 2, at + 2);
        }
        // Values of their own, not from the shared counter, so the clean transactions keep theirs;
        // still unique, as no one else writes these keys.
        switch (anomaly) {
            case LOST_UPDATE -> {
                a.read(ANOMALY_X, 0).write(ANOMALY_X, 1);
                b.read(ANOMALY_X, 0).write(ANOMALY_X, 2);
            }
            case WRITE_SKEW -> {
                a.read(ANOMALY_X, 0).read(ANOMALY_Y, 0).write(ANOMALY_X, 1);
                b.read(ANOMALY_X, 0).read(ANOMALY_Y, 0).write(ANOMALY_Y, 1);
            }
            case READ_SKEW -> {
                a.write(ANOMALY_X, 1).write(ANOMALY_Y, 1);
                b.read(ANOMALY_X, 0).read(ANOMALY_Y, 1);
            }
            case STALE_READ -> {
                a.write(ANOMALY_X, 1);
                b.read(ANOMALY_X, 0);
            }
            case NONE -> throw new AssertionError();
        }
    }

    /** The running transaction: every operation is applied to the state at once and recorded. */
    final class Tx {

        private final HistoryBuilder.TransactionBuilder recorded;

        private Tx(HistoryBuilder.TransactionBuilder recorded) {
            this.recorded = recorded;
        }

        /** Reads {@code key}: its current value, or {@code null} when absent. */
        Integer read(String key) {
            Integer value = state.get(key);
            recorded.read(key, value);
            return value;
        }

        /** Writes {@code value} to {@code key}; {@code null} deletes it. */
        void write(String key, Integer value) {
            if (value == null) {
                state.remove(key);
            } else {
                state.put(key, value);
            }
            recorded.write(key, value);
        }

        /** Writes a row (an object value); the generator keeps the rows' state and answers predicate reads from it. */
        void writeRow(String key, Map<String, Object> row) {
            recorded.write(key, row);
        }

        /** Records a predicate read of {@code table} that returned {@code rows} (key to row), as the generator computed them. */
        void predicate(String table, String where, Map<String, Object> rows) {
            recorded.predicate(table, where, rows);
        }

        /** Reads {@code key}, then writes a {@link #unique() unique} value to it. */
        void readModifyWrite(String key) {
            read(key);
            write(key, unique());
        }
    }
}
