package dev.isocheck.explain;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What one case of a case analysis assumes about the choices a black-box history leaves open: the
 * order in which two transactions' versions of a key were installed, or which write a read saw.
 * Together, the cases of an {@link Explanation.Cycles} cover every possibility.
 *
 * <p>One kind is not a case's but the history's: {@link UnwrittenInitialValue}, a read taken not to
 * have seen its key's unknown initial value because the history does not declare that such a
 * value may be one a transaction writes. An explanation lists those in {@link Explanation#premises()}.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public sealed interface Assumption permits Assumption.VersionOrder, Assumption.ReadFrom, Assumption.UnwrittenInitialValue {

    /** The assumption in words, e.g. {@code T3's x = 3 was installed before T5's x = 5}. */
    String text();

    /**
     * {@code earlier}'s version of {@code key} was installed before {@code later}'s.
     *
     * @param key     the key
     * @param earlier the id of the transaction whose version comes first
     * @param later   the id of the transaction whose version comes after it
     * @param text    the assumption in words
     */
    record VersionOrder(String key, String earlier, String later, String text) implements Assumption {
        /** Validates. */
        public VersionOrder {
            Objects.requireNonNull(key, "key is null");
            Objects.requireNonNull(earlier, "earlier is null");
            Objects.requireNonNull(later, "later is null");
            Objects.requireNonNull(text, "text is null");
        }
    }

    /**
     * A read saw (or did not see) the version a transaction installed, or the initial value; used
     * when several writes, or a write and the initial state, could explain it.
     *
     * @param read   the read (an item read, a row a predicate read returned, or a predicate read
     *               that did not return {@code key})
     * @param key    the key read
     * @param writer the id of the transaction whose version is meant; none for the initial state
     *               (never a transaction the explanation does not show)
     * @param saw    whether the read saw that version ({@code false}: some other one)
     * @param text   the assumption in words
     */
    record ReadFrom(OperationRef read, String key, Optional<String> writer, boolean saw, String text) implements Assumption {
        /** Validates. */
        public ReadFrom {
            Objects.requireNonNull(read, "read is null");
            Objects.requireNonNull(key, "key is null");
            Objects.requireNonNull(writer, "writer is null");
            Objects.requireNonNull(text, "text is null");
        }
    }

    /**
     * A read taken not to have seen its key's initial value only because of how the history reads
     * initial values it does not list: by default ({@code "unknown": "unwritten"} in the history
     * format) such a value is one no transaction writes, and {@code writers} write the value the
     * read saw. A recorder that never saw the database's initial state cannot promise that (a flag
     * set, cleared and set again); listing the key's initial value, or declaring
     * {@code "unknown": "any"}, lets the read be of the initial value.
     *
     * @param read    the read (an item read, or a row a predicate read returned)
     * @param key     the key read
     * @param writers the ids of the transactions that write a value the read is consistent with, in
     *                history order (aborted ones, and the reader itself, included)
     * @param text    the assumption in words
     */
    record UnwrittenInitialValue(OperationRef read, String key, List<String> writers, String text) implements Assumption {
        /** Validates and copies. */
        public UnwrittenInitialValue {
            Objects.requireNonNull(read, "read is null");
            Objects.requireNonNull(key, "key is null");
            writers = List.copyOf(writers);
            Objects.requireNonNull(text, "text is null");
        }
    }
}
