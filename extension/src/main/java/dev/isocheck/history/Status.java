package dev.isocheck.history;

/** How a transaction ended. Only committed transactions install their writes. */
public enum Status {
    /** The commit was acknowledged. */
    COMMITTED,
    /** The transaction rolled back or was aborted by the database; it installs nothing. */
    ABORTED
}
