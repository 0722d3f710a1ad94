package dev.isocheck.internal.explain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.IsolationLevel;
import dev.isocheck.explain.Assumption;
import dev.isocheck.explain.Explanation;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.UnknownInitialValues;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * An explanation lists as premises exactly the reads its conclusion takes not to be of their key's
 * unknown initial value only because such values are read as unwritten ({@code docs/semantics.md}).
 */
@DisplayName("explanations: premises on unwritten initial values")
class UnwrittenPremisesTests {

    private static final Explainer EXPLAINER = new ExhaustiveExplainer();

    private static Explanation explain(HistoryBuilder b) {
        return EXPLAINER.explain(b.build(), IsolationLevel.SERIALIZABLE);
    }

    @Test
    void aReadOfAnUnlistedKeyBlamedOnAnAbortedOrOverwrittenWriteRestsOnIt() {
        HistoryBuilder aborted = History.builder();
        aborted.transaction("T1").aborted().write("x", 5);
        aborted.transaction("T2").read("x", 5);
        Explanation g1a = explain(aborted);
        assertThat(g1a).isInstanceOf(Explanation.Screened.class);
        assertThat(g1a.premises()).singleElement().satisfies(p -> {
            assertThat(p.key()).isEqualTo("x");
            assertThat(p.writers()).containsExactly("T1");
            assertThat(p.read().transaction()).isEqualTo("T2");
            assertThat(p.text()).isEqualTo("T2 read x = 5, taken not to be x's initial value because T1 writes x = 5");
        });

        HistoryBuilder overwritten = History.builder();
        overwritten.transaction("T1").write("x", 5).write("x", 6);
        overwritten.transaction("T2").aborted().write("x", 5);
        overwritten.transaction("T3").read("x", 5);
        assertThat(explain(overwritten).premises()).extracting(Assumption.UnwrittenInitialValue::text).containsExactly(
                "T3 read x = 5, taken not to be x's initial value because T1 and T2 write x = 5");

        HistoryBuilder own = History.builder();
        own.transaction("T1").read("x", 3).write("x", 3);
        assertThat(explain(own).premises()).extracting(Assumption.UnwrittenInitialValue::text).containsExactly(
                "T1 read x = 3, taken not to be x's initial value because T1 itself writes x = 3");
    }

    @Test
    void aListedKeyACompleteStateOrRowsRestOnNothing() {
        HistoryBuilder listed = History.builder().initialValue("x", 0);
        listed.transaction("T1").aborted().write("x", 5);
        listed.transaction("T2").read("x", 5);
        assertThat(explain(listed).premises()).isEmpty();

        HistoryBuilder complete = History.builder().initialStateComplete(true);
        complete.transaction("T1").aborted().write("x", 5);
        complete.transaction("T2").read("x", 5);
        assertThat(explain(complete).premises()).isEmpty();

        // Conflicting reads that only the initial value explains, and an internal read, hold whatever it is.
        HistoryBuilder conflict = History.builder();
        conflict.transaction("T1").read("x", 1);
        conflict.transaction("T2").read("x", 2);
        assertThat(explain(conflict).premises()).isEmpty();
        HistoryBuilder internal = History.builder();
        internal.transaction("T1").write("x", 1).read("x", 2);
        assertThat(explain(internal).premises()).isEmpty();
    }

    @Test
    void antiDependenciesFromTheInitialValueRestOnNothing() {
        // A lost update of a value nobody writes: both read the initial version, whatever it is.
        HistoryBuilder b = History.builder();
        b.transaction("T1").read("x", 5).write("x", 6);
        b.transaction("T2").read("x", 5).write("x", 7);
        Explanation lost = explain(b);
        assertThat(lost).isInstanceOf(Explanation.Cycles.class);
        assertThat(lost.premises()).isEmpty();
    }

    @Test
    void aWriteReadEdgeShownByAReadOfAListedKeyRestsOnNothing() {
        // T2's x = 1 could be the initial value only with "unknown": "any", but its k = 1 (k listed)
        // shows that it read T1's writes anyway; likewise T1's z = 2.
        HistoryBuilder b = History.builder().initialValue("k", 0).initialValue("z", 0);
        b.transaction("T1").read("x", 2).read("z", 2).write("x", 1).write("k", 1);
        b.transaction("T2").read("x", 1).read("k", 1).write("z", 2).write("x", 2);
        Explanation cycle = explain(b);
        assertThat(cycle).isInstanceOf(Explanation.Cycles.class);
        assertThat(((Explanation.Cycles) cycle).cases().get(0).cycle().edges())
                .allSatisfy(edge -> assertThat(edge.key()).hasValueSatisfying(key -> assertThat(key).isIn("k", "z")));
        assertThat(cycle.premises()).isEmpty();
    }

    @Test
    void withUnknownAnyNothingRestsOnUnwrittenInitialValues() {
        // Both read 5, which only an aborted transaction wrote: by default a G1a resting on x's
        // initial value; with "unknown": "any" both read the initial value, a lost update.
        for (UnknownInitialValues unknown : UnknownInitialValues.values()) {
            HistoryBuilder b = History.builder().unknownInitialValues(unknown);
            b.transaction("T0").aborted().write("x", 5);
            b.transaction("T1").read("x", 5).write("x", 6);
            b.transaction("T2").read("x", 5).write("x", 7);
            Explanation explanation = explain(b);
            if (unknown == UnknownInitialValues.ANY) {
                assertThat(explanation).isInstanceOf(Explanation.Cycles.class);
                assertThat(((Explanation.Cycles) explanation).familiarName()).hasValue("lost update");
                assertThat(explanation.premises()).isEmpty();
            } else {
                assertThat(explanation).isInstanceOf(Explanation.Screened.class);
                assertThat(explanation.premises()).hasSize(1);
            }
        }
    }
}
