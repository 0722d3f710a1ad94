package dev.isocheck.bench;

import dev.isocheck.GpuMode;
import dev.isocheck.internal.engine.Checker;
import dev.isocheck.internal.limit.Limits;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.history.History;
import dev.isocheck.internal.prune.PrunedPolygraph;
import dev.isocheck.internal.solve.SatChecker;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The SAT engine as a {@link Checker} that keeps the {@link SatChecker.Report} of its last check,
 * so that the benchmark can print time per stage and the constraints before and after pruning
 * while measuring the pipeline a user runs.
 */
final class StageTimings implements Checker {

    private final SatChecker engine;
    private SatChecker.Report last;

    StageTimings(SatChecker.Search search, boolean narrowCycles, GpuMode gpu) {
        engine = new SatChecker(java.time.Duration.ofMinutes(10), search, narrowCycles, gpu);
    }

    @Override
    public Verdict check(History history, IsolationLevel level) {
        return check(history, level, Limits.none());
    }

    /** Within the pipeline's limits (its time limit and memory budget), as the product checks. */
    @Override
    public Verdict check(History history, IsolationLevel level, Limits limits) {
        last = null;
        SatChecker.Report report = engine.run(history, level, limits);
        last = report;
        return report.verdict();
    }

    /**
     * Stage name to milliseconds, then the counts the issue asks for (constraint pairs and reads
     * before and after pruning, SAT variables, cycles learnt); empty when the engine did not run
     * (the pipeline's screening decided first).
     */
    Map<String, Double> stages() {
        Map<String, Double> stages = new LinkedHashMap<>();
        SatChecker.Report r = last;
        if (r == null) {
            return stages;
        }
        stages.put("build", (double) r.buildMillis());
        stages.put("prune", (double) r.pruneMillis());
        stages.put("encode", (double) r.encodeMillis());
        stages.put("solve", (double) r.solveMillis());
        PrunedPolygraph.Statistics p = r.pruning();
        if (p != null) {
            stages.put("pairs", (double) p.pairsBefore());
            stages.put("pairs'", (double) p.pairsAfter());
            stages.put("reads", (double) p.readsBefore());
            stages.put("reads'", (double) p.readsAfter());
            stages.put("rounds", (double) p.rounds());
        }
        stages.put("vars", (double) r.variables());
        stages.put("learnt", (double) r.cyclesLearnt());
        return stages;
    }
}
