package dev.isocheck.internal.saturate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.AnomalyType;
import dev.isocheck.CheckResult;
import dev.isocheck.Isocheck;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.explain.Explanation;
import dev.isocheck.explain.TextRenderer;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.UnknownInitialValues;
import dev.isocheck.internal.engine.CheckPipeline;
import dev.isocheck.internal.limit.Limits;
import dev.isocheck.internal.reference.ReferenceChecker;
import dev.isocheck.internal.simulate.HistoryGenerator;
import dev.isocheck.internal.simulate.SimulatedDatabase;
import dev.isocheck.internal.simulate.Workload;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("saturation: read committed, read atomic, causal")
class SaturationCheckerTests {

    private static final CheckPipeline PIPELINE = new CheckPipeline();

    private static HistoryBuilder complete() {
        return History.builder().initialValue("x", 0).initialValue("y", 0).initialStateComplete(true);
    }

    /** The levels from the weakest, with whether the history satisfies each, checked by the pipeline and the reference. */
    private static void assertLevels(History h, boolean readCommitted, boolean readAtomic, boolean causal) {
        List<IsolationLevel> levels = List.of(IsolationLevel.READ_COMMITTED, IsolationLevel.READ_ATOMIC, IsolationLevel.CAUSAL);
        List<Boolean> expected = List.of(readCommitted, readAtomic, causal);
        for (int i = 0; i < levels.size(); i++) {
            assertThat(PIPELINE.check(h, levels.get(i)).isSatisfied()).as("pipeline at %s", levels.get(i)).isEqualTo(expected.get(i));
            assertThat(new ReferenceChecker().check(h, levels.get(i)).isSatisfied()).as("reference at %s", levels.get(i))
                    .isEqualTo(expected.get(i));
        }
    }

    @Test
    void aFracturedReadIsReadCommittedButNotReadAtomic() {
        HistoryBuilder b = complete();
        b.transaction("T1").write("x", 1).write("y", 1);
        b.transaction("T2").read("y", 0).read("x", 1);
        History fractured = b.build();
        assertLevels(fractured, true, false, false);
        Explanation explanation = Isocheck.check(fractured, IsolationLevel.READ_ATOMIC).explanation().orElseThrow();
        assertThat(explanation).isInstanceOf(Explanation.Screened.class);
        assertThat(new dev.isocheck.explain.HtmlRenderer().render(explanation)).contains("Read Atomic");
        assertThat(new TextRenderer().render(explanation)).contains("the read: T2 operation 0, read y = 0");
        // Seen the other way round, read committed breaks too: T2 saw T1 and then read y from before it.
        HistoryBuilder c = complete();
        c.transaction("T1").write("x", 1).write("y", 1);
        c.transaction("T2").read("x", 1).read("y", 0);
        assertLevels(c.build(), false, false, false);
    }

    @Test
    void aNonRepeatableReadIsReadCommittedOnly() {
        HistoryBuilder b = complete();
        b.transaction("T1").write("x", 1);
        b.transaction("T2").read("x", 0).read("x", 1);
        History h = b.build();
        assertLevels(h, true, false, false);
        assertThat(PIPELINE.check(h, IsolationLevel.READ_ATOMIC)).isInstanceOf(Verdict.Violated.class)
                .extracting(v -> ((Verdict.Violated) v).anomaly().type()).isEqualTo(AnomalyType.INTERNAL);
    }

    @Test
    void aReadThatMissesWhatCausallyPrecedesItIsReadAtomicButNotCausal() {
        HistoryBuilder b = complete();
        b.transaction("T1").write("x", 1);
        b.transaction("T2").read("x", 1).write("y", 1);
        b.transaction("T3").read("y", 1).read("x", 0);
        assertLevels(b.build(), true, true, false);
        // Session order makes T1 visible to T3 at read atomic too.
        HistoryBuilder c = complete();
        c.transaction("T1").session("s").write("x", 1);
        c.transaction("T3").session("s").read("x", 0);
        assertLevels(c.build(), true, false, false);
    }

    @Test
    void aCycleOfForcedWritesIsExplainedAsACycleNamingTheAxiom() {
        HistoryBuilder b = complete();
        b.transaction("T1").write("x", 1).write("y", 1);
        b.transaction("T2").write("x", 2).write("y", 2);
        b.transaction("T3").read("x", 1).read("y", 2);
        b.transaction("T4").read("x", 2).read("y", 1);
        History h = b.build();
        assertLevels(h, false, false, false);
        CheckResult result = Isocheck.check(h, IsolationLevel.READ_COMMITTED);
        assertThat(result.verdict()).isInstanceOf(Verdict.Violated.class);
        assertThat(((Verdict.Violated) result.verdict()).anomaly().type()).isEqualTo(AnomalyType.G0);
        Explanation.Cycles cycles = (Explanation.Cycles) result.explanation().orElseThrow();
        assertThat(cycles.isCertain()).isTrue();
        assertThat(cycles.anomaly()).isEqualTo("G0");
        assertThat(cycles.cases().get(0).cycle().transactions()).containsExactlyInAnyOrder("T1", "T2");
        assertThat(new dev.isocheck.explain.DotRenderer().render(cycles)).contains("T1", "T2", "ww y");
        assertThat(new dev.isocheck.explain.HtmlRenderer().render(cycles)).contains("Read Committed puts T1");
        assertThat(new dev.isocheck.explain.JsonRenderer().toJson(cycles).get("anomaly").asText()).isEqualTo("G0");
        String text = new TextRenderer().render(cycles);
        assertThat(text.replaceAll("\\s+", " ")).contains("Read Committed puts T1's write of y before T2's",
                "Read Committed puts T2's write of y before T1's", "T3 read y = 2 from T2, but T3 read x = 1 before that");
    }

