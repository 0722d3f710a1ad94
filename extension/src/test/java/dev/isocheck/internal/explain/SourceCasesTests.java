package dev.isocheck.internal.explain;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.explain.Assumption;
import dev.isocheck.explain.Explanation;
import dev.isocheck.explain.HtmlRenderer;
import dev.isocheck.explain.JsonRenderer;
import dev.isocheck.explain.TextRenderer;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.internal.engine.CheckPipeline;
import dev.isocheck.internal.graph.ReadAnomalies;
import dev.isocheck.internal.saturate.WeakLevel;
import dev.isocheck.internal.simulate.HistoryGenerator;
import dev.isocheck.internal.simulate.SeededRuns;
import dev.isocheck.internal.simulate.SimulatedDatabase;
import dev.isocheck.internal.simulate.SmallWorkloads;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The case analysis over which write a read saw ({@link SourceCases}), with explainers bounded to
 * a few transactions so that cases and the likeliest case are needed on small histories, checked
 * against the brute-force enumeration of every explanation: a complete analysis covers every
 * explanation with a cycle present in each; the likeliest case is possible and has its cycle in
 * every explanation its assumptions allow.
 */
@DisplayName("cases over which write a read saw: sound against brute force, the likeliest case shown when they are too many")
class SourceCasesTests {

    private static final CheckPipeline PIPELINE = new CheckPipeline();
    private static final long MAX_EXPLANATIONS = 4_000;

    /** T3 read x = 1, which T1 and T2 both wrote; with either, a cycle forms (with T1's, through T4). */
    private static History twoWritersOfOneValue() {
        HistoryBuilder b = History.builder().initialValue("x", 0).initialValue("y", 0).initialValue("z", 0)
                .initialStateComplete(true);
        b.transaction("T4").session("d").times(10, 20).write("y", 1);
        b.transaction("T1").session("a").times(30, 40).read("y", 1).write("x", 1);
        b.transaction("T2").session("b").times(50, 60).write("x", 1).write("z", 1);
        b.transaction("T3").session("c").times(70, 80).read("x", 1).read("y", 0).read("z", 0);
        return b.build();
    }

    private static Explanation explain(History history, int bound) {
        int[] all = IntStream.range(0, history.size()).toArray();
        return SourceCases.explain(history, IsolationLevel.SERIALIZABLE, PIPELINE,
                new ExhaustiveExplainer(bound, ExhaustiveExplainer.DEFAULT_BUDGET, ExhaustiveExplainer.DEFAULT_MAX_CASES), all,
                System.nanoTime() + 30_000_000_000L);
    }

    @Test
    void oneCasePerWriterOfTheValueRead() {
        History history = twoWritersOfOneValue();
        Explanation explanation = explain(history, 3);

        assertThat(explanation).isInstanceOf(Explanation.Cycles.class);
        Explanation.Cycles cycles = (Explanation.Cycles) explanation;
        assertThat(cycles.cases()).hasSize(2);
        assertThat(cycles.cases().get(0).assuming()).extracting(Assumption::text)
                .containsExactly("the x = 1 that T3 read was T1's write");
        assertThat(cycles.cases().get(0).cycle().transactions()).containsExactlyInAnyOrder("T1", "T3", "T4");
        assertThat(cycles.cases().get(1).assuming()).extracting(Assumption::text)
                .containsExactly("the x = 1 that T3 read was T2's write");
        assertThat(cycles.cases().get(1).cycle().transactions()).containsExactlyInAnyOrder("T2", "T3");
        BruteForceExplanations brute = new BruteForceExplanations(history, IsolationLevel.SERIALIZABLE);
        assertThat(brute.assertCovered(cycles.cases(), choice -> true, "two writers")).isPositive();
    }

