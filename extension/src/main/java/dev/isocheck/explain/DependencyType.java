package dev.isocheck.explain;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.isocheck.AnomalyType;
import org.apiguardian.api.API;

/**
 * Why one transaction must precede another (or, for the anti-dependencies, why it did not see the
 * other's write): the edge types of Adya's direct serialization graph, plus the order edges.
 *
 * <p>The edge kinds of the search, with one more distinction: an
 * anti-dependency that comes from a row a predicate read did <em>not</em> return (a phantom) is
 * {@link #PREDICATE_READ_WRITE}, since it is what makes a cycle {@link AnomalyType#G2} rather than
 * {@link AnomalyType#G2_ITEM}.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public enum DependencyType {

    /** Session order: the same session ran the first transaction earlier. */
    SESSION("session", "session order"),

    /** Real time (strict serializability only): the first ended before the second started. */
    REAL_TIME("realtime", "real time"),

    /** Write-read: the second read a version the first installed. */
    WRITE_READ("wr", "write-read"),

    /** Write-write: the first's version of a key precedes the second's. */
    WRITE_WRITE("ww", "write-write"),

    /** Read-write (anti-dependency): the first read a version of a key older than the second's. */
    READ_WRITE("rw", "read-write"),

    /**
     * Predicate read-write: a predicate read of the first did not return a row, and the second
     * installed a later version of that row.
     */
    PREDICATE_READ_WRITE("predicate-rw", "predicate read-write");

    private final String shortName;
    private final String description;

    DependencyType(String shortName, String description) {
        this.shortName = shortName;
        this.description = description;
    }

    /** The name in JSON, DOT and diagrams, e.g. {@code rw}. */
    public String shortName() {
        return shortName;
    }

    /** A few words, e.g. {@code read-write}. */
    public String description() {
        return description;
    }

    /** Whether this is an anti-dependency, item or predicate: the edges the cycle names count. */
    public boolean isAntiDependency() {
        return this == READ_WRITE || this == PREDICATE_READ_WRITE;
    }

    /** Whether this is an order edge (session or real time) rather than a data dependency. */
    public boolean isOrder() {
        return this == SESSION || this == REAL_TIME;
    }

    @Override
    public String toString() {
        return shortName;
    }
}
