package dev.isocheck.internal.simulate;

import java.util.Objects;

/**
 * What the simulated clients do: how many sessions run how many transactions of which operations
 * over which keys and values. Immutable; change it with the {@code with…} methods.
 *
 * <p>Plain keys are named {@code k0, k1, …} and hold integers; row keys are named
 * {@code table/0, table/1, …} and hold rows {@code {"id": i, "v": n}}, so that predicate reads
 * ({@code v >= a AND v < b}) apply to them.
 *
 * @param sessions               how many client sessions
 * @param transactionsPerSession how many transactions each session runs
 * @param maxOpsPerTransaction   each transaction runs between 1 and this many operations
 * @param plainKeys              how many integer keys
 * @param rowKeys                how many row keys of {@code table}
 * @param table                  the table of the row keys
 * @param readWeight             relative frequency of item reads
 * @param writeWeight            relative frequency of writes (inserts when the key is absent)
 * @param deleteWeight           relative frequency of deletes
 * @param predicateWeight        relative frequency of predicate reads (only with row keys)
 * @param valueDomain            {@code 0}: every write writes a value never written before;
 *                               otherwise values are drawn from {@code [0, valueDomain)}, which
 *                               forces duplicates
 * @param abortProbability       the chance that a client aborts a transaction at its end
 * @param recordTimes            whether transactions carry start and end times
 * @param initialState           what the history says about the initial state
 * @param partialRows            whether reads sometimes return only the {@code v} column of a row
 */
