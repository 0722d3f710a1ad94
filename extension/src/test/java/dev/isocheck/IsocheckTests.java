package dev.isocheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.isocheck.explain.Explanation;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.UnknownInitialValues;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The public entry point, used as a library user would: only public API, no {@code internal}
 * import (the one seam, an explainer that fails, is a lambda passed to a package-private method).
 */
@DisplayName("Isocheck: the public entry point")
class IsocheckTests {

    private static final String WRITE_SKEW_TEXT = """
            G2-item (write skew) at serializable: a cycle of 2 transactions
              T1 -rw x-> T2 -rw y-> T1

                T1 -rw x-> T2  T1 read x = 0, the initial value; T2 installed a later version, x = 1, so T1 did
                               not see T2's write
                T2 -rw y-> T1  T2 read y = 0, the initial value; T1 installed a later version, y = 1, so T2 did
                               not see T1's write

              A serializable order would put each transaction before the next one around the cycle, and so the
              last before the first: no order can.

              Transactions:
                T1
                    0  read x = 0
                    1  write y = 1
                T2
                    0  read y = 0
                    1  write x = 1
            """;

    private static final String TOGGLE_TEXT = """
            G1c at serializable: a cycle of 2 transactions
              T1 -wr flag-> T2 -wr flag-> T1

                T1 -wr flag-> T2  T2 read flag = true, which T1 wrote
                T2 -wr flag-> T1  T1 read flag = false, which T2 wrote

              A serializable order would put each transaction before the next one around the cycle, and so the
              last before the first: no order can.

              This rests on flag's unknown initial value being one no transaction writes:
                T1 read flag = false, taken not to be flag's initial value because T2 writes flag = false
                T2 read flag = true, taken not to be flag's initial value because T1 writes flag = true
              By default ("unknown": "unwritten") an initial value the history does not list is one no
              transaction writes. If the database may have held such a value before the history began (rows that
              existed already, a flag set and cleared again), state the initial state instead: list the initial
              values in the init line ({"init": {"flag": ...}}), or declare that unlisted ones may be any value
              ({"init": {}, "unknown": "any"}).

              Transactions:
                T1
                    0  read flag = false
                    1  write flag = true
                T2
                    0  read flag = true
                    1  write flag = false
            """;

    /** The example of {@code package-info.java}, word for word up to the check. */
    private static History writeSkew() {
        // Write skew: each transaction reads what the other one writes, and both read the initial values.
        HistoryBuilder builder = History.builder().initialValue("x", 0).initialValue("y", 0);
        builder.transaction("T1").read("x", 0).write("y", 1);
        builder.transaction("T2").read("y", 0).write("x", 1);
        History history = builder.build();
        return history;
    }

    private static History serial() {
        HistoryBuilder builder = History.builder().initialValue("x", 0).initialStateComplete(true);
        builder.transaction("T1").session("a").read("x", 0).write("x", 1);
        builder.transaction("T2").session("a").read("x", 1).write("x", 2);
        return builder.build();
    }

    @Test
    void thePackageExampleFindsAndExplainsWriteSkew() {
        CheckResult result = Isocheck.check(writeSkew(), IsolationLevel.SERIALIZABLE);

        assertThat(result.verdict()).isInstanceOf(Verdict.Violated.class);
        assertThat(result.isViolated()).isTrue();
        assertThat(result.isSatisfied()).isFalse();
        assertThat(result.isUnknown()).isFalse();
        assertThat(result.level()).isEqualTo(IsolationLevel.SERIALIZABLE);
        // The anomaly is named as the explanation names it, not as the engine's search found it.
        assertThat(result.anomaly()).map(Anomaly::type).hasValue(AnomalyType.G2_ITEM);
        assertThat(((Verdict.Violated) result.verdict()).anomaly().type()).isEqualTo(AnomalyType.NO_VALID_ORDER);
        Explanation.Cycles cycles = (Explanation.Cycles) result.explanation().orElseThrow();
        assertThat(cycles.isCertain()).isTrue();
        assertThat(cycles.anomaly()).isEqualTo("G2-item");
        assertThat(cycles.familiarName()).hasValue("write skew");
        assertThat(result.explanationText()).hasValue(WRITE_SKEW_TEXT);
        assertThat(result.checkDuration()).isPositive();
        assertThat(result.explainDuration()).isPositive();
    }

