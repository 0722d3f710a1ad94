package dev.isocheck.explain;

import dev.isocheck.IsolationLevel;
import java.util.List;

/**
 * The kinds of dependency cycle, in Adya's and Elle's vocabulary, from the most to the least
 * severe (the order levels weaker than serializability stop forbidding them in).
 *
 * <p>A cycle is classified by its data dependencies alone, as Elle's cycle explainer does
 * ({@code elle.txn}): exactly one anti-dependency (rw) is {@link #G_SINGLE}; several, none of them
 * next to another, {@link #G_NONADJACENT}; several with two next to each other,
 * {@link #G2_ITEM}, or {@link #G2} when one comes from a row a predicate read did not return;
 * none, but a write-read, {@link #G1C}; only write-writes, {@link #G0}. Session and real-time
 * edges do not change the type; they add Elle's {@code -process} or {@code -realtime} suffix
 * ({@link AnomalyCycle#anomaly()}).
 *
 * <p>Snapshot isolation forbids exactly the cycles without two adjacent anti-dependencies (Cerone
 * and Gotsman: {@code (SO ∪ WR ∪ WW) ; RW?} must be acyclic): {@link #G0}, {@link #G1C},
 * {@link #G_SINGLE}, {@link #G_NONADJACENT}. Serializability forbids every cycle.
 */
public enum CycleType {

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
    SESSION_REALTIME("session-realtime", "session order contradicts real time");

    private final String shortName;
    private final String description;

    CycleType(String shortName, String description) {
        this.shortName = shortName;
        this.description = description;
    }

    /** The name reports use, e.g. {@code G-single}. */
    public String shortName() {
        return shortName;
    }

    /** A few words a developer who never read Adya can follow. */
    public String description() {
        return description;
    }

    /**
     * The type of a cycle whose edges, in order around the cycle, have these types.
     *
     * @throws IllegalArgumentException if there are fewer than two edges
     */
    public static CycleType of(List<DependencyType> edges) {
        if (edges.size() < 2) {
            throw new IllegalArgumentException("a cycle has at least two edges: " + edges);
        }
        int rw = 0;
        int wr = 0;
        int ww = 0;
        boolean predicate = false;
        for (DependencyType type : edges) {
            rw += type.isAntiDependency() ? 1 : 0;
            wr += type == DependencyType.WRITE_READ ? 1 : 0;
            ww += type == DependencyType.WRITE_WRITE ? 1 : 0;
            predicate |= type == DependencyType.PREDICATE_READ_WRITE;
        }
        if (rw == 1) {
            return G_SINGLE;
        }
        if (rw > 1) {
            return !hasAdjacentAntiDependencies(edges) ? G_NONADJACENT : predicate ? G2 : G2_ITEM;
        }
        return wr > 0 ? G1C : ww > 0 ? G0 : SESSION_REALTIME;
    }

    /** Whether two anti-dependencies follow each other somewhere around the cycle (last to first included). */
    public static boolean hasAdjacentAntiDependencies(List<DependencyType> edges) {
        for (int i = 0; i < edges.size(); i++) {
            if (edges.get(i).isAntiDependency() && edges.get((i + 1) % edges.size()).isAntiDependency()) {
                return true;
            }
        }
        return false;
    }

    /** Whether a history at {@code level} can never contain a cycle of this type. */
    public boolean isForbiddenAt(IsolationLevel level) {
        return switch (level) {
            case SERIALIZABLE -> this != SESSION_REALTIME;
            case STRICT_SERIALIZABLE -> true;
            case SNAPSHOT_ISOLATION -> this == G0 || this == G1C || this == G_SINGLE || this == G_NONADJACENT;
        };
    }

    @Override
    public String toString() {
        return shortName;
    }
}
