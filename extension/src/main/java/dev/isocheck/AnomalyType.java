package dev.isocheck;

import static org.apiguardian.api.API.Status.STABLE;

import org.apiguardian.api.API;

/**
 * Every kind of anomaly isocheck names, in the Adya/Elle vocabulary where there is one.
 *
 * <p>The constants come in three groups, in this order:
 * <ol>
 *   <li>the anomalies one read shows, found without search (see {@code docs/semantics.md}):
 *       {@link #G1A}, {@link #G1B}, {@link #INTERNAL}, {@link #THIN_AIR},
 *       {@link #INITIAL_VALUE_CONFLICT};</li>
 *   <li>the kinds of dependency cycle, from the most to the least severe (the order levels weaker
 *       than serializability stop forbidding them in, so {@code compareTo} between two of them
 *       compares severity): {@link #G0}, {@link #G1C}, {@link #G_SINGLE}, {@link #G_NONADJACENT},
 *       {@link #G2_ITEM}, {@link #G2}, {@link #SESSION_REALTIME};</li>
 *   <li>{@link #NO_VALID_ORDER}: what a search over orders found when it names no cycle.</li>
 * </ol>
 *
 * <p>The checkers put kinds of the first and third groups in a {@link Verdict.Violated}'s
 * {@link Anomaly}; an explanation's cycles ({@code dev.isocheck.explain.AnomalyCycle#type()}, which
 * classifies a cycle by its edges) are of the second. The cycle kinds follow Elle's cycle explainer ({@code elle.txn}): a
 * cycle is classified by its data dependencies alone; session and real-time edges do not change
 * its kind, they add Elle's {@code -process} or {@code -realtime} suffix to its name.
 */
@API(status = STABLE, since = "0.1")
public enum AnomalyType {

    /** A committed read can only be explained by a write of an aborted transaction. */
    G1A("G1a", "aborted read"),

    /** A committed read can only be explained by a write that its transaction later overwrote. */
    G1B("G1b", "intermediate read"),

    /** A read returned something other than the transaction's own latest access to the key. */
    INTERNAL("INT", "internal inconsistency"),

    /** No write, and not the initial state, explains the value read. */
    THIN_AIR("thin-air", "read of a value nobody wrote"),

    /** Reads that only the (unknown) initial value can explain saw different initial values. */
    INITIAL_VALUE_CONFLICT("initial-value-conflict", "conflicting reads of the initial value"),

    /** Write cycle: write-write dependencies only (Adya's G0). */
    G0("G0", "write cycle"),

    /** Circular information flow: write-write and write-read dependencies, at least one write-read. */
    G1C("G1c", "circular information flow"),

    /** Exactly one anti-dependency: a transaction missed a write it should have seen or overwritten. */
    G_SINGLE("G-single", "single anti-dependency cycle"),

    /** Several anti-dependencies, no two adjacent: forbidden by snapshot isolation too. */
    G_NONADJACENT("G-nonadjacent", "non-adjacent anti-dependencies"),

    /** Anti-dependencies on items, two of them adjacent: allowed by snapshot isolation. */
    G2_ITEM("G2-item", "item anti-dependency cycle"),

    /** Like {@link #G2_ITEM}, with an anti-dependency on a row a predicate read did not return. */
    G2("G2", "anti-dependency cycle through a predicate read (phantom)"),

    /**
     * No data dependency at all: session order and real time contradict each other (a later
     * transaction of a session ended before an earlier one started). Only strict serializability
     * uses real time, so only it can report this; Elle has no name for it.
     */
    SESSION_REALTIME("session-realtime", "session order contradicts real time"),

    /** No order of the committed transactions allowed at the level explains what they read. */
    NO_VALID_ORDER("no-valid-order", "no order of the committed transactions explains the reads");

    private final String shortName;
    private final String description;

    AnomalyType(String shortName, String description) {
        this.shortName = shortName;
        this.description = description;
    }

    /** The name reports use, e.g. {@code G1a} or {@code G-single}. */
    public String shortName() {
        return shortName;
    }

    /** A few words a developer who never read Adya can follow, e.g. {@code aborted read}. */
    public String description() {
        return description;
    }

    /**
     * Whether a history at {@code level} can never contain an anomaly of this kind.
     *
     * <p>For the cycle kinds: serializability forbids every cycle but {@link #SESSION_REALTIME},
     * strict serializability every cycle; snapshot isolation forbids exactly the cycles without two
     * adjacent anti-dependencies (Cerone and Gotsman: {@code (SO ∪ WR ∪ WW) ; RW?} must be acyclic),
     * {@link #G0}, {@link #G1C}, {@link #G_SINGLE} and {@link #G_NONADJACENT}. The levels below it
     * (prefix, causal, read atomic, read committed) forbid {@link #G0} and {@link #G1C} among these
     * and allow anti-dependency cycles of every kind (prefix consistency allows a lost update, a
     * {@link #G_SINGLE}; it forbids the cycles that remain once each transaction is split into its
     * snapshot and its commit, which its explanations show).
     *
     * <p>For the others it answers {@code true} at every level: every level forbids the anomalies
     * one read shows, and {@link #NO_VALID_ORDER} says of a history that it violates the level it
     * was checked at.
     */
    public boolean isForbiddenAt(IsolationLevel level) {
        return switch (this) {
            case G0, G1C -> true;
            case G_SINGLE, G_NONADJACENT -> level.compareTo(IsolationLevel.SNAPSHOT_ISOLATION) <= 0;
            case G2_ITEM, G2 -> level.compareTo(IsolationLevel.SNAPSHOT_ISOLATION) < 0;
            case SESSION_REALTIME -> level == IsolationLevel.STRICT_SERIALIZABLE;
            case G1A, G1B, INTERNAL, THIN_AIR, INITIAL_VALUE_CONFLICT, NO_VALID_ORDER -> true;
        };
    }

    @Override
    public String toString() {
        return shortName;
    }
}