    @Test
    void theLikeliestCaseIsShownWhenAnotherNeedsMoreTransactionsThanTheBound() {
        History history = twoWritersOfOneValue();
        Explanation explanation = explain(history, 2);

        assertThat(explanation).isInstanceOf(Explanation.LikelyCase.class);
        Explanation.LikelyCase likely = (Explanation.LikelyCase) explanation;
        // T2's write is the latest of x = 1 that ended before T3 started.
        assertThat(likely.assuming()).extracting(Assumption::text).containsExactly("the x = 1 that T3 read was T2's write");
        assertThat(likely.cases()).hasSize(1);
        assertThat(likely.cases().get(0).cycle().transactions()).containsExactlyInAnyOrder("T2", "T3");
        assertThat(likely.unshown()).isEqualTo("in the case where the x = 1 that T3 read was T1's write, a minimal violating"
                + " set of transactions has more than 2 transactions, even with a write assumed for every read");
        BruteForceExplanations brute = new BruteForceExplanations(history, IsolationLevel.SERIALIZABLE);
        assertThat(brute.assertCovered(likely.cases(), choice -> brute.holds(likely.assuming(), choice), "likely"))
                .isPositive();

        String text = new TextRenderer().render(likely);
        assertThat(text.lines().findFirst().orElseThrow()).endsWith(", in the likeliest case");
        assertThat(text.replaceAll("\\s+", " "))
                .contains("In the likeliest case (each read saw the last write of its value before its transaction"
                        + " started, where there is one: by the recorded times, or by the order of the history without"
                        + " them) the x = 1 that T3 read was T2's write; then a forbidden cycle forms:")
                .contains("Every other choice of the writes those reads saw forms a forbidden cycle too")
                .contains("T2 -wr x-> T3 -rw z-> T2");
        JsonNode json = new JsonRenderer().toJson(likely);
        assertThat(json.get("kind").asText()).isEqualTo("likely-case");
        assertThat(json.get("assuming")).hasSize(1);
        assertThat(json.get("cases").get(0).get("assuming").get(0).get("text").asText())
                .isEqualTo("the x = 1 that T3 read was T2's write");
        assertThat(json.get("unshown").asText()).isEqualTo(likely.unshown());
        assertThat(new HtmlRenderer().render(likely)).contains("in the likeliest case").contains("<svg");
    }

    /**
     * T3's read of t where v >= 1 returned nothing, so it saw a version of t/1 that is not
     * selected: T1's or T2's (the initial one is selected). With T2's, T2 -wr-> T3 -rw z-> T2; with
     * T1's, a cycle through T4. The key left out is a read like any other to split on.
     */
    private static History twoVersionsOfALeftOutRow() {
        HistoryBuilder b = History.builder().initialValue("y", 0).initialValue("z", 0)
                .initialValue("t/1", Map.of("id", 1, "v", 1)).initialStateComplete(true);
        b.transaction("T4").session("d").times(10, 20).write("y", 1);
        b.transaction("T1").session("a").times(30, 40).read("y", 1).write("t/1", Map.of("id", 1, "v", 0));
        b.transaction("T2").session("b").times(50, 60).write("t/1", Map.of("id", 1, "v", 0)).write("z", 1);
        b.transaction("T3").session("c").times(70, 80).predicate("t", "v >= 1", Map.of()).read("y", 0).read("z", 0);
        return b.build();
    }

    @Test
    void oneCasePerVersionOfAKeyAPredicateReadLeftOut() {
        History history = twoVersionsOfALeftOutRow();
        assertThat(PIPELINE.check(history, IsolationLevel.SERIALIZABLE)).isInstanceOf(Verdict.Violated.class);
        Explanation explanation = explain(history, 3);

        assertThat(explanation).isInstanceOf(Explanation.Cycles.class);
        Explanation.Cycles cycles = (Explanation.Cycles) explanation;
        assertThat(cycles.cases()).hasSize(2);
        assertThat(cycles.cases()).extracting(c -> c.assuming().get(0).text()).containsExactlyInAnyOrder(
                "the version of t/1 that T3's read of t where v >= 1 left out was T1's",
                "the version of t/1 that T3's read of t where v >= 1 left out was T2's");
        BruteForceExplanations brute = new BruteForceExplanations(history, IsolationLevel.SERIALIZABLE);
        assertThat(brute.assertCovered(cycles.cases(), choice -> true, "a key left out")).isPositive();
        assertThat(new TextRenderer().render(cycles)).contains("left out was T1's");
    }

