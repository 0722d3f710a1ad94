package dev.isocheck.internal.explain;

import dev.isocheck.IsolationLevel;
import dev.isocheck.explain.AnomalyCycle;
import dev.isocheck.explain.Dependency;
import dev.isocheck.explain.DependencyType;
import dev.isocheck.explain.Explanation;
import dev.isocheck.explain.OperationRef;
import dev.isocheck.explain.ReadAnomaly;
import dev.isocheck.history.History;
import dev.isocheck.history.Transaction;
import dev.isocheck.internal.engine.ReadWriteSplit;
import dev.isocheck.internal.graph.ReadAnomalies;
import dev.isocheck.internal.limit.Limits;
import dev.isocheck.internal.saturate.SaturationChecker;
import dev.isocheck.internal.saturate.WeakLevel;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Explains a violation of prefix consistency as the serializability violation of the history split
 * into snapshots and commits; and one of read committed, read atomic or causal consistency from the saturation
 * that found it: the cycle of session order, write-read and forced write-write edges (each forced
 * edge's reason names the axiom, the read and what made the other writer visible), or the one read
 * that shows a violation without a cycle. A violation shown only by cases (duplicate values) is
 * {@link Explanation.Unexplained} with the saturation's words, never a cycle that might not exist.
 */
public final class WeakLevelExplainer implements Explainer {

    private final Explainer strong;

    /** Explains the weak levels, and passes the others to {@code strong}. */
    public WeakLevelExplainer(Explainer strong) {
        this.strong = strong;
    }

    @Override
    public Explanation explain(History history, IsolationLevel level, Collection<String> involved) {
        if (level == IsolationLevel.PREFIX) {
            return prefix(history, involved);
        }
        Optional<WeakLevel> weak = WeakLevel.of(level);
        if (weak.isEmpty()) {
            return strong.explain(history, level, involved);
        }
        SaturationChecker.Outcome outcome = new SaturationChecker().check(history, weak.get(), Limits.none());
        if (!(outcome instanceof SaturationChecker.Outcome.Violated violated)) {
            return new Explanation.Unexplained(level, "the saturation found no violation: " + outcome);
        }
        SaturationChecker.Violation violation = violated.violation();
        if (violation.screening().isPresent()) {
            ReadAnomalies.Finding finding = violation.screening().get();
            return screened(history, level, finding.anomaly().type(), finding.read().transaction(), finding.read().operation(),
                    finding.read().row(), finding.related().stream().map(p -> new int[] {p.transaction(), p.operation(), p.row()})
                            .toList(), finding.anomaly().explanation());
        }
        if (!violation.isCertain()) {
            return new Explanation.Unexplained(level, violation.explanation());
        }
        if (!violation.isCycle()) {
            int[] read = violation.read();
            return screened(history, level, violation.type(), read[0], read[1], read[2], violation.related(),
                    violation.explanation());
        }
        List<String> ids = new ArrayList<>();
        List<Dependency> dependencies = new ArrayList<>();
        for (SaturationChecker.Violation.Step step : violation.steps()) {
            ids.add(step.from());
            DependencyType type = switch (step.kind()) {
                case "session" -> DependencyType.SESSION;
                case "wr" -> DependencyType.WRITE_READ;
                default -> DependencyType.WRITE_WRITE;
            };
            dependencies.add(new Dependency(step.from(), step.to(), type, Optional.ofNullable(step.key()),
                    refs(history, step.fromOperations()), refs(history, step.toOperations()), false, step.reason()));
        }
        AnomalyCycle cycle = new AnomalyCycle(ids, dependencies);
        return new Explanation.Cycles(level, List.of(new Explanation.Case(List.of(), cycle)),
                Narration.summaries(history, new LinkedHashSet<>(ids)));
    }

    /**
     * Prefix consistency, decided as the serializability of the history split into snapshots and
     * commits ({@link ReadWriteSplit}), is explained in the same way: an anomaly one read shows, by
     * the strong explainer on the original history (the split leaves out reads of the reader's own
     * writes); otherwise the serializability violation of the split, whose transactions are the
     * snapshot and commit parts of {@code involved}, told as what breaks prefix consistency.
     */
    private Explanation prefix(History history, Collection<String> involved) {
        if (!ReadAnomalies.find(history).isEmpty()) {
            return atPrefix(strong.explain(history, IsolationLevel.SERIALIZABLE, involved));
        }
        ReadWriteSplit split = ReadWriteSplit.of(history);
        return atPrefix(strong.explain(split.split(), IsolationLevel.SERIALIZABLE, split.splitIds(involved)));
    }

    /** The same explanation, of a violation of prefix consistency. */
    private static Explanation atPrefix(Explanation explanation) {
        IsolationLevel prefix = IsolationLevel.PREFIX;
        if (explanation instanceof Explanation.Cycles cycles) {
            return new Explanation.Cycles(prefix, cycles.cases(), cycles.transactions(), cycles.premises());
        }
        if (explanation instanceof Explanation.LikelyCase likely) {
            return new Explanation.LikelyCase(prefix, likely.assuming(), likely.cases(), likely.transactions(),
                    likely.premises(), likely.unshown());
        }
        if (explanation instanceof Explanation.Screened screened) {
            return new Explanation.Screened(prefix, screened.anomaly(), screened.transactions(), screened.premises());
        }
        return new Explanation.Unexplained(prefix, ((Explanation.Unexplained) explanation).reason());
    }

    private static Explanation screened(History history, IsolationLevel level, dev.isocheck.AnomalyType type, int transaction,
            int operation, int row, List<int[]> related, String text) {
        Transaction reader = history.transaction(transaction);
        OperationRef read = Narration.operation(history, reader, operation, row);
        List<ReadAnomaly.Related> others = new ArrayList<>();
        Set<String> ids = new LinkedHashSet<>();
        ids.add(reader.id());
        for (int[] place : related) {
            Transaction t = history.transaction(place[0]);
            ids.add(t.id());
            others.add(new ReadAnomaly.Related(Narration.operation(history, t, place[1], place[2]), "involved"));
        }
        return new Explanation.Screened(level, new ReadAnomaly(type, read, others, text), Narration.summaries(history, ids));
    }

    private static List<OperationRef> refs(History history, List<int[]> places) {
        List<OperationRef> refs = new ArrayList<>();
        for (int[] place : places) {
            refs.add(Narration.operation(history, history.transaction(place[0]), place[1], place[2]));
        }
        return refs;
    }
}
