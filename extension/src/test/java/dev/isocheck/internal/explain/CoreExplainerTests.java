package dev.isocheck.internal.explain;

import dev.isocheck.explain.Explanation;
import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.internal.engine.CheckPipeline;
import dev.isocheck.history.History;
import dev.isocheck.internal.simulate.HistoryGenerator;
import dev.isocheck.internal.simulate.SeededRuns;
import dev.isocheck.internal.simulate.SimulatedDatabase;
import dev.isocheck.internal.simulate.Workload;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * On histories of about 30 transactions from broken simulated databases (too many for the
 * exhaustive explainer alone), explaining from a core proves what the verdict's transactions alone
 * do not. Soundness against brute force is {@link ExplainerMinimalityTests}' (with a small bound,
 * so that cores are used there too); the core's minimality is {@link ViolatingCoreTests}'.
 */
@DisplayName("core explainer: explains violations of larger histories that the verdict's transactions alone do not")
class CoreExplainerTests {

    private static final CheckPipeline PIPELINE = new CheckPipeline();
    private static final Explainer CORE = new CoreExplainer();
    private static final Explainer NAMED = new ExhaustiveExplainer();

    @Test
    void coresExplainWhatTheNamedTransactionsDoNot() {
        Map<IsolationLevel, int[]> tally = new EnumMap<>(IsolationLevel.class);
        for (IsolationLevel level : dev.isocheck.internal.saturate.WeakLevel.searchedLevels()) {
            tally.put(level, new int[3]);
        }
        List<SimulatedDatabase> databases = List.of(SimulatedDatabase.snapshotIsolation(), SimulatedDatabase.readCommitted(),
                SimulatedDatabase.lostUpdate(0.3), SimulatedDatabase.staleRead(0.2));
        for (SimulatedDatabase database : databases) {
            HistoryGenerator generator = new HistoryGenerator(Workload.defaults().withSessions(4, 8).withKeys(4, 3), database);
            SeededRuns.forEachHistory(10, 7_500_000L, generator, generated -> {
                History history = generated.history();
                for (IsolationLevel level : dev.isocheck.internal.saturate.WeakLevel.searchedLevels()) {
                    if (!(PIPELINE.check(history, level) instanceof Verdict.Violated violated)) {
                        continue;
                    }
                    List<String> named = violated.anomaly().transactions();
                    Explanation fromCore = CORE.explain(history, level, named);
                    Explanation fromNamed = NAMED.explain(history, level, named);
                    int[] counts = tally.get(level);
                    counts[0]++;
                    if (fromNamed instanceof Explanation.Unexplained) {
                        assertThat(fromCore).as("the core explainer starts with the named transactions, at %s", level)
                                .isNotInstanceOf(Explanation.Screened.class);
                    } else {
                        assertThat(fromCore).as("where the named transactions suffice, the same explanation, at %s", level)
                                .isEqualTo(fromNamed);
                        counts[1]++;
                    }
                    if (fromCore instanceof Explanation.Cycles cycles) {
                        for (Explanation.Case c : cycles.cases()) {
                            assertThat(c.cycle().type().isForbiddenAt(level)).as("%s forbidden at %s", c.cycle(), level).isTrue();
                        }
                        counts[2]++;
                    } else if (fromCore instanceof Explanation.Screened) {
                        counts[2]++;
                    }
                }
            });
        }
        for (IsolationLevel level : dev.isocheck.internal.saturate.WeakLevel.searchedLevels()) {
            int[] counts = tally.get(level);
            System.out.printf("core explainer at %s: %d violations, %d explained from the verdict's transactions, %d with a core%n",
                    level, counts[0], counts[1], counts[2]);
            assertThat(counts[2]).as("explained with a core at %s", level).isGreaterThan(counts[1]);
        }
    }
}
