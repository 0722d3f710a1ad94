package dev.isocheck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.RewrittenKeys.Layout;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Issue 14, through the public API only: a check past its memory budget or time limit answers
 * {@link Verdict.Unknown} with the reason (never a pass, never an exception), and a pass says what
 * it did not check.
 */
@DisplayName("Isocheck: never a lost verdict, never a silent pass")
class LimitsAndCaveatsTests {

    /** Room for the encoding's tables (about 90 MiB here), not for its edges (several GiB). */
    private static final long SMALL_BUDGET = 256L << 20;

    @Nested
    @DisplayName("limits")
    class Limits {

        @Test
        void theIssuesHistoryOverTheMemoryBudgetIsUnknownWithTheCountsAndTheBudget() {
            // 5,000 transactions over 50 keys with values 0..3, the file not in a serial order and
            // no times: its encoding has about 90 million edges, several GiB, far over 256 MiB.
            History history = RewrittenKeys.history(RewrittenKeys.TRANSACTIONS, RewrittenKeys.SESSIONS, RewrittenKeys.KEYS,
                    RewrittenKeys.VALUES, 14, Layout.SESSION_BY_SESSION);

            CheckResult result = Isocheck.check(history, IsolationLevel.SERIALIZABLE,
                    CheckOptions.defaults().withMemoryBudget(SMALL_BUDGET));

            assertThat(result.isUnknown()).isTrue();
            assertThat(result.isSatisfied()).isFalse();
            assertThat(result.isViolated()).isFalse();
            assertThat(result.caveats()).isEmpty();
            assertThat(result.explanation()).isEmpty();
            assertThat(result.unknownReason()).hasValueSatisfying(reason -> assertThat(reason)
                    .startsWith("the SAT encoding (")
                    .containsPattern("\\(\\d{2},\\d{3},\\d{3} edges of the dependency graph over [\\d,]+ variables\\)")
                    .contains("would need about ", " GiB, more than the memory budget of 256 MiB (as set) allows, so it was not built")
                    .endsWith("; replaying the transactions in the order of the file does not explain the history either"));
            // Counting the encoding instead of building it: seconds, not minutes.
            assertThat(result.checkDuration()).isLessThan(Duration.ofSeconds(60));
        }

        @Test
        void theIssuesHistoryWithTimesIsDecidedByTheirOrderWhenTheEncodingDoesNotFit() {
            History history = RewrittenKeys.history(14);

            CheckResult result = Isocheck.check(history, IsolationLevel.SERIALIZABLE,
                    CheckOptions.defaults().withMemoryBudget(SMALL_BUDGET));

            assertThat(result.isSatisfied()).isTrue();
            List<String> serial = new ArrayList<>();
            for (int t = 0; t < RewrittenKeys.TRANSACTIONS; t++) {
                serial.add("T" + t);
            }
            assertThat(((Verdict.Satisfied) result.verdict()).witness()).isEqualTo(serial);
            assertThat(result.caveats()).isEmpty();
        }

        @Test
        void aCheckPastItsTimeLimitIsUnknownNamingTheLimitAndTheStage() {
            // Without times and out of order, 500 such transactions keep the SAT search busy for minutes.
            History history = RewrittenKeys.history(500, RewrittenKeys.SESSIONS, RewrittenKeys.KEYS, RewrittenKeys.VALUES, 14,
                    Layout.SESSION_BY_SESSION);

            CheckResult result = Isocheck.check(history, IsolationLevel.SERIALIZABLE,
                    CheckOptions.defaults().withTimeLimit(Duration.ofSeconds(2)));

            assertThat(result.isUnknown()).isTrue();
            assertThat(result.unknownReason()).hasValueSatisfying(reason -> assertThat(reason)
                    .startsWith("the time limit of 2s was exceeded while "));
            assertThat(result.checkDuration()).isLessThan(Duration.ofSeconds(30));
        }
    }

    @Nested
    @DisplayName("caveats")
    class Caveats {

        @Test
        void anEmptyHistoryPassesWithACaveat() {
            CheckResult empty = Isocheck.check(History.builder().build(), IsolationLevel.SERIALIZABLE);
            HistoryBuilder aborted = History.builder();
            aborted.transaction("T1").aborted().write("x", 1);
            CheckResult onlyAborted = Isocheck.check(aborted.build(), IsolationLevel.SNAPSHOT_ISOLATION);

            for (CheckResult result : List.of(empty, onlyAborted)) {
                assertThat(result.isSatisfied()).isTrue();
                assertThat(result.caveats()).containsExactly("the history has no committed transactions, so there was nothing to check");
            }
        }

        @Test
        void strictSerializabilityWithoutTimesSaysRealTimeWasNotChecked() {
            HistoryBuilder untimed = History.builder().initialValue("x", 0).initialStateComplete(true);
            untimed.transaction("T1").session("a").read("x", 0).write("x", 1);
            untimed.transaction("T2").session("b").read("x", 1).write("x", 2);

            History history = untimed.build();
            CheckResult strict = Isocheck.check(history, IsolationLevel.STRICT_SERIALIZABLE);
            CheckResult serializable = Isocheck.check(history, IsolationLevel.SERIALIZABLE);

            assertThat(strict.isSatisfied()).isTrue();
            assertThat(strict.caveats()).containsExactly("real-time order: no transaction has a start or end time, so"
                    + " real-time order is unknown and only serializability was checked");
            assertThat(serializable.caveats()).isEmpty();
        }

        @Test
        void strictSerializabilityNamesTheTransactionsWithoutBothTimes() {
            HistoryBuilder partly = History.builder().initialValue("x", 0).initialStateComplete(true);
            partly.transaction("T1").session("a").read("x", 0).write("x", 1).times(1, 2);
            partly.transaction("T2").session("b").read("x", 1).write("x", 2).start(3);
            partly.transaction("T3").session("c").read("x", 2).times(5, 6);
            HistoryBuilder timed = History.builder().initialValue("x", 0).initialStateComplete(true);
            timed.transaction("T1").session("a").read("x", 0).write("x", 1).times(1, 2);
            timed.transaction("T2").session("b").read("x", 1).write("x", 2).times(3, 4);

            assertThat(Isocheck.check(partly.build(), IsolationLevel.STRICT_SERIALIZABLE).caveats()).containsExactly(
                    "real-time order: 1 of 3 committed transactions (the first T2) lack a start or end time, so"
                            + " real-time order involving them is unknown and was not checked");
            assertThat(Isocheck.check(timed.build(), IsolationLevel.STRICT_SERIALIZABLE).caveats()).isEmpty();
        }

        @Test
        void aViolationOrAnUnknownHasNoCaveats() {
            HistoryBuilder lost = History.builder().initialValue("x", 0).initialStateComplete(true);
            lost.transaction("T1").read("x", 0).write("x", 1);
            lost.transaction("T2").read("x", 0).write("x", 2);

            CheckResult result = Isocheck.check(lost.build(), IsolationLevel.STRICT_SERIALIZABLE);

            assertThat(result.isViolated()).isTrue();
            assertThat(result.caveats()).isEmpty();
            assertThat(result.unknownReason()).isEmpty();
        }
    }
}
