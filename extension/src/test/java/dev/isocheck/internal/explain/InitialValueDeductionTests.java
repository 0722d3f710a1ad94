package dev.isocheck.internal.explain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.IsolationLevel;
import dev.isocheck.explain.AnomalyCycle;
import dev.isocheck.explain.Dependency;
import dev.isocheck.explain.Explanation;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.UnknownInitialValues;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

@DisplayName("Write-read edges that follow from an unknown initial value being one value")
class InitialValueDeductionTests {

    private static final Explainer EXPLAINER = new ExhaustiveExplainer();
    private static final IsolationLevel SER = IsolationLevel.SERIALIZABLE;

    /** A recorder's history: no initial value known, and any of them may be one a transaction writes. */
    private static HistoryBuilder recorded() {
        return History.builder().unknownInitialValues(UnknownInitialValues.ANY);
    }

    /**
     * The one certain cycle of {@code history}, replayed against every explanation of it that one
     * initial value per key allows, judged one choice at a time (and there must be some).
     */
    private static AnomalyCycle certain(History history) {
        Explanation explanation = EXPLAINER.explain(history, SER);
        assertThat(explanation).as("%s", explanation).isInstanceOf(Explanation.Cycles.class);
        Explanation.Cycles cycles = (Explanation.Cycles) explanation;
        assertThat(cycles.isCertain()).as("one certain cycle: %s", cycles).isTrue();
        assertThat(cycles.premises()).isEmpty();
        AnomalyCycle cycle = cycles.cases().get(0).cycle();
        BruteForceExplanations brute = BruteForceExplanations.everyChoice(history, SER);
        int[] agreeing = {0, 0};
        brute.forEach(choice -> {
            agreeing[1]++;
            if (brute.initialValuesAgree(choice)) {
                agreeing[0]++;
                assertThat(BruteForceExplanations.present(cycle, brute.edges(choice))).as("%s in %s", cycle, choice).isTrue();
            }
        });
        // Some choices take the ruled-out read to be of the initial value: those lack the cycle.
        assertThat(agreeing[0]).isPositive().isLessThan(agreeing[1]);
        return cycle;
    }

    /** Whether the explainer may take {@code reader}'s observation of {@code key} to be of the initial value. */
    private static boolean initialPossible(History history, String reader, String key) {
        ExplanationSpace space = ExplanationSpace.of(history, SER, IntStream.range(0, history.size()).toArray());
        int keyId = history.keys().idOf(key);
        for (int o = 0; o < space.observations().size(); o++) {
            ExplanationSpace.Observation obs = space.observations().get(o);
            if (!obs.isUnreturned() && space.keyId(obs.key()) == keyId
                    && history.transaction(space.transaction(obs.reader())).id().equals(reader)) {
                boolean initial = Arrays.stream(obs.candidates()).anyMatch(c -> c == ExplanationSpace.INITIAL);
                assertThat(space.notInitial(o).isPresent()).isEqualTo(!initial);
                return initial;
            }
        }
        throw new AssertionError(reader + " does not read " + key);
    }

    private static Dependency edge(AnomalyCycle cycle, String from) {
        return cycle.edges().stream().filter(e -> e.from().equals(from)).findFirst().orElseThrow();
    }

    @Nested
    @DisplayName("the initial value is one value")
    class OneValue {

        /** T1 reads x; T2 moves 10 from x to y; T1 reads y = 60, which T2 read as 50 before. */
        private HistoryBuilder readSkew() {
            HistoryBuilder b = recorded();
            b.transaction("T1").read("x", 50).read("y", 60);
            b.transaction("T2").read("x", 50).write("x", 40).read("y", 50).write("y", 60);
            return b;
        }

        @Test
        void aReadOfAnotherValueThanTheInitialOneSawAWrite() {
            History history = readSkew().build();
            assertThat(initialPossible(history, "T1", "y")).isFalse();
            AnomalyCycle cycle = certain(history);
            assertThat(cycle.anomaly()).isEqualTo("G-single");
            assertThat(cycle.arrows()).isEqualTo("T1 -rw x-> T2 -wr y-> T1");
            Dependency wr = edge(cycle, "T2");
            assertThat(wr.assumed()).isFalse();
            assertThat(wr.reason()).isEqualTo("T1 read y = 60, which T2 wrote (not y's initial value, which T2 read"
                    + " (operation 2) as 50)");
        }

