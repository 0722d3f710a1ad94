package dev.isocheck.internal.reference;

import dev.isocheck.history.Value;
import dev.isocheck.internal.predicate.WherePredicate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What the reads explained by one key's unknown initial value say about that value: the merge of
 * the observations so far, and the predicates that did not select the key. Immutable, so that the
 * search backtracks by dropping a reference.
 *
 * <p>Rules of {@code docs/semantics.md}: all observations must be compatible (both absent, equal
 * non-objects, or objects that give no field two different values); a predicate that did not
 * select the key is a contradiction once the value is known present and the fields it names are
 * all known and make it TRUE. The check runs whenever either side grows, so it does not depend on
 * which read the order puts first.
 */
final class InitialValueKnowledge {

    /** Nothing observed yet. */
    static final InitialValueKnowledge NOTHING = new InitialValueKnowledge(null, List.of());

    /** {@code null} before any observation; else absent, a non-object, or the union of observed fields. */
    private final Value merged;
    private final List<WherePredicate> notSelectedBy;

    private InitialValueKnowledge(Value merged, List<WherePredicate> notSelectedBy) {
        this.merged = merged;
        this.notSelectedBy = notSelectedBy;
    }

    /** This knowledge plus an observation of the initial value, or {@code null} if they contradict. */
    InitialValueKnowledge observe(Value observed) {
        Value next = merged == null ? observed : merged.combinedWith(observed).orElse(null);
        if (next == null) {
            return null;
        }
        InitialValueKnowledge knowledge = new InitialValueKnowledge(next, notSelectedBy);
        return knowledge.respectsNonSelections() ? knowledge : null;
    }

    /**
     * This knowledge plus "{@code predicate} did not select the key", or {@code null} if the
     * knowledge shows that it must have.
     */
    InitialValueKnowledge notSelectedBy(WherePredicate predicate) {
        List<WherePredicate> predicates = new ArrayList<>(notSelectedBy);
        predicates.add(predicate);
        InitialValueKnowledge knowledge = new InitialValueKnowledge(merged, predicates);
        return knowledge.respectsNonSelections() ? knowledge : null;
    }

    private boolean respectsNonSelections() {
        if (merged == null || merged.isAbsent()) {
            return true;
        }
        for (WherePredicate predicate : notSelectedBy) {
            if (predicate.certainlySelects(merged)) {
                return false;
            }
        }
        return true;
    }

    /** Equal knowledge leads the rest of a search to the same answer; see {@code OrderSearch}. */
    @Override
    public boolean equals(Object o) {
        return o instanceof InitialValueKnowledge other && Objects.equals(merged, other.merged)
                && notSelectedBy.equals(other.notSelectedBy);
    }

    @Override
    public int hashCode() {
        return Objects.hash(merged, notSelectedBy);
    }
}
