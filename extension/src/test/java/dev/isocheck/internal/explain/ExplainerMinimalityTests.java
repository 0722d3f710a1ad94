package dev.isocheck.internal.explain;

import dev.isocheck.explain.Explanation;
import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.internal.engine.CheckPipeline;
import dev.isocheck.internal.graph.ReadAnomalies;
import dev.isocheck.history.History;
import dev.isocheck.history.Transaction;
import dev.isocheck.internal.reference.ReferenceChecker;
import dev.isocheck.history.UnknownInitialValues;
import dev.isocheck.internal.simulate.AnyInitialValues;
import dev.isocheck.internal.simulate.HistoryGenerator;
import dev.isocheck.internal.simulate.SeededRuns;
import dev.isocheck.internal.simulate.SimulatedDatabase;
import dev.isocheck.internal.simulate.SmallWorkloads;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * On seeded small histories from correct and broken simulated databases, the explainer against the
 * reference checker and the test's own enumeration of every explanation
 * ({@link BruteForceExplanations}):
 *
 * <ul>
 *   <li><b>never wrong</b>: a history the reference accepts gets no proof; in every explanation,
 *       some case's assumptions hold, and whenever they hold, its cycle is there;</li>
 *   <li><b>minimal</b>: no case's cycle is longer than {@code L}, the longest among the
 *       explanations' shortest forbidden cycles (the database may have chosen the explanation
 *       whose shortest cycle is {@code L}, so no proof can use shorter cycles throughout), and
 *       when one cycle is certain it has exactly {@code L} transactions;</li>
 *   <li><b>complete within its model</b>: when every explanation has a forbidden cycle, the
 *       explainer finds a proof (it may answer "unexplained" only when some explanation has
 *       none, that is, when the violation rests on something cycles do not show).</li>
 * </ul>
 *
 * A failure names the seed and prints the history.
 */
@DisplayName("explanations: never wrong, minimal, complete, against brute force")
class ExplainerMinimalityTests {

    private static final ReferenceChecker REFERENCE = new ReferenceChecker();
    private static final Explainer EXPLAINER = new ExhaustiveExplainer();
    private static final CheckPipeline PIPELINE = new CheckPipeline();
    /** Explains from a core whenever the verdict's transactions are more than 3, or do not prove it. */
    private static final Explainer CORE = new CoreExplainer(new ExhaustiveExplainer(3, ExhaustiveExplainer.DEFAULT_BUDGET,
            ExhaustiveExplainer.DEFAULT_MAX_CASES), PIPELINE, java.time.Duration.ofSeconds(60));
    /** Histories with more explanations than this are skipped (the brute force would take too long). */
    private static final long MAX_EXPLANATIONS = 4_000;

    /**
     * Per level: certain cycles, case analyses, violations no cycle shows, skipped, satisfied, proofs
     * from the verdict's transactions, proofs from a core.
     */
    private final Map<IsolationLevel, int[]> tally = new EnumMap<>(IsolationLevel.class);

    @Test
    void reportedCyclesAreSoundAndNoLongerThanTheWorstExplanationNeeds() {
        for (IsolationLevel level : dev.isocheck.internal.saturate.WeakLevel.searchedLevels()) {
            tally.put(level, new int[7]);
        }
        List<SimulatedDatabase> databases = List.of(SimulatedDatabase.serial(), SimulatedDatabase.snapshotIsolation(),
                SimulatedDatabase.readCommitted(), SimulatedDatabase.lostUpdate(0.5), SimulatedDatabase.staleRead(0.3));
        long base = 5_500_000L;
        for (SimulatedDatabase database : databases) {
            for (int variant = 0; variant < 24; variant++) {
                HistoryGenerator generator = new HistoryGenerator(SmallWorkloads.variant(variant), database);
                SeededRuns.forEachHistory(5, base + 1_000L * variant, generator, generated -> check(generated.history()));
            }
            base += 100_000L;
        }
        for (IsolationLevel level : dev.isocheck.internal.saturate.WeakLevel.searchedLevels()) {
            int[] counts = tally.get(level);
            System.out.printf("explainer at %s: %d certain cycles, %d case analyses, %d violations not shown by a cycle,"
                    + " %d satisfied, %d skipped; %d proofs from the verdict's transactions, %d from a core%n", level, counts[0],
                    counts[1], counts[2], counts[4], counts[3], counts[5], counts[6]);
            assertThat(counts[6]).as("proofs from a core at %s", level).isGreaterThan(30);
            assertThat(counts[0] + counts[1]).as("proofs at %s", level).isGreaterThan(30);
        }
        assertThat(tally.values().stream().mapToInt(c -> c[1]).sum()).as("case analyses").isGreaterThan(5);
    }

