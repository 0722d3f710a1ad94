package dev.isocheck.internal.engine;

import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.history.History;

/** Decides whether a history satisfies an isolation level. Implementations are named by strategy. */
public interface Checker {

    /**
     * Checks {@code history} at {@code level}.
     *
     * @return never {@code null}
     */
    Verdict check(History history, IsolationLevel level);
}
