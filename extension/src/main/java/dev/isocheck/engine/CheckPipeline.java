package dev.isocheck.engine;

import dev.isocheck.check.Anomaly;
import dev.isocheck.check.Checker;
import dev.isocheck.check.IsolationLevel;
import dev.isocheck.check.Verdict;
import dev.isocheck.graph.ReadAnomalies;
import dev.isocheck.history.History;
import dev.isocheck.reference.ReferenceChecker;
import dev.isocheck.solve.SatChecker;
import java.util.List;

/**
 * The standard checker: first the anomalies every level forbids and that need no search (aborted
 * and intermediate reads, internal inconsistency, values from thin air, conflicting initial
 * values), then the fast engine ({@link SatChecker}: hyper-polygraph, pruning, SAT).
 *
 * <p>When the engine cannot decide (it does not model the rows a predicate read did not return
 * yet, and says so), a history small enough for the {@link ReferenceChecker} is decided by it
 * instead; otherwise the engine's {@link Verdict.Unknown} stands: never a pass.
 */
public final class CheckPipeline implements Checker {

    private final Checker search;
    private final Checker fallback;

    /** The pipeline with the standard search. */
    public CheckPipeline() {
        this(new SatChecker(), new ReferenceChecker());
    }

    /** A pipeline that screens, then asks {@code search} alone. */
    public CheckPipeline(Checker search) {
        this(search, null);
    }

    private CheckPipeline(Checker search, Checker fallback) {
        this.search = search;
        this.fallback = fallback;
    }

    @Override
    public Verdict check(History history, IsolationLevel level) {
        List<Anomaly> screened = ReadAnomalies.find(history);
        if (!screened.isEmpty()) {
            return new Verdict.Violated(level, screened.get(0));
        }
        Verdict verdict = search.check(history, level);
        if (verdict instanceof Verdict.Unknown unknown && fallback != null) {
            Verdict second = fallback.check(history, level);
            return second instanceof Verdict.Unknown ? unknown : second;
        }
        return verdict;
    }
}