    /**
     * The recorded toggle of issue 14: T1 reads flag = false and sets it, T2 reads true and clears
     * it, and the history does not list flag's initial value.
     */
    private static History toggle(UnknownInitialValues unknown) {
        HistoryBuilder builder = History.builder().unknownInitialValues(unknown);
        builder.transaction("T1").read("flag", false).write("flag", true);
        builder.transaction("T2").read("flag", true).write("flag", false);
        return builder.build();
    }

    @Test
    void aToggleIsAViolationOnlyWhileUnknownInitialValuesAreUnwritten() {
        // By default flag's unknown initial value is one no transaction writes, so T1's false must be
        // T2's and T2's true T1's: G1c.
        CheckResult unwritten = Isocheck.check(toggle(UnknownInitialValues.UNWRITTEN), IsolationLevel.SERIALIZABLE);
        assertThat(unwritten.isViolated()).isTrue();
        assertThat(((Explanation.Cycles) unwritten.explanation().orElseThrow()).anomaly()).isEqualTo("G1c");
        // The explanation says that it rests on that reading, and how to state the initial state instead.
        assertThat(unwritten.explanation().orElseThrow().premises()).hasSize(2);
        assertThat(unwritten.explanationText()).hasValue(TOGGLE_TEXT);

        // A recorder that never saw the initial rows declares "unknown": "any": flag may have started false.
        for (IsolationLevel level : IsolationLevel.values()) {
            CheckResult any = Isocheck.check(toggle(UnknownInitialValues.ANY), level);
            assertThat(any.isSatisfied()).as("at %s", level).isTrue();
            assertThat(((Verdict.Satisfied) any.verdict()).witness()).containsExactly("T1", "T2");
        }
    }

    @Test
    void aSatisfiedHistoryHasNoExplanation() {
        CheckResult result = Isocheck.check(serial(), IsolationLevel.STRICT_SERIALIZABLE);

        assertThat(result.isSatisfied()).isTrue();
        assertThat(result.isViolated()).isFalse();
        assertThat(result.isUnknown()).isFalse();
        assertThat(result.level()).isEqualTo(IsolationLevel.STRICT_SERIALIZABLE);
        assertThat(((Verdict.Satisfied) result.verdict()).witness()).containsExactly("T1", "T2");
        assertThat(result.explanation()).isEmpty();
        assertThat(result.explanationText()).isEmpty();
        assertThat(result.anomaly()).isEmpty();
        assertThat(result.explainDuration()).isEqualTo(Duration.ZERO);
    }

    /** Each of {@code n} transactions read the key the next one wrote: a ring of anti-dependencies. */
    private static History skewRing(int n) {
        HistoryBuilder b = History.builder().initialStateComplete(true);
        for (int i = 0; i < n; i++) {
            b.initialValue("k" + i, 0);
        }
        for (int i = 0; i < n; i++) {
            b.transaction("T" + (i + 1)).read("k" + i, 0).write("k" + ((i + 1) % n), 1);
        }
        return b.build();
    }

    @Test
    void theOptionsReachTheExplainer() {
        CheckOptions oneTransaction = CheckOptions.defaults().withExplainMaxTransactions(1).withGpuMode(GpuMode.OFF);

        // Too few transactions to show the cycle, even with the 14 more a case with every read's
        // write fixed takes: the verdict stands, unexplained, and says why.
        CheckResult bounded = Isocheck.check(skewRing(16), IsolationLevel.SERIALIZABLE, oneTransaction);
        assertThat(bounded.isViolated()).isTrue();
        assertThat(bounded.explanation()).get().isInstanceOf(Explanation.Unexplained.class);
        assertThat(((Explanation.Unexplained) bounded.explanation().orElseThrow()).reason())
                .startsWith("the verdict names 16 committed transactions; explanations are searched exhaustively among at"
                        + " most 1; a minimal set of transactions that still violates the level has more than the 1"
                        + " explained exhaustively (it includes ")
                .endsWith("explained over up to 15 transactions where no read saw a value several transactions wrote, a"
                        + " minimal violating set is larger still (within 30 s)");
        // Fifteen fit.
        assertThat(Isocheck.check(skewRing(15), IsolationLevel.SERIALIZABLE, oneTransaction).explanation()).get()
                .isInstanceOf(Explanation.Cycles.class);

        CheckResult noTime = Isocheck.check(writeSkew(), IsolationLevel.SERIALIZABLE,
                oneTransaction.withExplainTimeLimit(Duration.ZERO));
        assertThat(noTime.explanation()).hasValue(new Explanation.Unexplained(IsolationLevel.SERIALIZABLE,
                "the verdict names 2 committed transactions; explanations are searched exhaustively among at most 1;"
                        + " no smaller set of transactions that still violates the level was found within 0 s"));
        assertThat(noTime.explanationText()).hasValue("""
                no explanation at serializable
                  the verdict names 2 committed transactions; explanations are searched exhaustively among at most
                  1; no smaller set of transactions that still violates the level was found within 0 s
                """);
    }

