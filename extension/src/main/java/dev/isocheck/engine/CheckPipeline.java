package dev.isocheck.engine;

import dev.isocheck.check.Anomaly;
import dev.isocheck.check.Checker;
import dev.isocheck.check.IsolationLevel;
import dev.isocheck.check.Verdict;
import dev.isocheck.graph.ReadAnomalies;
import dev.isocheck.history.History;
import dev.isocheck.reference.ReferenceChecker;
import java.util.List;

/**
 * The standard checker: first the anomalies every level forbids and that need no search (aborted
 * and intermediate reads, internal inconsistency, values from thin air, conflicting initial
 * values), then a search for an order allowed at the level.
 *
 * <p>Until the fast engine lands, the search is the {@link ReferenceChecker}, so histories beyond
 * its size are answered {@link Verdict.Unknown}: never a pass.
 */
public final class CheckPipeline implements Checker {

    private final Checker search;

    /** The pipeline with the standard search. */
    public CheckPipeline() {
        this(new ReferenceChecker());
    }

    /** A pipeline that screens, then asks {@code search}. */
    public CheckPipeline(Checker search) {
        this.search = search;
    }

    @Override
    public Verdict check(History history, IsolationLevel level) {
        List<Anomaly> screened = ReadAnomalies.find(history);
        if (!screened.isEmpty()) {
            return new Verdict.Violated(level, screened.get(0));
        }
        return search.check(history, level);
    }
}
