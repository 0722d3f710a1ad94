package dev.isocheck.internal.engine;

import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.history.History;
import dev.isocheck.internal.graph.ReadPins;
import dev.isocheck.internal.limit.Limits;

/** Decides whether a history satisfies an isolation level. Implementations are named by strategy. */
public interface Checker {

    /**
     * Checks {@code history} at {@code level}.
     *
     * @return never {@code null}
     */
    Verdict check(History history, IsolationLevel level);

    /**
     * Checks {@code history} at {@code level} within {@code limits}: a checker that would go past
     * them answers {@link Verdict.Unknown} saying which, or throws
     * {@link dev.isocheck.internal.limit.LimitExceededException} for its caller to say so. The
     * default ignores them (checkers whose cost is bounded otherwise: the reference checker).
     *
     * @return never {@code null}
     */
    default Verdict check(History history, IsolationLevel level, Limits limits) {
        return check(history, level);
    }

    /**
     * Checks {@code history} at {@code level} within {@code limits}, in the explanations where each
     * pinned read saw its pinned source ({@link ReadPins}): "violated" then says that no valid
     * order of the history has every pinned read see its source. The default ignores the pins and
     * checks every explanation, which is sound (a history with no valid order at all has none
     * with the pins either), only weaker.
     *
     * @return never {@code null}
     */
    default Verdict check(History history, IsolationLevel level, Limits limits, ReadPins pins) {
        return check(history, level, limits);
    }

    /**
     * The limits a check by this checker starts with when given none, starting now: for a caller
     * that must cut them shorter ({@link Limits#until}). The default: none.
     */
    default Limits limits() {
        return Limits.none();
    }
}