    /**
     * The same histories as a recorder writes them ({@link AnyInitialValues}: most initial values
     * forgotten). With {@code "unknown": "any"} the explanations must be as sound and minimal. With
     * the default reading the forgotten values are taken to be unwritten, which may make violations
     * of correct histories: an explanation that lists no premise
     * ({@link Explanation#premises()}) must describe a violation that {@code "unknown": "any"} keeps,
     * and one that {@code "unknown": "any"} removes must say that it rests on the default reading.
     */
    @Test
    void explanationsOfRecordedHistoriesAreSoundAndSayWhenTheyRestOnUnwrittenInitialValues() {
        for (IsolationLevel level : dev.isocheck.internal.saturate.WeakLevel.searchedLevels()) {
            tally.put(level, new int[7]);
        }
        int[] premises = new int[3];
        List<SimulatedDatabase> databases = List.of(SimulatedDatabase.serial(), SimulatedDatabase.snapshotIsolation(),
                SimulatedDatabase.readCommitted(), SimulatedDatabase.lostUpdate(0.5), SimulatedDatabase.staleRead(0.3));
        long base = 5_600_000L;
        for (SimulatedDatabase database : databases) {
            for (int variant = 0; variant < 24; variant++) {
                HistoryGenerator generator = new HistoryGenerator(SmallWorkloads.variant(variant), database);
                SeededRuns.forEachHistory(2, base + 1_000L * variant, generator, generated -> {
                    History any = AnyInitialValues.forget(generated.history(), new SplittableRandom(generated.seed()));
                    History unwritten = AnyInitialValues.forget(generated.history(), new SplittableRandom(generated.seed()),
                            UnknownInitialValues.UNWRITTEN);
                    try {
                        check(any);
                        premises(unwritten, any, premises);
                    } catch (AssertionError e) {
                        throw new AssertionError(e.getMessage() + "\n(the history below with initial values forgotten by"
                                + " AnyInitialValues, seeded with the history's seed)", e);
                    }
                });
            }
            base += 100_000L;
        }
        for (IsolationLevel level : dev.isocheck.internal.saturate.WeakLevel.searchedLevels()) {
            int[] counts = tally.get(level);
            System.out.printf("explainer at %s, \"unknown\": \"any\": %d certain cycles, %d case analyses, %d violations not"
                    + " shown by a cycle, %d satisfied, %d skipped%n", level, counts[0], counts[1], counts[2], counts[4], counts[3]);
            assertThat(counts[0] + counts[1]).as("proofs at %s", level).isGreaterThan(3);
        }
        System.out.printf("explainer, unknown initial values unwritten: %d explanations with premises, %d without;"
                + " %d of the violations gone with \"unknown\": \"any\"%n", premises[0], premises[1], premises[2]);
        assertThat(premises[0]).as("explanations resting on unwritten initial values").isGreaterThan(20);
        assertThat(premises[2]).as("violations that \"unknown\": \"any\" removes").isGreaterThan(10);
    }

    /**
     * {@code unwritten} and {@code any} differ only in their {@code "unknown"}: every explanation of
     * a violation of {@code unwritten} without premises holds for {@code any} too; tallies
     * {@code [with premises, without, violations any removes]}.
     */
    private static void premises(History unwritten, History any, int[] tally) {
        for (IsolationLevel level : dev.isocheck.internal.saturate.WeakLevel.searchedLevels()) {
            if (!(PIPELINE.check(unwritten, level) instanceof Verdict.Violated violated)) {
                continue;
            }
            Explanation explanation = CORE.explain(unwritten, level, violated.anomaly().transactions());
            boolean removed = REFERENCE.check(any, level).isSatisfied();
            tally[2] += removed ? 1 : 0;
            if (explanation instanceof Explanation.Unexplained) {
                continue;
            }
            tally[explanation.premises().isEmpty() ? 1 : 0]++;
            if (removed) {
                assertThat(explanation.premises()).as("an explanation of a violation that \"unknown\": \"any\" removes,"
                        + " at %s: %s", level, explanation).isNotEmpty();
            }
            for (var premise : explanation.premises()) {
                assertThat(unwritten.initialState().isKnown(unwritten.keys().idOf(premise.key()))).isFalse();
                assertThat(premise.writers()).isNotEmpty();
            }
        }
    }

    private static void assertSound(BruteForceExplanations brute, Explanation.Cycles cycles, IsolationLevel level) {
        assertSound(brute, cycles, level, choice -> true);
    }

