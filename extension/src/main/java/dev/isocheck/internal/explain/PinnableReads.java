package dev.isocheck.internal.explain;

import dev.isocheck.history.History;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.Transaction;
import dev.isocheck.internal.graph.ReadExplanations;
import dev.isocheck.internal.graph.UnreturnedRows;
import dev.isocheck.internal.predicate.WherePredicate;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Every read of a history whose source a case of {@link SourceCases} may assume, under one
 * numbering: first the observations of {@link ReadExplanations} (item reads and the rows predicate
 * reads returned; a read's number there is its number here), then the keys predicate reads left
 * out that constrain the order ({@link UnreturnedRows}: each saw some version its predicate does
 * not select). {@link ViolatingCore} keeps a read in a restriction when every source it may have
 * had is in the restriction or it is pinned to one that is, {@link ExplanationSpace} narrows a
 * pinned read to its source, and the engine solves under the pins ({@link dev.isocheck.internal.graph.ReadPins}).
 *
 * <p>Immutable once built.
 */
final class PinnableReads {

    /** {@link #row(int)} of a key a predicate read left out. */
    static final int UNRETURNED = ExplanationSpace.UNRETURNED;

    private final History history;
    private final ReadExplanations explanations;
    /** The rows predicate reads left out, or {@code null} when there are too many to list. */
    private final UnreturnedRows unreturned;
    /** Per transaction, where its unreturned rows start (they are listed by transaction). */
    private final int[] unreturnedStart;
    private final Map<Read, Integer> unreturnedIds = new HashMap<>();

    private PinnableReads(History history, ReadExplanations explanations) {
        this.history = history;
        this.explanations = explanations;
        UnreturnedRows rows;
        try {
            rows = history.hasCommittedPredicateReads() ? UnreturnedRows.of(explanations) : null;
        } catch (UnreturnedRows.TooManyException e) {
            rows = null;
        }
        this.unreturned = rows;
        this.unreturnedStart = new int[history.size() + 1];
        int count = rows == null ? 0 : rows.size();
        int at = 0;
        for (int t = 0; t <= history.size(); t++) {
            while (at < count && rows.transaction(at) < t) {
                at++;
            }
            unreturnedStart[t] = at;
        }
        for (int r = 0; r < count; r++) {
            unreturnedIds.put(pack(rows.transaction(r), rows.operation(r), rows.key(r)), explanations.size() + r);
        }
    }

    /** The reads of {@code history}. */
    static PinnableReads of(History history) {
        return new PinnableReads(history, ReadExplanations.of(history));
    }

    /** The reads of the history {@code explanations} are of. */
    static PinnableReads of(ReadExplanations explanations) {
        return new PinnableReads(explanations.history(), explanations);
    }

    History history() {
        return history;
    }

    ReadExplanations explanations() {
        return explanations;
    }

    /** How many reads. */
    int size() {
        return explanations.size() + (unreturned == null ? 0 : unreturned.size());
    }

    /** Whether read {@code id} is a key a predicate read left out. */
    boolean isUnreturned(int id) {
        return id >= explanations.size();
    }

    /** The index of the reading transaction. */
    int transaction(int id) {
        return isUnreturned(id) ? unreturned.transaction(id - explanations.size()) : explanations.transaction(id);
    }

    /** The reading operation (an item read, or a predicate read). */
    int operation(int id) {
        return isUnreturned(id) ? unreturned.operation(id - explanations.size()) : explanations.operation(id);
    }

    /** The key read. */
    int key(int id) {
        return isUnreturned(id) ? unreturned.key(id - explanations.size()) : explanations.key(id);
    }

    /** {@code -1} for an item read, the row's number for a returned row, {@link #UNRETURNED} for a key left out. */
    int row(int id) {
        return isUnreturned(id) ? UNRETURNED : explanations.row(id);
    }

    /** The value id read; {@code -1} for a key left out. */
    int value(int id) {
        return isUnreturned(id) ? -1 : explanations.value(id);
    }

    /**
     * Every source read {@code id} may have had in a valid order: {@link ExplanationSpace#INITIAL}
     * first where the initial state can be one, then committed transactions in history order.
     */
    int[] sources(int id) {
        if (isUnreturned(id)) {
            int[] candidates = unreturned.candidates(id - explanations.size());
            for (int i = 0; i < candidates.length; i++) {
                if (candidates[i] == UnreturnedRows.INITIAL) {
                    candidates[i] = ExplanationSpace.INITIAL;
                }
            }
            return candidates;
        }
        int[] writers = explanations.writers(id);
        if (!explanations.initialStateExplains(id)) {
            return writers;
        }
        int[] out = new int[writers.length + 1];
        out[0] = ExplanationSpace.INITIAL;
        System.arraycopy(writers, 0, out, 1, writers.length);
        return out;
    }

    /** The number of the key {@code key} that operation {@code op} of transaction {@code t} (a predicate read) left out, or {@code -1}. */
    int unreturnedId(int t, int op, int key) {
        return unreturnedIds.getOrDefault(pack(t, op, key), -1);
    }

    /** The first number of transaction {@code t}'s unreturned rows. */
    int firstUnreturnedOf(int t) {
        return explanations.size() + unreturnedStart[t];
    }

    /** One past the last number of transaction {@code t}'s unreturned rows. */
    int endUnreturnedOf(int t) {
        return explanations.size() + unreturnedStart[t + 1];
    }

    /**
     * Whether the rows predicate read {@code op} of {@code t} left out are all listed here: its
     * {@code where} is supported and the rows were not too many to list. Otherwise a restriction
     * keeps it only when no transaction left out wrote a row of its table.
     */
    boolean modelsUnreturned(Transaction t, int op) {
        return unreturned != null && t.kind(op) == OpKind.PREDICATE
                && WherePredicate.parse(t.predicate(op).where()) instanceof WherePredicate;
    }

    private static Read pack(int t, int op, int key) {
        return new Read(t, op, key);
    }

    private record Read(int transaction, int operation, int key) {
    }

    @Override
    public String toString() {
        return "PinnableReads" + Arrays.toString(new int[] {explanations.size(), size()});
    }
}
