package dev.isocheck.internal.explain;

import dev.isocheck.explain.Explanation;
import dev.isocheck.IsolationLevel;
import dev.isocheck.history.History;
import java.util.Collection;
import java.util.List;

/**
 * Finds the smallest evidence that a history violates a level. Implementations are named by
 * strategy ({@link ExhaustiveExplainer}).
 *
 * <p>An explainer never gives a wrong explanation: when it cannot prove the violation it answers
 * {@link Explanation.Unexplained} with the reason.
 */
public interface Explainer {

    /**
     * Explains why {@code history} violates {@code level}, looking at the transactions
     * {@code involved} names (the ones a verdict named), or at every committed transaction when
     * {@code involved} is empty.
     *
     * @param involved transaction ids; unknown and aborted ones are ignored for cycles
     * @return never {@code null}
     */
    Explanation explain(History history, IsolationLevel level, Collection<String> involved);

    /**
     * Explains why {@code history} violates {@code level}, looking at every committed transaction.
     *
     * @return never {@code null}
     */
    default Explanation explain(History history, IsolationLevel level) {
        return explain(history, level, List.of());
    }
}
