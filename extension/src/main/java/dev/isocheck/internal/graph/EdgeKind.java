package dev.isocheck.internal.graph;

/** Why one committed transaction must precede another in every order the search may return. */
public enum EdgeKind {
    /** Session order: the same session ran the first transaction earlier. */
    SESSION,
    /** Real time (strict levels only): the first ended before the second started. */
    REAL_TIME,
    /** Write-read: the second observed a value the first installed. */
    WRITE_READ,
    /** Write-write: the first's version of a key comes before the second's. */
    WRITE_WRITE,
    /** Read-write (anti-dependency): the first observed a version of a key that the second overwrote. */
    READ_WRITE
}