    @Test
    void withDuplicateValuesAViolationMustHoldForEveryChoiceOfWriter() {
        // T3 read x = 1 from T1 or from T2; both also write y, which T3 then read from the initial state.
        HistoryBuilder b = complete();
        b.transaction("T1").write("x", 1).write("y", 1);
        b.transaction("T2").write("x", 1).write("y", 2);
        b.transaction("T3").read("y", 0).read("x", 1);
        History h = b.build();
        assertLevels(h, true, false, false);
        SaturationChecker.Outcome outcome = new SaturationChecker().check(h, WeakLevel.READ_ATOMIC, Limits.none());
        SaturationChecker.Violation violation = ((SaturationChecker.Outcome.Violated) outcome).violation();
        assertThat(violation.isCertain()).isFalse();
        assertThat(violation.type()).isEqualTo(AnomalyType.NO_VALID_ORDER);
        assertThat(violation.explanation()).startsWith("whichever write each read saw (2 choices of writers tried, each failing)");
        assertThat(Isocheck.check(h, IsolationLevel.READ_ATOMIC).explanation().orElseThrow())
                .isInstanceOf(Explanation.Unexplained.class);
        // Past its budget the search answers Unknown, never a violation it did not show.
        assertThat(new SaturationChecker(1).check(h, WeakLevel.READ_ATOMIC, Limits.none()))
                .isInstanceOf(SaturationChecker.Outcome.Unknown.class);
        // One writer of the pair not writing y leaves a choice that works.
        HistoryBuilder c = complete();
        c.transaction("T1").write("x", 1).write("y", 1);
        c.transaction("T2").write("x", 1);
        c.transaction("T3").read("y", 0).read("x", 1);
        assertLevels(c.build(), true, true, true);
    }

    @Test
    void anyInitialValueMayBeWhatALaterTransactionWrites() {
        HistoryBuilder b = History.builder().unknownInitialValues(UnknownInitialValues.ANY);
        b.transaction("T1").session("s").read("flag", false).write("flag", true);
        b.transaction("T2").session("s").read("flag", true).write("flag", false);
        b.transaction("T3").read("flag", false).read("flag", false);
        assertLevels(b.build(), true, true, true);
        // Under the default reading the initial value is no value a transaction writes.
        HistoryBuilder c = History.builder();
        c.transaction("T1").session("s").read("flag", false).write("flag", true);
        c.transaction("T2").session("s").read("flag", true).write("flag", false);
        assertLevels(c.build(), false, false, false);
    }

    @Test
    void aPassOverPredicateReadsSaysTheirUnreturnedRowsWereNotChecked() {
        HistoryBuilder b = History.builder().initialStateComplete(true);
        b.transaction("T1").write("t/1", java.util.Map.of("id", 1, "v", 1));
        b.transaction("T2").predicate("t", "v = 1", java.util.Map.of("t/1", java.util.Map.of("id", 1, "v", 1)));
        Verdict verdict = PIPELINE.check(b.build(), IsolationLevel.CAUSAL);
        assertThat(verdict).isInstanceOf(Verdict.Satisfied.class);
        assertThat(((Verdict.Satisfied) verdict).caveats()).singleElement().asString().contains("did not return were not");
    }

    @Test
    void largeHistoriesFromARealisticDatabaseAreSatisfiedInSeconds() {
        // 20,000 transactions of a serial database: satisfies every level, so the whole saturation runs.
        Workload workload = Workload.defaults().withSessions(20, 1_000).withMaxOpsPerTransaction(6).withKeys(400, 0)
                .withValueDomain(0);
        History h = new HistoryGenerator(workload, SimulatedDatabase.serial()).generate(11).history();
        for (IsolationLevel level : List.of(IsolationLevel.READ_COMMITTED, IsolationLevel.READ_ATOMIC, IsolationLevel.CAUSAL)) {
            long started = System.nanoTime();
            Verdict verdict = PIPELINE.check(h, level);
            long millis = (System.nanoTime() - started) / 1_000_000;
            assertThat(verdict).as("at %s", level).isInstanceOf(Verdict.Satisfied.class);
            assertThat(((Verdict.Satisfied) verdict).witness()).hasSize(h.committedCount());
            assertThat(millis).as("milliseconds at %s", level).isLessThan(20_000);
        }
    }
}
