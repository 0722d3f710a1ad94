package dev.isocheck.internal.simulate;

import java.util.Objects;

/**
 * A misbehaviour that the simulated database actually showed in a generated history, in a
 * committed transaction.
 *
 * @param kind        what went wrong
 * @param reader      the id of the committed transaction that was affected (the one whose read
 *                    or commit was wrong)
 * @param writer      the id of the other transaction involved (whose write was exposed or lost)
 * @param key         the key involved
 * @param description the same in words
 */
public record InjectedBug(Kind kind, String reader, String writer, String key, String description) {

    /** The kinds of misbehaviour a simulated database can show. */
    public enum Kind {
        /** A commit overwrote a key that another transaction committed since its snapshot (no first-committer-wins). */
        LOST_UPDATE,
        /** An external read returned an older committed version than the latest the reader could see. */
        STALE_READ,
        /** An external read returned an uncommitted write of a transaction that then aborted: G1a. */
        ABORTED_READ,
        /** An external read returned an uncommitted write that its transaction overwrote before committing: G1b. */
        INTERMEDIATE_READ,
        /**
         * Read committed re-read a key and saw a different committed value. Not a bug of read
         * committed, but {@code docs/semantics.md} reports it as INT, so the generator reports it.
         */
        NON_REPEATABLE_READ
    }

    /** Validates. */
    public InjectedBug {
        Objects.requireNonNull(kind, "kind is null");
        Objects.requireNonNull(reader, "reader is null");
        Objects.requireNonNull(writer, "writer is null");
        Objects.requireNonNull(key, "key is null");
        Objects.requireNonNull(description, "description is null");
    }
}
