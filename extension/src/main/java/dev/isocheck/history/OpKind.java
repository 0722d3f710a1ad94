package dev.isocheck.history;

/** The kinds of operation a transaction performs, in program order. */
public enum OpKind {
    /** Observed a value of one key ({@link Value#ABSENT} when the key did not exist). */
    READ,
    /** Wrote a value to one key; writing {@link Value#ABSENT} deletes it, writing over absent inserts. */
    WRITE,
    /** Read every key of a table whose row satisfied a {@code where} expression; see {@link PredicateRead}. */
    PREDICATE
}