public record Workload(int sessions, int transactionsPerSession, int maxOpsPerTransaction, int plainKeys,
        int rowKeys, String table, int readWeight, int writeWeight, int deleteWeight, int predicateWeight,
        int valueDomain, double abortProbability, boolean recordTimes, InitialKnowledge initialState,
        boolean partialRows) {

    /** What a generated history declares about the state before its first transaction. */
    public enum InitialKnowledge {
        /** Every key listed: integers start at 0, rows at {@code v = 0} or absent. */
        KNOWN,
        /** Nothing listed, and the state is complete: every key starts absent. */
        COMPLETE,
        /**
         * Nothing listed, not complete: each key starts absent or at a negative value that no
         * transaction writes, as {@code docs/semantics.md} assumes of an unknown initial value.
         */
        UNKNOWN
    }

    /** Validates. */
    public Workload {
        Objects.requireNonNull(table, "table is null");
        Objects.requireNonNull(initialState, "initialState is null");
        if (sessions < 1 || transactionsPerSession < 0 || maxOpsPerTransaction < 1) {
            throw new IllegalArgumentException("a workload needs a session and at least one operation per transaction");
        }
        if (plainKeys < 0 || rowKeys < 0 || plainKeys + rowKeys == 0) {
            throw new IllegalArgumentException("a workload needs at least one key");
        }
        if (table.isEmpty() || table.contains("/")) {
            throw new IllegalArgumentException("a table name must be non-empty and contain no '/': " + table);
        }
        if (readWeight < 0 || writeWeight < 0 || deleteWeight < 0 || predicateWeight < 0
                || readWeight + writeWeight + deleteWeight + (rowKeys > 0 ? predicateWeight : 0) == 0) {
            throw new IllegalArgumentException("operation weights must be non-negative, and some operation must be possible");
        }
        if (valueDomain < 0 || valueDomain == 1) {
            throw new IllegalArgumentException("the value domain is 0 (unique values) or at least 2, not " + valueDomain);
        }
        if (!(abortProbability >= 0 && abortProbability <= 1)) {
            throw new IllegalArgumentException("the abort probability must be in [0, 1], not " + abortProbability);
        }
    }

    /** A small mixed workload: 4 sessions of 10 transactions of up to 6 operations over 3 plain and 3 row keys. */
    public static Workload defaults() {
        return new Workload(4, 10, 6, 3, 3, "t", 5, 4, 1, 1, 0, 0.1, true, InitialKnowledge.KNOWN, true);
    }

    /** The total number of transactions. */
    public int transactions() {
        return sessions * transactionsPerSession;
    }

    /** A copy with another number of sessions and transactions per session. */
    public Workload withSessions(int sessions, int transactionsPerSession) {
        return new Workload(sessions, transactionsPerSession, maxOpsPerTransaction, plainKeys, rowKeys, table,
                readWeight, writeWeight, deleteWeight, predicateWeight, valueDomain, abortProbability, recordTimes,
                initialState, partialRows);
    }

    /** A copy with another maximum number of operations per transaction. */
    public Workload withMaxOpsPerTransaction(int maxOpsPerTransaction) {
        return new Workload(sessions, transactionsPerSession, maxOpsPerTransaction, plainKeys, rowKeys, table,
                readWeight, writeWeight, deleteWeight, predicateWeight, valueDomain, abortProbability, recordTimes,
                initialState, partialRows);
    }

    /** A copy with other key counts. */
    public Workload withKeys(int plainKeys, int rowKeys) {
        return new Workload(sessions, transactionsPerSession, maxOpsPerTransaction, plainKeys, rowKeys, table,
                readWeight, writeWeight, deleteWeight, predicateWeight, valueDomain, abortProbability, recordTimes,
                initialState, partialRows);
    }

    /** A copy whose row keys belong to another table. */
    public Workload withTable(String table) {
        return new Workload(sessions, transactionsPerSession, maxOpsPerTransaction, plainKeys, rowKeys, table,
                readWeight, writeWeight, deleteWeight, predicateWeight, valueDomain, abortProbability, recordTimes,
                initialState, partialRows);
    }

    /** A copy with another operation mix. */
    public Workload withMix(int readWeight, int writeWeight, int deleteWeight, int predicateWeight) {
        return new Workload(sessions, transactionsPerSession, maxOpsPerTransaction, plainKeys, rowKeys, table,
                readWeight, writeWeight, deleteWeight, predicateWeight, valueDomain, abortProbability, recordTimes,
                initialState, partialRows);
    }

    /** A copy with another value domain: {@code 0} for unique values, else the number of distinct values. */
    public Workload withValueDomain(int valueDomain) {
        return new Workload(sessions, transactionsPerSession, maxOpsPerTransaction, plainKeys, rowKeys, table,
                readWeight, writeWeight, deleteWeight, predicateWeight, valueDomain, abortProbability, recordTimes,
                initialState, partialRows);
    }

    /** A copy with another abort probability. */
    public Workload withAbortProbability(double abortProbability) {
        return new Workload(sessions, transactionsPerSession, maxOpsPerTransaction, plainKeys, rowKeys, table,
                readWeight, writeWeight, deleteWeight, predicateWeight, valueDomain, abortProbability, recordTimes,
                initialState, partialRows);
    }

    /** A copy that does or does not record start and end times. */
    public Workload withRecordTimes(boolean recordTimes) {
        return new Workload(sessions, transactionsPerSession, maxOpsPerTransaction, plainKeys, rowKeys, table,
                readWeight, writeWeight, deleteWeight, predicateWeight, valueDomain, abortProbability, recordTimes,
                initialState, partialRows);
    }

    /** A copy with another declared initial state. */
    public Workload withInitialState(InitialKnowledge initialState) {
        return new Workload(sessions, transactionsPerSession, maxOpsPerTransaction, plainKeys, rowKeys, table,
                readWeight, writeWeight, deleteWeight, predicateWeight, valueDomain, abortProbability, recordTimes,
                initialState, partialRows);
    }

    /** A copy whose reads do or do not sometimes return only the {@code v} column of a row. */
    public Workload withPartialRows(boolean partialRows) {
        return new Workload(sessions, transactionsPerSession, maxOpsPerTransaction, plainKeys, rowKeys, table,
                readWeight, writeWeight, deleteWeight, predicateWeight, valueDomain, abortProbability, recordTimes,
                initialState, partialRows);
    }
}
