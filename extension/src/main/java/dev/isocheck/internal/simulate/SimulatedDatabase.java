package dev.isocheck.internal.simulate;

import java.util.Objects;

/**
 * The database a {@link HistoryGenerator} simulates: how it isolates transactions, and which bug,
 * if any, it injects and how often.
 *
 * <p>Correct databases: {@link #serial()}, {@link #snapshotIsolation()} (which allows write skew,
 * so its histories are not always serializable) and {@link #readCommitted()}. Broken ones inject
 * one {@link InjectedBug.Kind} with a probability per opportunity, and the generator reports each
 * time the bug took effect.
 */
public final class SimulatedDatabase {

    /** How the database isolates transactions. */
    public enum Isolation {
        /** One transaction at a time, atomically; sessions interleave at transaction boundaries. */
        SERIAL,
        /**
         * Multi-version: a transaction reads the snapshot taken when it began, buffers its writes,
         * and aborts at commit if another transaction committed a key it wrote since its
         * snapshot (first committer wins). Transactions interleave operation by operation.
         */
        SNAPSHOT_ISOLATION,
        /** Every read sees the latest committed value at the time of the read; commits never conflict. */
        READ_COMMITTED
    }

    private final Isolation isolation;
    private final InjectedBug.Kind bug;
    private final double bugProbability;

    private SimulatedDatabase(Isolation isolation, InjectedBug.Kind bug, double bugProbability) {
        this.isolation = Objects.requireNonNull(isolation, "isolation is null");
        if (!(bugProbability >= 0 && bugProbability <= 1)) {
            throw new IllegalArgumentException("a bug probability must be in [0, 1], not " + bugProbability);
        }
        this.bug = bug;
        this.bugProbability = bugProbability;
    }

    /** Runs transactions one at a time: its histories are strict serializable. */
    public static SimulatedDatabase serial() {
        return new SimulatedDatabase(Isolation.SERIAL, null, 0);
    }

    /** Multi-version snapshot isolation with first-committer-wins. */
    public static SimulatedDatabase snapshotIsolation() {
        return new SimulatedDatabase(Isolation.SNAPSHOT_ISOLATION, null, 0);
    }

    /** Read committed: each read sees the latest committed value. */
    public static SimulatedDatabase readCommitted() {
        return new SimulatedDatabase(Isolation.READ_COMMITTED, null, 0);
    }

    /**
     * Snapshot isolation that, with probability {@code p} per write-write conflict, lets the later
     * committer commit anyway: two transactions that read the same version both install writes.
     */
    public static SimulatedDatabase lostUpdate(double p) {
        return new SimulatedDatabase(Isolation.SNAPSHOT_ISOLATION, InjectedBug.Kind.LOST_UPDATE, p);
    }

    /** A serial database whose external reads, with probability {@code p}, return the previous committed version. */
    public static SimulatedDatabase staleRead(double p) {
        return new SimulatedDatabase(Isolation.SERIAL, InjectedBug.Kind.STALE_READ, p);
    }

    /**
     * Snapshot isolation whose external reads, with probability {@code p} when another open
     * transaction has written the key, return that uncommitted write; the writer then aborts.
     */
    public static SimulatedDatabase abortedRead(double p) {
        return new SimulatedDatabase(Isolation.SNAPSHOT_ISOLATION, InjectedBug.Kind.ABORTED_READ, p);
    }

    /**
     * Snapshot isolation whose external reads, with probability {@code p} when another open
     * transaction has written the key, return that uncommitted write; the writer then overwrites
     * the key and commits.
     */
    public static SimulatedDatabase intermediateRead(double p) {
        return new SimulatedDatabase(Isolation.SNAPSHOT_ISOLATION, InjectedBug.Kind.INTERMEDIATE_READ, p);
    }

    /** How the database isolates transactions. */
    public Isolation isolation() {
        return isolation;
    }

    /** Whether the database injects bugs of this kind. */
    public boolean injects(InjectedBug.Kind kind) {
        return bug == kind;
    }

    /** The chance the bug is injected at each opportunity; 0 for a correct database. */
    public double bugProbability() {
        return bugProbability;
    }

    @Override
    public String toString() {
        return bug == null ? isolation.toString() : isolation + " with " + bug + " (p = " + bugProbability + ")";
    }
}