    @Test
    void aFailingExplainerLeavesTheVerdictStanding() {
        CheckResult thrown = Isocheck.check(writeSkew(), IsolationLevel.SERIALIZABLE, CheckOptions.defaults(),
                (history, level, involved) -> {
                    throw new IllegalStateException("boom");
                });
        assertThat(thrown.isViolated()).isTrue();
        assertThat(thrown.explanation()).hasValue(new Explanation.Unexplained(IsolationLevel.SERIALIZABLE,
                "the explainer failed: java.lang.IllegalStateException: boom (please report)"));

        CheckResult deep = Isocheck.check(writeSkew(), IsolationLevel.SERIALIZABLE, CheckOptions.defaults(),
                (history, level, involved) -> {
                    throw new StackOverflowError();
                });
        assertThat(deep.explanation()).hasValue(new Explanation.Unexplained(IsolationLevel.SERIALIZABLE,
                "the explainer failed: java.lang.StackOverflowError (please report)"));

        CheckResult nothing = Isocheck.check(writeSkew(), IsolationLevel.SERIALIZABLE, CheckOptions.defaults(),
                (history, level, involved) -> null);
        assertThat(nothing.explanation()).hasValue(new Explanation.Unexplained(IsolationLevel.SERIALIZABLE,
                "the explainer failed: java.lang.NullPointerException: the explainer returned null (please report)"));
    }

    @Test
    void nullArgumentsAreNamed() {
        History history = serial();
        assertThatThrownBy(() -> Isocheck.check(null, IsolationLevel.SERIALIZABLE))
                .isInstanceOf(NullPointerException.class).hasMessage("history is null");
        assertThatThrownBy(() -> Isocheck.check(history, null))
                .isInstanceOf(NullPointerException.class).hasMessage("level is null");
        assertThatThrownBy(() -> Isocheck.check(history, IsolationLevel.SERIALIZABLE, null))
                .isInstanceOf(NullPointerException.class).hasMessage("options is null");
        assertThatThrownBy(() -> CheckOptions.defaults().withGpuMode(null))
                .isInstanceOf(NullPointerException.class).hasMessage("gpuMode is null");
        assertThatThrownBy(() -> CheckOptions.defaults().withExplainTimeLimit(null))
                .isInstanceOf(NullPointerException.class).hasMessage("explainTimeLimit is null");
        assertThatThrownBy(() -> GpuMode.fromName(null))
                .isInstanceOf(NullPointerException.class).hasMessage("name is null");
    }