        @Test
        void aBlindWriteFixesNothing() {
            // T2 writes y without reading it: T1's 60 may be the initial value (T2 writing it again).
            HistoryBuilder b = recorded();
            b.transaction("T1").read("x", 50).read("y", 60);
            b.transaction("T2").read("x", 50).write("x", 40).write("y", 60);
            History history = b.build();
            assertThat(initialPossible(history, "T1", "y")).isTrue();
            assertThat(EXPLAINER.explain(history, SER)).isInstanceOf(Explanation.Unexplained.class);
        }

        @Test
        void twoValuesEachPossiblyInitialFixNothing() {
            // T3 and T4 read different values of y, but each may have seen a write (T2's or T5's),
            // so neither read fixes the initial value and neither rules it out for the other.
            HistoryBuilder b = recorded();
            b.transaction("T2").write("y", 60);
            b.transaction("T5").write("y", 70);
            b.transaction("T3").read("y", 60);
            b.transaction("T4").read("y", 70);
            History history = b.build();
            assertThat(initialPossible(history, "T3", "y")).isTrue();
            assertThat(initialPossible(history, "T4", "y")).isTrue();
        }

        @Test
        void aReadThatAWriteMayExplainFixesNothing() {
            // T2's y = 50 may be T3's write, so it does not show the initial value.
            HistoryBuilder b = readSkew();
            b.transaction("T3").write("y", 50);
            History history = b.build();
            assertThat(initialPossible(history, "T1", "y")).isTrue();
        }

        @Test
        void aCompatiblePartialRowIsNotRuledOut() {
            // T2 read the row's a, T1 its b: one initial row can show both, so T1's read may be of it.
            HistoryBuilder b = recorded();
            b.transaction("T2").read("r", Map.of("a", 1)).write("r", Map.of("a", 2, "b", 2));
            b.transaction("T1").read("r", Map.of("b", 2));
            History history = b.build();
            assertThat(initialPossible(history, "T1", "r")).isTrue();
            HistoryBuilder c = recorded();
            c.transaction("T2").read("r", Map.of("a", 1, "b", 1)).write("r", Map.of("a", 2, "b", 2));
            c.transaction("T1").read("r", Map.of("b", 2));
            assertThat(initialPossible(c.build(), "T1", "r")).isFalse();
        }
    }

    @Nested
    @DisplayName("a predicate read that left a key out")
    class LeftOut {

        /** T1 selects v > 0 twice around T2's insert of p/2: the second time p/2 is there. */
        private History phantom(String firstWhere) {
            HistoryBuilder b = recorded();
            b.transaction("T1").predicate("p", firstWhere, Map.of("p/1", Map.of("v", 1)))
                    .predicate("p", "v > 0", Map.of("p/1", Map.of("v", 1), "p/2", Map.of("v", 5)));
            b.transaction("T2").write("p/2", Map.of("v", 5));
            return b.build();
        }

        @Test
        void aRowTheSamePredicateLeftOutBeforeWasInserted() {
            History history = phantom("v > 0");
            AnomalyCycle cycle = certain(history);
            assertThat(cycle.anomaly()).isEqualTo("G-single");
            assertThat(cycle.arrows()).isEqualTo("T1 -predicate-rw p/2-> T2 -wr p/2-> T1");
            Dependency wr = edge(cycle, "T2");
            assertThat(wr.assumed()).isFalse();
            assertThat(wr.reason()).isEqualTo("T1's read of p where v > 0 returned p/2 = {\"v\":5}, which T2 wrote (not"
                    + " p/2's initial value: its own read of p where v > 0 (operation 0) did not return p/2 and only its"
                    + " initial version can be what it left out, so that version, if any, does not satisfy the predicate)");
        }