    /** Every case's cycle is in every explanation {@code possible} keeps that the case's assumptions allow. */
    private static void assertSound(BruteForceExplanations brute, Explanation.Cycles cycles, IsolationLevel level,
            Predicate<BruteForceExplanations.Choice> possible) {
        brute.assertCovered(cycles.cases(), possible, level);
    }

    private void check(History history) {
        if (!ReadAnomalies.find(history).isEmpty()) {
            return;
        }
        for (IsolationLevel level : dev.isocheck.internal.saturate.WeakLevel.searchedLevels()) {
            int[] counts = tally.get(level);
            BruteForceExplanations brute = new BruteForceExplanations(history, level);
            if (brute.contradiction() || brute.count() > MAX_EXPLANATIONS) {
                counts[3]++;
                continue;
            }
            Verdict reference = REFERENCE.check(history, level);
            Explanation explanation = EXPLAINER.explain(history, level);
            int[] worst = {0};
            brute.forEach(choice -> worst[0] = Math.max(worst[0], brute.shortestForbidden(brute.edges(choice))));
            boolean everyExplanationHasACycle = worst[0] != BruteForceExplanations.NONE;
            if (reference.isSatisfied()) {
                assertThat(everyExplanationHasACycle).as("an accepted history has an explanation without a forbidden cycle at %s",
                        level).isFalse();
            }
            if (!everyExplanationHasACycle) {
                assertThat(explanation).as("no proof where an explanation has no cycle, at %s", level)
                        .isInstanceOf(Explanation.Unexplained.class);
                counts[reference.isViolated() ? 2 : 4]++;
                continue;
            }
            assertThat(reference.isViolated()).as("the reference rejects a history whose every explanation has a cycle, at %s", level)
                    .isTrue();
            assertThat(explanation).as("a proof at %s: %s", level, explanation).isInstanceOf(Explanation.Cycles.class);
            Explanation.Cycles cycles = (Explanation.Cycles) explanation;
            assertThat(cycles.longest()).as("the longest case's cycle at %s, against the worst explanation", level)
                    .isEqualTo(worst[0]);
            for (Explanation.Case c : cycles.cases()) {
                assertThat(c.cycle().type().isForbiddenAt(level)).as("%s forbidden at %s", c.cycle(), level).isTrue();
            }
            assertSound(brute, cycles, level);
            // Against the semantics of one initial value per key, judged choice by choice rather
            // than by the rule the explainer and the enumeration above share.
            BruteForceExplanations every = BruteForceExplanations.everyChoice(history, level);
            if (every.count() <= 5_000) {
                assertSound(every, cycles, level, every::initialValuesAgree);
            }
            // Explaining from the transactions the pipeline's verdict names (possibly only some of a
            // cycle's) must be as sound, if not as short.
            Verdict verdict = PIPELINE.check(history, level);
            if (verdict instanceof Verdict.Violated violated
                    && EXPLAINER.explain(history, level, violated.anomaly().transactions()) instanceof Explanation.Cycles named) {
                assertSound(brute, named, level);
                counts[5]++;
            }
            // From a core of the history (a minimal set of transactions whose restriction the
            // pipeline finds violated): whatever it proves must hold in the whole history too.
            Explanation fromCore = verdict instanceof Verdict.Violated violated
                    ? CORE.explain(history, level, violated.anomaly().transactions()) : null;
            if (fromCore instanceof Explanation.Cycles proof) {
                assertSound(brute, proof, level);
                counts[6]++;
            } else if (fromCore instanceof Explanation.LikelyCase likely) {
                // The case shown must be possible, and prove a cycle wherever its assumptions hold.
                assertThat(brute.assertCovered(likely.cases(), choice -> brute.holds(likely.assuming(), choice), level))
                        .as("explanations where the likeliest case's assumptions hold, at %s", level).isPositive();
                counts[6]++;
            }
            // And from every set of all committed transactions but one: a read whose writer is left
            // out derives nothing, so whatever proof comes back must still hold in the whole history.
            if (brute.count() <= 500) {
                List<String> ids = history.transactions().stream().filter(Transaction::isCommitted).map(Transaction::id).toList();
                for (String left : ids) {
                    List<String> others = ids.stream().filter(id -> !id.equals(left)).toList();
                    if (EXPLAINER.explain(history, level, others) instanceof Explanation.Cycles partial) {
                        assertSound(brute, partial, level);
                    }
                }
            }
            counts[cycles.isCertain() ? 0 : 1]++;
        }
    }
}
