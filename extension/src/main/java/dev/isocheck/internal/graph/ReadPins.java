package dev.isocheck.internal.graph;

import java.util.HashMap;
import java.util.Map;

/**
 * Assumptions about which write some reads saw, for checking a history under them: each pinned
 * read, named by its transaction, operation and key (an item read; a row a predicate read returned;
 * or a key a predicate read left out, {@link UnreturnedRows}), has only its pinned source left as a
 * candidate ({@link HyperPolygraph}).
 *
 * <p>Why: the explainer's case analysis over which write a read saw asks the engine whether a
 * history is still violated in the case where a read saw a given write ("solving under an
 * assumption"). A check that honours the pins and answers "violated" says that no valid order of
 * the history has each pinned read see its source; a check that ignores them answers "violated"
 * only when no valid order exists at all, which is stronger, so ignoring pins is always sound.
 *
 * <p>Immutable once built.
 */
public final class ReadPins {

    /** The source of a read of the initial state. */
    public static final int INITIAL = -1;
    /** {@link #sourceOf} of a read no pin names. */
    public static final int NONE = -2;

    private static final ReadPins EMPTY = new ReadPins(Map.of());

    private final Map<Read, Integer> sources;

    private ReadPins(Map<Read, Integer> sources) {
        this.sources = sources;
    }

    /** No pins: every read may have seen any of its candidates. */
    public static ReadPins none() {
        return EMPTY;
    }

    /** Builds pins one read at a time. */
    public static Builder builder() {
        return new Builder();
    }

    /** Whether no read is pinned. */
    public boolean isEmpty() {
        return sources.isEmpty();
    }

    /** How many reads are pinned. */
    public int size() {
        return sources.size();
    }

    /**
     * The source pinned for the read of {@code key} by operation {@code operation} of transaction
     * {@code transaction} (indexes of the history checked): a transaction index, {@link #INITIAL},
     * or {@link #NONE}.
     */
    public int sourceOf(int transaction, int operation, int key) {
        return sources.isEmpty() ? NONE : sources.getOrDefault(new Read(transaction, operation, key), NONE);
    }

    /** A read: of {@code key}, by operation {@code operation} of transaction {@code transaction}. */
    private record Read(int transaction, int operation, int key) {
    }

    @Override
    public String toString() {
        return "ReadPins" + sources;
    }

    /** Collects pins; the last pin of a read wins. */
    public static final class Builder {
        private final Map<Read, Integer> sources = new HashMap<>();

        private Builder() {
        }

        /**
         * Pins the read of {@code key} by operation {@code operation} of {@code transaction} to
         * {@code source}: a transaction index or {@link #INITIAL}.
         */
        public Builder pin(int transaction, int operation, int key, int source) {
            if (transaction < 0 || operation < 0 || key < 0 || source < INITIAL) {
                throw new IllegalArgumentException("not a read and a source: " + transaction + ", " + operation + ", " + key
                        + ", " + source);
            }
            sources.put(new Read(transaction, operation, key), source);
            return this;
        }

        /** The pins collected. */
        public ReadPins build() {
            return sources.isEmpty() ? EMPTY : new ReadPins(Map.copyOf(sources));
        }
    }
}
