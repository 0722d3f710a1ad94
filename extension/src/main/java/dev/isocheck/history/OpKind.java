package dev.isocheck.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** The kinds of operation a transaction performs, in program order. */
@API(status = EXPERIMENTAL, since = "0.1")
public enum OpKind {
    /** Observed a value of one key ({@link Value#ABSENT} when the key did not exist). */
    READ,
    /** Wrote a value to one key; writing {@link Value#ABSENT} deletes it, writing over absent inserts. */
    WRITE,
    /** Read every key of a table whose row satisfied a {@code where} expression; see {@link PredicateRead}. */
    PREDICATE
}