    /**
     * With pins, the exhaustive explainer keeps to the transactions it is given: a proof found over
     * others could rest on a pin whose reader or writer it does not name, which the case analysis
     * would then not state.
     */
    @Test
    void withPinsTheExplainerDoesNotWidenToEveryTransaction() {
        History history = ClassicHistories.writeSkew();
        ExhaustiveExplainer explainer = new ExhaustiveExplainer();
        // T1 alone has no cycle; without pins the explainer widens to both and finds the write skew.
        assertThat(explainer.explain(history, IsolationLevel.SERIALIZABLE, List.of("T1"), java.util.Map.of()))
                .isInstanceOf(Explanation.Cycles.class);
        // Any pin (here T2's read of y pinned to the initial value, which it saw) keeps it to T1.
        int t2 = history.transaction("T2").orElseThrow().index();
        int read = dev.isocheck.internal.graph.ReadExplanations.of(history).firstOf(t2);
        assertThat(explainer.explain(history, IsolationLevel.SERIALIZABLE, List.of("T1"),
                java.util.Map.of(read, ExplanationSpace.INITIAL))).isInstanceOf(Explanation.Unexplained.class);
    }

    @Test
    void casesAndTheLikeliestCaseHoldInEveryExplanationTheyClaim() {
        int[] tally = new int[4];
        List<SimulatedDatabase> databases = List.of(SimulatedDatabase.snapshotIsolation(), SimulatedDatabase.readCommitted(),
                SimulatedDatabase.lostUpdate(0.5), SimulatedDatabase.staleRead(0.3));
        long base = 8_100_000L;
        for (SimulatedDatabase database : databases) {
            for (int variant = 1; variant < 24; variant++) {
                if (variant % 4 == 0) {
                    continue; // unique values: nothing to split on
                }
                HistoryGenerator generator = new HistoryGenerator(SmallWorkloads.variant(variant), database);
                SeededRuns.forEachHistory(4, base + 1_000L * variant, generator, generated -> {
                    for (int bound : new int[] {3, 5}) {
                        check(generated.history(), tally, SourceCases.MAX_CASES, bound);
                        // One case at most: wherever the likeliest case rests on a read's write, it is shown alone.
                        check(generated.history(), tally, 1, bound);
                    }
                });
            }
            base += 100_000L;
        }
        System.out.printf("source cases: %d complete analyses assuming a read's write, %d likeliest cases, %d unexplained,"
                + " %d other proofs%n", tally[0], tally[1], tally[2], tally[3]);
        assertThat(tally[0]).as("complete analyses that assume which write a read saw").isGreaterThan(10);
        assertThat(tally[1]).as("likeliest cases").isGreaterThan(10);
    }

    private static void check(History history, int[] tally, int maxCases, int bound) {
        if (!ReadAnomalies.find(history).isEmpty()) {
            return;
        }
        for (IsolationLevel level : WeakLevel.searchedLevels()) {
            if (!(PIPELINE.check(history, level) instanceof Verdict.Violated violated)) {
                continue;
            }
            BruteForceExplanations brute = new BruteForceExplanations(history, level);
            if (brute.contradiction() || brute.count() > MAX_EXPLANATIONS) {
                continue;
            }
            int[] named = violated.anomaly().transactions().stream()
                    .mapToInt(id -> history.transaction(id).orElseThrow().index()).toArray();
            Explanation explanation = SourceCases.explain(history, level, PIPELINE,
                    new ExhaustiveExplainer(bound, ExhaustiveExplainer.DEFAULT_BUDGET, ExhaustiveExplainer.DEFAULT_MAX_CASES),
                    named, System.nanoTime() + 30_000_000_000L, maxCases);
            String what = level + " " + explanation;
            if (explanation instanceof Explanation.Cycles cycles) {
                brute.assertCovered(cycles.cases(), choice -> true, what);
                cycles.cases().forEach(c -> assertThat(c.cycle().type().isForbiddenAt(level)).as(what).isTrue());
                boolean assumesASource = cycles.cases().stream()
                        .anyMatch(c -> c.assuming().stream().anyMatch(a -> a.text().startsWith("the ")));
                tally[assumesASource ? 0 : 3]++;
            } else if (explanation instanceof Explanation.LikelyCase likely) {
                assertThat(brute.assertCovered(likely.cases(), choice -> brute.holds(likely.assuming(), choice), what))
                        .as("explanations the likeliest case allows: %s", what).isPositive();
                likely.cases().forEach(c -> assertThat(c.cycle().type().isForbiddenAt(level)).as(what).isTrue());
                tally[1]++;
            } else {
                assertThat(explanation).as(what).isInstanceOf(Explanation.Unexplained.class);
                tally[2]++;
            }
        }
    }
}