    @Test
    void theDefaultsAreTheCommandLinesAndWithReturnsACopy() {
        CheckOptions defaults = CheckOptions.defaults();
        assertThat(defaults.gpuMode()).isEqualTo(GpuMode.AUTO);
        assertThat(defaults.explainTimeLimit()).isEqualTo(Duration.ofSeconds(30));
        assertThat(defaults.explainMaxTransactions()).isEqualTo(10);
        assertThat(defaults.timeLimit()).isEqualTo(Duration.ofMinutes(10)).isEqualTo(CheckOptions.DEFAULT_TIME_LIMIT);
        assertThat(defaults.memoryBudget()).isEmpty();

        CheckOptions changed = defaults.withGpuMode(GpuMode.OFF).withExplainTimeLimit(Duration.ofSeconds(5))
                .withExplainMaxTransactions(CheckOptions.MAX_EXPLAIN_TRANSACTIONS);
        assertThat(changed.gpuMode()).isEqualTo(GpuMode.OFF);
        assertThat(changed.explainTimeLimit()).isEqualTo(Duration.ofSeconds(5));
        assertThat(changed.explainMaxTransactions()).isEqualTo(30);
        assertThat(defaults).isEqualTo(CheckOptions.defaults()).isNotEqualTo(changed);
        assertThat(defaults.gpuMode()).isEqualTo(GpuMode.AUTO);
        assertThat(changed).isEqualTo(CheckOptions.defaults().withExplainMaxTransactions(30).withGpuMode(GpuMode.OFF)
                .withExplainTimeLimit(Duration.ofSeconds(5)));
        assertThat(changed).hasSameHashCodeAs(CheckOptions.defaults().withExplainMaxTransactions(30)
                .withGpuMode(GpuMode.OFF).withExplainTimeLimit(Duration.ofSeconds(5)));
        assertThat(changed).hasToString("CheckOptions[gpuMode=OFF, timeLimit=PT10M, memoryBudget=default,"
                + " explainTimeLimit=PT5S, explainMaxTransactions=30]");

        CheckOptions limited = changed.withTimeLimit(Duration.ofSeconds(30)).withMemoryBudget(1 << 20);
        assertThat(limited.timeLimit()).isEqualTo(Duration.ofSeconds(30));
        assertThat(limited.memoryBudget()).hasValue(1 << 20);
        assertThat(changed.timeLimit()).isEqualTo(Duration.ofMinutes(10));
        assertThat(limited).isNotEqualTo(changed).isEqualTo(changed.withMemoryBudget(1 << 20).withTimeLimit(Duration.ofSeconds(30)));
        assertThat(limited).hasToString("CheckOptions[gpuMode=OFF, timeLimit=PT30S, memoryBudget=1048576,"
                + " explainTimeLimit=PT5S, explainMaxTransactions=30]");
    }

    @Test
    void badOptionValuesAreNamedInTheMessage() {
        assertThatThrownBy(() -> CheckOptions.defaults().withExplainTimeLimit(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("explainTimeLimit must not be negative: PT-1S");
        assertThatThrownBy(() -> CheckOptions.defaults().withTimeLimit(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("timeLimit must be positive: PT0S");
        assertThatThrownBy(() -> CheckOptions.defaults().withMemoryBudget(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the memory budget must be positive: 0");
        assertThatThrownBy(() -> CheckOptions.defaults().withExplainMaxTransactions(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("explainMaxTransactions must be between 1 and 30: 0");
        assertThatThrownBy(() -> CheckOptions.defaults().withExplainMaxTransactions(31))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("explainMaxTransactions must be between 1 and 30: 31");
    }

    @Test
    void aTimeLimitOfCenturiesMeansNone() {
        CheckOptions unlimited = CheckOptions.defaults().withExplainTimeLimit(Duration.ofSeconds(Long.MAX_VALUE));

        CheckResult result = Isocheck.check(writeSkew(), IsolationLevel.SERIALIZABLE, unlimited);

        assertThat(result.explanation().orElseThrow()).isInstanceOf(Explanation.Cycles.class);
    }

    @ParameterizedTest
    @CsvSource({"auto, AUTO", "ON, ON", "' off ', OFF", "Auto, AUTO"})
    void gpuModesAreParsedFromWhatUsersType(String typed, GpuMode mode) {
        assertThat(GpuMode.fromName(typed)).isEqualTo(mode);
    }

    @ParameterizedTest
    @ValueSource(strings = {"yes", "", "true", "gpu"})
    void anUnknownGpuModeNamesTheModes(String typed) {
        assertThatThrownBy(() -> GpuMode.fromName(typed))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown GPU mode '" + typed + "'; the modes are auto, on, off");
    }

    @Test
    void aResultHasAnExplanationExactlyWhenViolated() {
        Verdict satisfied = new Verdict.Satisfied(IsolationLevel.SERIALIZABLE, List.of());
        Explanation unexplained = new Explanation.Unexplained(IsolationLevel.SERIALIZABLE, "why");
        assertThatThrownBy(() -> new CheckResult(satisfied, Optional.of(unexplained), Duration.ZERO, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("only a violation has an explanation");
        Verdict violated = Isocheck.check(writeSkew(), IsolationLevel.SERIALIZABLE).verdict();
        assertThatThrownBy(() -> new CheckResult(violated, Optional.empty(), Duration.ZERO, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("a violation needs an explanation");
        assertThatThrownBy(() -> new CheckResult(satisfied, Optional.empty(), Duration.ofMillis(-1), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("durations must not be negative: PT-0.001S, PT0S");
    }
}