        @Test
        void aPredicateTheValueNeedNotSatisfyRulesNothingOut() {
            // v > 10 leaving p/2 out says nothing about whether the initial p/2 was {"v":5}.
            History history = phantom("v > 10");
            assertThat(EXPLAINER.explain(history, SER)).isNotInstanceOf(Explanation.Cycles.class);
        }

        @Test
        void aVersionThatFailsThePredicateMayBeWhatWasLeftOut() {
            // T3 installed p/2 = {"v":-1}: T1's first read may have seen that, not the initial p/2.
            HistoryBuilder b = recorded();
            b.transaction("T3").write("p/2", Map.of("v", -1));
            b.transaction("T1").predicate("p", "v > 0", Map.of())
                    .predicate("p", "v > 0", Map.of("p/2", Map.of("v", 5)));
            b.transaction("T2").write("p/2", Map.of("v", 5));
            History history = b.build();
            ExplanationSpace space = ExplanationSpace.of(history, SER, IntStream.range(0, history.size()).toArray());
            for (int o = 0; o < space.observations().size(); o++) {
                assertThat(space.notInitial(o)).isEmpty();
            }
        }
    }

    @Nested
    @DisplayName("a predicate read that left out a key whose initial value it selects")
    class LeftOutWhatItSelects {

        /**
         * Hermitage's G-single with a write predicate at READ COMMITTED: T1 reads row 1; T2 reads
         * both rows, then changes both; T1's {@code DELETE ... WHERE value = 20} deletes nothing,
         * for it saw T2's row 2. T2's read fixed row 2's initial value at 20, which the predicate
         * selects: T1 cannot have left out that version, so it saw T2's.
         */
        private History gSingleWithAWritePredicate(String where) {
            HistoryBuilder b = recorded();
            b.transaction("T1").read("test/1", Map.of("id", 1, "value", 10)).predicate("test", where, Map.of());
            b.transaction("T2").predicate("test", "TRUE", Map.of("test/1", Map.of("id", 1, "value", 10),
                            "test/2", Map.of("id", 2, "value", 20)))
                    .write("test/1", Map.of("id", 1, "value", 11)).write("test/2", Map.of("id", 2, "value", 19));
            return b.build();
        }

        @Test
        void itSawTheVersionThatReplacedIt() {
            AnomalyCycle cycle = certain(gSingleWithAWritePredicate("value = 20"));
            assertThat(cycle.anomaly()).isEqualTo("G-single");
            assertThat(cycle.arrows()).isEqualTo("T1 -rw test/1-> T2 -wr test/2-> T1");
            Dependency wr = edge(cycle, "T2");
            assertThat(wr.assumed()).isFalse();
            assertThat(wr.reason()).isEqualTo("T1's read of test where value = 20 did not return test/2: it saw T2's"
                    + " version, {\"id\":2,\"value\":19}, which does not satisfy value = 20 (not the initial version:"
                    + " test/2's initial value, which T2's read of test where TRUE (operation 0) returned as"
                    + " {\"id\":2,\"value\":20}, satisfies the predicate)");
        }

        @Test
        void aPredicateTheInitialValueNeedNotSatisfyRulesNothingOut() {
            // value > 20 leaving test/2 out is what its initial version would do too: no edge from T2.
            History history = gSingleWithAWritePredicate("value > 20");
            ExplanationSpace space = ExplanationSpace.of(history, SER, IntStream.range(0, history.size()).toArray());
            for (int o = 0; o < space.observations().size(); o++) {
                assertThat(space.notInitial(o)).isEmpty();
            }
        }

        @Test
        void aWitnessThatDidNotSeeThePredicatesColumnRulesNothingOut() {
            // T2 saw only test/2's id: whether its initial value has value = 20 is not known.
            HistoryBuilder b = recorded();
            b.transaction("T1").read("test/1", Map.of("id", 1, "value", 10)).predicate("test", "value = 20", Map.of());
            b.transaction("T2").read("test/1", Map.of("id", 1, "value", 10)).read("test/2", Map.of("id", 2))
                    .write("test/1", Map.of("id", 1, "value", 11)).write("test/2", Map.of("id", 2, "value", 19));
            History history = b.build();
            ExplanationSpace space = ExplanationSpace.of(history, SER, IntStream.range(0, history.size()).toArray());
            for (int o = 0; o < space.observations().size(); o++) {
                assertThat(space.notInitial(o)).isEmpty();
            }
        }
    }

