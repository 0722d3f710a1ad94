package dev.isocheck.internal.explain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.isocheck.CheckResult;
import dev.isocheck.Isocheck;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.explain.Explanation;
import dev.isocheck.format.JsonlHistoryWriter;
import dev.isocheck.history.History;
import dev.isocheck.internal.graph.ReadAnomalies;
import dev.isocheck.internal.reference.ReferenceChecker;
import dev.isocheck.internal.simulate.AnyInitialValues;
import dev.isocheck.internal.simulate.HistoryGenerator;
import dev.isocheck.internal.simulate.SeededRuns;
import dev.isocheck.internal.simulate.SimulatedDatabase;
import dev.isocheck.internal.simulate.Workload;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Every violation of a small history is explained: on seeded histories heavy in predicate reads
 * (rows returned, rows left out, deletes), with most initial values forgotten as a recorder
 * forgets them ({@code "unknown": "any"}), from databases that break each level, every history the
 * reference checker rejects gets, through {@link Isocheck#check}, a cycle in every case of a case
 * analysis, or a single-transaction anomaly screened before the search; never "no explanation".
 *
 * <p>Where the test's own enumeration ({@link BruteForceExplanations}) is small enough, it also
 * checks the two sides of that promise: the reference rejects exactly the histories whose every
 * explanation has a forbidden cycle (so a cycle always exists to be shown; the enumeration's
 * model, one initial value per key included, is the reference's), and the cases shown cover every
 * explanation with their cycles (never wrong). A failure prints the seed and the history.
 */
@DisplayName("explanations: every violated small history with predicate reads and unknown initial values is explained")
class ExplanationCompletenessTests {

    private static final ReferenceChecker REFERENCE = new ReferenceChecker();
    private static final IsolationLevel[] LEVELS = {IsolationLevel.STRICT_SERIALIZABLE, IsolationLevel.SERIALIZABLE,
            IsolationLevel.SNAPSHOT_ISOLATION};
    /** Histories with more explanations than this are checked without the enumeration. */
    private static final long MAX_EXPLANATIONS = 20_000;

    /** Per level: cycles, screened, enumerated, satisfied, too large for the reference. */
    private final Map<IsolationLevel, int[]> tally = new EnumMap<>(IsolationLevel.class);

    @Test
    void everyViolationHasACycleOrAScreenedAnomaly() {
        for (IsolationLevel level : LEVELS) {
            tally.put(level, new int[5]);
        }
        List<SimulatedDatabase> databases = List.of(SimulatedDatabase.readCommitted(), SimulatedDatabase.snapshotIsolation(),
                SimulatedDatabase.lostUpdate(0.5), SimulatedDatabase.staleRead(0.3));
        long base = 7_300_000L;
        for (SimulatedDatabase database : databases) {
            for (int variant = 0; variant < 24; variant++) {
                HistoryGenerator generator = new HistoryGenerator(predicateHeavy(variant), database);
                SeededRuns.forEachHistory(20, base + 1_000L * variant, generator, generated -> {
                    History history = AnyInitialValues.forget(generated.history(), new SplittableRandom(generated.seed()));
                    check(history);
                });
            }
            base += 100_000L;
        }
        for (IsolationLevel level : LEVELS) {
            int[] counts = tally.get(level);
            System.out.printf("completeness at %s: %d violations shown by cycles, %d screened; %d checked against the enumeration,"
                    + " %d satisfied, %d too large for the reference%n", level, counts[0], counts[1], counts[2], counts[3], counts[4]);
            assertThat(counts[0]).as("violations shown by cycles at %s", level).isGreaterThan(40);
            assertThat(counts[2]).as("violations checked against the enumeration at %s", level).isGreaterThan(30);
        }
    }

    /**
     * Small workloads with predicate reads in every transaction mix: two sessions of two to four
     * transactions or three of two (at most eight, the reference's limit), up to three keys of one table and a plain key, values from a small domain (duplicates) or unique,
     * partial rows in half.
     */
    private static Workload predicateHeavy(int variant) {
        return Workload.defaults()
                .withSessions(2 + variant % 2, variant % 2 == 0 ? 2 + (variant / 4) % 3 : 2)
                .withMaxOpsPerTransaction(3 + variant % 2)
                .withKeys(1, 2 + (variant / 2) % 2)
                .withMix(3, 3, 1 + variant % 2, 2 + (variant / 8) % 2)
                .withValueDomain(variant % 3 == 0 ? 0 : 3)
                .withPartialRows(variant % 2 == 0)
                .withAbortProbability(variant % 5 == 0 ? 0.15 : 0.0);
    }

    private void check(History history) {
        for (IsolationLevel level : LEVELS) {
            int[] counts = tally.get(level);
            Verdict reference = REFERENCE.check(history, level);
            if (!reference.isViolated()) {
                counts[reference.isSatisfied() ? 3 : 4]++;
                continue;
            }
            try {
                CheckResult result = Isocheck.check(history, level);
                assertThat(result.isViolated()).as("the checker agrees with the reference").isTrue();
                Explanation explanation = result.explanation().orElseThrow();
                if (explanation instanceof Explanation.Screened) {
                    counts[1]++;
                } else if (explanation instanceof Explanation.Cycles) {
                    counts[0]++;
                } else {
                    fail("not explained by cycles: " + explanation);
                }
                if (ReadAnomalies.find(history).isEmpty()) {
                    enumerate(history, level, explanation, counts);
                }
            } catch (AssertionError e) {
                throw new AssertionError("at " + level + ": " + e.getMessage() + "\n" + jsonl(history), e);
            }
        }
    }

    /** The enumeration's view of a violation: every explanation has a cycle, and the cases cover them all. */
    private static void enumerate(History history, IsolationLevel level, Explanation explanation, int[] counts) {
        BruteForceExplanations brute = new BruteForceExplanations(history, level);
        if (brute.contradiction() || brute.count() > MAX_EXPLANATIONS) {
            return;
        }
        counts[2]++;
        brute.forEach(choice -> assertThat(brute.shortestForbidden(brute.edges(choice)))
                .as("an explanation of a violated history without a forbidden cycle: %s, edges %s", choice, brute.edges(choice))
                .isNotEqualTo(BruteForceExplanations.NONE));
        if (explanation instanceof Explanation.Cycles cycles) {
            brute.assertCovered(cycles.cases(), choice -> true, level);
        }
    }

    private static String jsonl(History history) {
        StringWriter out = new StringWriter();
        try {
            new JsonlHistoryWriter().write(history, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }
}
