package dev.isocheck.internal.solve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.AnomalyType;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.internal.graph.HyperPolygraph;
import dev.isocheck.internal.graph.KnownGraph;
import dev.isocheck.internal.graph.ReadExplanations;
import dev.isocheck.history.History;
import dev.isocheck.internal.prune.PrunedPolygraph;
import dev.isocheck.internal.prune.Pruner;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.UnknownInitialValues;
import dev.isocheck.internal.reference.ReferenceChecker;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SatCheckerTests {

    private static final SatChecker ENGINE = new SatChecker();
    private static final ReferenceChecker REFERENCE = new ReferenceChecker();

    private static HistoryBuilder xyZero() {
        return History.builder().initialValue("x", 0).initialValue("y", 0).initialStateComplete(true);
    }

    /** Asserts the engine's answers at serializable and strict, and that the reference agrees. */
    private static void assertVerdicts(History h, boolean serializable, boolean strict) {
        assertVerdict(h, IsolationLevel.SERIALIZABLE, serializable);
        assertVerdict(h, IsolationLevel.STRICT_SERIALIZABLE, strict);
    }

    private static void assertVerdicts(History h, boolean serializable, boolean strict, boolean snapshotIsolation) {
        assertVerdicts(h, serializable, strict);
        assertVerdict(h, IsolationLevel.SNAPSHOT_ISOLATION, snapshotIsolation);
    }

    private static void assertVerdict(History h, IsolationLevel level, boolean satisfied) {
        Verdict verdict = ENGINE.check(h, level);
        assertThat(verdict.isSatisfied()).as("%s at %s", verdict, level).isEqualTo(satisfied);
        assertThat(verdict.isViolated()).as("%s at %s", verdict, level).isEqualTo(!satisfied);
        assertThat(REFERENCE.check(h, level).isSatisfied()).as("reference at %s", level).isEqualTo(satisfied);
        if (verdict instanceof Verdict.Satisfied s) {
            assertThat(ReferenceChecker.explains(h, level, s.witness())).isTrue();
        } else {
            assertThat(((Verdict.Violated) verdict).anomaly().type()).isEqualTo(AnomalyType.NO_VALID_ORDER);
        }
    }

    /**
     * A read-only transaction that started after a write was acknowledged and read the version
     * before it: serializable (it comes first), not strictly. Its stale read must not cost the
     * writers their real-time order, nor the history its pass: with repeated values, the order
     * found with real time among the writers only is a serial order of the history.
     */
    @Test
    void aStaleReadOnlyReaderIsSerializableWithRealTimeAmongTheWriters() {
        HistoryBuilder b = History.builder().initialValue("x", 0).initialStateComplete(true);
        b.transaction("W1").session("a").times(0, 10).read("x", 0).write("x", 1);
        b.transaction("W2").session("b").times(20, 30).read("x", 1).write("x", 0);
        b.transaction("W3").session("a").times(40, 50).read("x", 0).write("x", 1);
        b.transaction("W4").session("b").times(60, 70).read("x", 1).write("x", 2);
        b.transaction("R").session("c").times(80, 90).read("x", 1);
        History h = b.build();
        assertVerdicts(h, true, false, true);
        Verdict verdict = ENGINE.check(h, IsolationLevel.SERIALIZABLE);
        List<String> order = ((Verdict.Satisfied) verdict).witness();
        assertThat(order.indexOf("R")).as("the stale reader comes before the last writer: %s", order)
                .isLessThan(order.indexOf("W4"));
    }

    @Test
    void serialHistoryIsSatisfiedWithItsOrder() {
        HistoryBuilder b = xyZero();
        b.transaction("T1").session("a").read("x", 0).write("x", 1);
        b.transaction("T2").session("b").read("x", 1).write("y", 2);
        b.transaction("T3").session("a").read("y", 2).read("x", 1);
        History h = b.build();
        assertVerdicts(h, true, true);
        assertThat(((Verdict.Satisfied) ENGINE.check(h, IsolationLevel.SERIALIZABLE)).witness()).containsExactly("T1", "T2", "T3");
    }

    @Test
    void writeSkewViolatesBoth() {
        HistoryBuilder b = xyZero();
        b.transaction("T1").read("x", 0).read("y", 0).write("x", 1);
        b.transaction("T2").read("x", 0).read("y", 0).write("y", 1);
        assertVerdicts(b.build(), false, false);
    }

    @Test
    void lostUpdateViolatesBoth() {
        HistoryBuilder b = xyZero();
        b.transaction("T1").read("x", 0).write("x", 1);
        b.transaction("T2").read("x", 0).write("x", 2);
        assertVerdicts(b.build(), false, false);
    }

    @Test
    void lostUpdateShapeWithDuplicateValuesIsAConstraintNotAVerdict() {
        // Both read x = 0, but T3 writes 0 again: T1, T3, T2 explains everything.
        HistoryBuilder b = xyZero();
        b.transaction("T1").read("x", 0).write("x", 1);
        b.transaction("T2").read("x", 0).write("x", 1);
        b.transaction("T3").write("x", 0);
        assertVerdicts(b.build(), true, true);
    }

    @Test
    void readModifyWriteDoesNotAntiDependOnItself() {
        HistoryBuilder b = xyZero();
        b.transaction("T1").read("x", 0).write("x", 1);
        History h = b.build();
        ReadExplanations explanations = ReadExplanations.of(h);
        HyperPolygraph polygraph = HyperPolygraph.of(KnownGraph.of(h, explanations, false), explanations);
        PrunedPolygraph pruned = Pruner.prune(polygraph, false);
        assertThat(pruned.conflicts()).isEmpty();
        DependencyGraph certain = new ResidualEncoding(pruned).graphOf(null);
        assertThat(certain.cycles(10)).isEmpty();
        assertVerdicts(h, true, true);
    }

    @Test
    void readSkewViolatesBoth() {
        HistoryBuilder b = xyZero();
        b.transaction("T1").read("x", 0);
        b.transaction("T2").write("x", 1).write("y", 1);
        b.transaction("T1b").session("s").read("y", 1);
        b.transaction("R").read("x", 0).read("y", 1);
        assertVerdicts(b.build(), false, false);
    }

    @Test
    void longForkViolatesBoth() {
        HistoryBuilder b = xyZero();
        b.transaction("T1").write("x", 1);
        b.transaction("T2").write("y", 1);
        b.transaction("T3").read("x", 1).read("y", 0);
        b.transaction("T4").read("x", 0).read("y", 1);
        assertVerdicts(b.build(), false, false);
    }

    @Test
    void writeCycleG0ViolatesBoth() {
        HistoryBuilder b = xyZero();
        b.transaction("T1").write("x", 1).write("y", 1);
        b.transaction("T2").write("x", 2).write("y", 2);
        b.transaction("T3").read("x", 1).read("y", 2);
        assertVerdicts(b.build(), false, false);
    }

    @Test
    void staleReadViolatesOnlyStrictSerializability() {
        HistoryBuilder b = xyZero();
        b.transaction("T1").times(0, 1).write("x", 1);
        b.transaction("T2").times(2, 3).read("x", 0);
        assertVerdicts(b.build(), true, false);
    }

    /**
     * When serializability is left undecided (here an engine budget of a nanosecond, so that the
     * search gives up at once) but the attempt with real-time order first found a cycle, the
     * Unknown says the history is not strictly serializable: not a verdict at the level asked, but
     * what a developer can act on. Without that cycle it says nothing of the kind.
     */
    @Test
    void anUndecidedSerializabilityCheckSaysWhenRealTimeOrderIsViolated() {
        SatChecker hurried = new SatChecker(java.time.Duration.ofNanos(1));
        // T1 read T2's write although T2 started after T1 ended: a cycle only with real time.
        History h = readOfXAtAndASearch(0);
        Verdict verdict = hurried.check(h, IsolationLevel.SERIALIZABLE);
        assertThat(verdict).isInstanceOf(Verdict.Unknown.class);
        assertThat(((Verdict.Unknown) verdict).reason()).contains("with real-time order").contains("not strictly serializable");
        assertThat(ENGINE.check(h, IsolationLevel.SERIALIZABLE)).isInstanceOf(Verdict.Satisfied.class);
        assertThat(ENGINE.check(h, IsolationLevel.STRICT_SERIALIZABLE)).isInstanceOf(Verdict.Violated.class);

        Verdict undecided = hurried.check(readOfXAtAndASearch(7), IsolationLevel.SERIALIZABLE);
        assertThat(undecided).isInstanceOf(Verdict.Unknown.class);
        assertThat(((Verdict.Unknown) undecided).reason()).doesNotContain("with real-time order");
    }

    /**
     * T1, reading x = 1 from time {@code readAt}, and T2 writing it at 5 to 6; and a read of y with
     * two possible writers, so that serializability needs a search.
     */
    private static History readOfXAtAndASearch(long readAt) {
        HistoryBuilder b = xyZero();
        b.transaction("T1").session("a").times(readAt, readAt + 1).read("x", 1);
        b.transaction("T2").session("b").times(5, 6).write("x", 1);
        b.transaction("W1").session("c").times(10, 11).write("y", 1);
        b.transaction("W2").session("d").times(10, 11).write("y", 1);
        b.transaction("R").session("e").times(12, 13).read("y", 1);
        return b.build();
    }

    @Test
    void sessionOrderCycleIsReportedWithItsTransactions() {
        HistoryBuilder b = xyZero();
        b.transaction("T1").session("s").read("x", 1);
        b.transaction("T2").session("s").write("x", 1);
        Verdict verdict = ENGINE.check(b.build(), IsolationLevel.SERIALIZABLE);
        assertThat(verdict.isViolated()).isTrue();
        assertThat(((Verdict.Violated) verdict).anomaly().transactions()).containsExactlyInAnyOrder("T1", "T2");
        assertThat(((Verdict.Violated) verdict).anomaly().explanation()).contains("form a cycle");
    }

    @Test
    void unknownInitialValuesServedByTheInitialStateMustBeCompatible() {
        // x's initial value is unknown: R1 and R2 each read it or W's 5, but not both the initial value.
        HistoryBuilder b = History.builder();
        b.transaction("W").write("x", 5);
        b.transaction("R1").read("x", Map.of("a", 1)).read("y", 1);
        b.transaction("R2").read("x", Map.of("a", 2)).read("y", 1);
        b.transaction("Y").write("y", 1);
        assertVerdicts(b.build(), false, false);
    }

    @Test
    void withUnknownAnyTheInitialValueMayBeAWrittenOneButStaysOneValue() {
        // The toggle of issue 14: T1 read false (the initial value) and set it, T2 read T1's true.
        HistoryBuilder toggle = History.builder().unknownInitialValues(UnknownInitialValues.ANY);
        toggle.transaction("T1").read("flag", false).write("flag", true);
        toggle.transaction("T2").read("flag", true).write("flag", false);
        History h = toggle.build();
        assertVerdicts(h, true, true, true);
        List<String> witness = ((Verdict.Satisfied) ENGINE.check(h, IsolationLevel.SERIALIZABLE)).witness();
        assertThat(new WitnessReplay(h).failure(witness, true)).isEmpty();
        assertThat(new WitnessReplay(h).snapshotFailure(witness)).isEmpty();

        // R1 and R2 read 1 and 2: W wrote 1, nobody 2, so R2 read the initial value and R1 W's 1;
        // R2 comes after W in its session, which it could not see past.
        HistoryBuilder one = History.builder().unknownInitialValues(UnknownInitialValues.ANY);
        one.transaction("W").session("s").write("x", 1);
        one.transaction("R1").read("x", 1);
        one.transaction("R2").session("s").read("x", 2);
        assertVerdicts(one.build(), false, false, false);
    }

    @Test
    void theWitnessReplayAcceptsAReadOfAWrittenValueFromTheInitialStateOnlyWithUnknownAny() {
        for (boolean any : new boolean[] {false, true}) {
            HistoryBuilder b = History.builder()
                    .unknownInitialValues(any ? UnknownInitialValues.ANY : UnknownInitialValues.UNWRITTEN);
            b.transaction("T1").read("x", 1);
            b.transaction("T2").write("x", 1);
            History h = b.build();
            assertThat(new WitnessReplay(h).failure(List.of("T1", "T2"), false).isEmpty()).as("any: %s", any).isEqualTo(any);
            assertThat(new WitnessReplay(h).snapshotFailure(List.of("T1", "T2")).isEmpty()).as("any: %s", any).isEqualTo(any);
        }
    }

    @Test
    void snapshotIsolationAllowsWriteSkewButNotLostUpdatesLongForksOrWriteCycles() {
        HistoryBuilder skew = xyZero();
        skew.transaction("T1").read("x", 0).read("y", 0).write("x", 1);
        skew.transaction("T2").read("x", 0).read("y", 0).write("y", 1);
        assertVerdicts(skew.build(), false, false, true);

        HistoryBuilder lost = xyZero();
        lost.transaction("T1").read("x", 0).write("x", 1);
        lost.transaction("T2").read("x", 0).write("x", 2);
        assertVerdicts(lost.build(), false, false, false);

        HistoryBuilder fork = xyZero();
        fork.transaction("T1").write("x", 1);
        fork.transaction("T2").write("y", 1);
        fork.transaction("T3").read("x", 1).read("y", 0);
        fork.transaction("T4").read("x", 0).read("y", 1);
        assertVerdicts(fork.build(), false, false, false);

        HistoryBuilder g0 = xyZero();
        g0.transaction("T1").write("x", 1).write("y", 1);
        g0.transaction("T2").write("x", 2).write("y", 2);
        g0.transaction("T3").read("x", 1).read("y", 2);
        assertVerdicts(g0.build(), false, false, false);
    }

    @Test
    void snapshotIsolationWitnessIsACommitOrderWithSnapshots() {
        HistoryBuilder b = xyZero();
        b.transaction("T1").read("x", 0).read("y", 0).write("x", 1);
        b.transaction("T2").read("x", 0).read("y", 0).write("y", 1);
        b.transaction("T3").session("s").read("x", 1).read("y", 1);
        History h = b.build();
        Verdict verdict = ENGINE.check(h, IsolationLevel.SNAPSHOT_ISOLATION);
        assertThat(verdict).isInstanceOf(Verdict.Satisfied.class);
        List<String> order = ((Verdict.Satisfied) verdict).witness();
        assertThat(new WitnessReplay(h).snapshotFailure(order)).isEmpty();
        assertThat(new WitnessReplay(h).failure(order, false)).isPresent();
        assertThat(ReferenceChecker.explains(h, IsolationLevel.SNAPSHOT_ISOLATION, order)).isTrue();
    }

    @Test
    void predicateReadsAreCheckedByTheReplayNeverPassedUnchecked() {
        // The predicate read returned nothing, but t/1 = {v: 1} was there whichever order: the engine
        // may not model it, yet it must not answer satisfied.
        HistoryBuilder b = History.builder().initialValue("t/1", Map.of("v", 1)).initialStateComplete(true);
        b.transaction("T1").predicate("t", "v = 1", Map.of());
        History h = b.build();
        Verdict verdict = ENGINE.check(h, IsolationLevel.SERIALIZABLE);
        assertThat(verdict.isSatisfied()).isFalse();
        assertThat(REFERENCE.check(h, IsolationLevel.SERIALIZABLE).isViolated()).isTrue();
        assertThat(new WitnessReplay(h).failure(List.of("T1"), false)).isPresent();
    }
}