    @Nested
    @DisplayName("in a case that takes one read to be of the initial value, the others that disagree are not")
    class OneValueInACase {

        /**
         * Every case's cycle holds wherever its assumptions do, over every explanation with one
         * initial value per key; returns the cases.
         */
        private java.util.List<Explanation.Case> cases(History history) {
            Explanation explanation = EXPLAINER.explain(history, SER);
            assertThat(explanation).as("%s", explanation).isInstanceOf(Explanation.Cycles.class);
            java.util.List<Explanation.Case> cases = ((Explanation.Cycles) explanation).cases();
            BruteForceExplanations brute = BruteForceExplanations.everyChoice(history, SER);
            brute.assertCovered(cases, brute::initialValuesAgree, SER);
            return cases;
        }

        private static Explanation.Case assuming(java.util.List<Explanation.Case> cases, String text) {
            return cases.stream().filter(c -> c.assuming().stream().anyMatch(a -> a.text().equals(text))).findFirst()
                    .orElseThrow(() -> new AssertionError("no case assumes \"" + text + "\": " + cases));
        }

        @Test
        void twoReadsOfTwoValuesAreNotBothOfTheInitialOne() {
            // In session s1, T2 reads x = 1, then T1 reads x = 0, then T3 writes 0; T4 writes 1.
            // T1's 0 is the initial value or T3's later write; the initial value cannot be both
            // T1's 0 and T2's 1.
            HistoryBuilder b = recorded();
            b.transaction("T2").session("s1").read("x", 1);
            b.transaction("T1").session("s1").read("x", 0);
            b.transaction("T3").session("s1").write("x", 0);
            b.transaction("T4").session("s2").write("x", 1);
            java.util.List<Explanation.Case> cases = cases(b.build());
            assertThat(cases).hasSize(2);
            Explanation.Case initial = assuming(cases, "T1 read x = 0 saw the initial value");
            assertThat(initial.cycle().arrows()).isEqualTo("T2 -session-> T1 -rw x-> T4 -wr x-> T2");
            assertThat(edge(initial.cycle(), "T4").reason()).isEqualTo("T2 read x = 1, which T4 wrote (not x's initial"
                    + " value: in this case that is 0, which T1's read (operation 0) saw)");
            Explanation.Case written = assuming(cases, "T1 read x = 0 did not see the initial value, so it saw T3's write");
            assertThat(written.cycle().arrows()).isEqualTo("T1 -session-> T3 -wr x-> T1");
        }

        @Test
        void aRowLeftOutAsItsInitialVersionIsNotTheOneReadThatThePredicateSelects() {
            // T1's predicate read left t/1 out, then T1 read t/1 = 1, which the predicate selects:
            // both cannot be of the initial version.
            HistoryBuilder b = recorded();
            b.transaction("T1").session("s1").predicate("t", "v = 1", Map.of()).read("t/1", Map.of("id", 1, "v", 1));
            b.transaction("T2").session("s2").write("t/1", Map.of("id", 1, "v", 1));
            b.transaction("T3").session("s1").write("t/1", Map.of("id", 1, "v", 0));
            java.util.List<Explanation.Case> cases = cases(b.build());
            Explanation.Case initial = assuming(cases, "T1's read of t where v = 1 did not return t/1 saw the initial value");
            assertThat(initial.cycle().arrows()).isEqualTo("T1 -predicate-rw t/1-> T2 -wr t/1-> T1");
            assertThat(edge(initial.cycle(), "T2").reason()).isEqualTo("T1 read t/1 = {\"id\":1,\"v\":1}, which T2 wrote"
                    + " (not t/1's initial value: in this case T1's read of t where v = 1 did not return t/1 because it saw"
                    + " the initial version, so that version does not satisfy the predicate, which selects"
                    + " {\"id\":1,\"v\":1})");
        }
    }
}
