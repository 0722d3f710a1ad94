package dev.isocheck.internal.solve;

import static dev.isocheck.IsolationLevel.SERIALIZABLE;
import static dev.isocheck.IsolationLevel.SNAPSHOT_ISOLATION;
import static dev.isocheck.IsolationLevel.STRICT_SERIALIZABLE;
import static dev.isocheck.history.Rows.doctor;
import static dev.isocheck.history.Rows.rows;
import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.AnomalyType;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.internal.graph.ReadAnomalies;
import dev.isocheck.internal.graph.UnreturnedRows;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.internal.reference.ReferenceChecker;
import java.util.Map;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Predicate reads in the SAT engine (issue 4): the rows a read did not return constrain the order
 * (write skew over a predicate, insert and delete phantoms), returned rows can only be versions the
 * clause may select, and an unsupported clause constrains nothing but is reported. Each verdict is
 * also the reference checker's, and the engine is asked directly, without the pipeline's fallback
 * to the reference for small histories, so the engine itself must decide.
 */
@DisplayName("SAT engine: predicate reads, inserts and deletes")
class SatCheckerPredicateTests {

    private static final SatChecker ENGINE = new SatChecker();
    private static final ReferenceChecker REFERENCE = new ReferenceChecker();

    @Test
    void writeSkewOverAPredicateViolatesSerializabilityNotSnapshotIsolation() {
        // Both see two doctors on call and each takes one off: the on-call doctors of Berenson et al.
        HistoryBuilder b = History.builder().initialStateComplete(true)
                .initialValue("doctors/1", doctor(1, true)).initialValue("doctors/2", doctor(2, true));
        Map<String, Object> both = rows("doctors/1", doctor(1, true), "doctors/2", doctor(2, true));
        b.transaction("T1").predicate("doctors", "on_call = TRUE", both).write("doctors/1", doctor(1, false));
        b.transaction("T2").predicate("doctors", "on_call = TRUE", both).write("doctors/2", doctor(2, false));
        assertLevels(b.build(), false, false, true);
    }

    @Test
    void insertPhantomClosesACycleThroughTheRowTheReadMissed() {
        // T1 counts the doctors on call and misses T2's new one, so T1 precedes T2; T2 read x
        // before T1 wrote it, so T2 precedes T1. Snapshot isolation allows it: both ran on the
        // initial snapshot and wrote different rows.
        HistoryBuilder b = History.builder().initialStateComplete(true)
                .initialValue("x", 0).initialValue("doctors/1", doctor(1, true)).initialValue("doctors/2", null);
        b.transaction("T1").predicate("doctors", "on_call = TRUE", rows("doctors/1", doctor(1, true))).write("x", 1);
        b.transaction("T2").read("x", 0).write("doctors/2", doctor(2, true));
        History history = b.build();
        assertLevels(history, false, false, true);
        assertThat(UnreturnedRows.of(dev.isocheck.internal.graph.ReadExplanations.of(history)).size()).as("only doctors/2 could have been selected").isEqualTo(1);
        assertThat(((Verdict.Violated) new SatChecker().check(history, SERIALIZABLE))
                .anomaly().explanation()).as("the engine's words for the edge of the missed row")
                .contains("T1 -did not return doctors/2 (a predicate read), a later version of which was written by-> T2");
    }

    @Test
    void deletePhantomViolatesEveryLevel() {
        // T1 does not return doctors/2, so it saw T2's delete; T2 read T1's y. No order has both.
        HistoryBuilder b = History.builder().initialStateComplete(true).initialValue("y", 0)
                .initialValue("doctors/1", doctor(1, true)).initialValue("doctors/2", doctor(2, true));
        b.transaction("T1").predicate("doctors", "on_call = TRUE", rows("doctors/1", doctor(1, true))).write("y", 1);
        b.transaction("T2").read("y", 1).write("doctors/2", null);
        assertLevels(b.build(), false, false, false);
    }

    @Test
    void deleteSeenByTheReadIsFine() {
        // The same without T2 reading y: T2 then T1 explains it at every level.
        HistoryBuilder b = History.builder().initialStateComplete(true).initialValue("y", 0)
                .initialValue("doctors/1", doctor(1, true)).initialValue("doctors/2", doctor(2, true));
        b.transaction("T1").predicate("doctors", "on_call = TRUE", rows("doctors/1", doctor(1, true))).write("y", 1);
        b.transaction("T2").write("doctors/2", null);
        assertLevels(b.build(), true, true, true);
    }

    @Test
    void aRowSelectedInEveryVersionMustBeReturned() {
        HistoryBuilder b = History.builder().initialStateComplete(true).initialValue("doctors/1", doctor(1, true));
        b.transaction("T1").write("doctors/1", doctor(1, true));
        b.transaction("T2").predicate("doctors", "on_call = TRUE", Map.of());
        History history = b.build();
        assertLevels(history, false, false, false);
        assertThat(((Verdict.Violated) ENGINE.check(history, SERIALIZABLE)).anomaly().explanation())
                .contains("T2's predicate read of doctors where on_call = TRUE (which did not return doctors/1)")
                .contains("every version of the row satisfies the clause");
    }

    @Test
    void aReturnedRowIsOnlyAVersionTheClauseMaySelect() {
        // The row returned only its id; of the versions consistent with it, only the initial one
        // is on call, yet T2 follows T1, which took the doctor off call, in its session.
        HistoryBuilder b = History.builder().initialStateComplete(true).initialValue("doctors/1", doctor(1, true));
        b.transaction("T1").session("s").write("doctors/1", doctor(1, false));
        b.transaction("T2").session("s").predicate("doctors", "on_call = TRUE", rows("doctors/1", Map.of("id", 1)));
        assertLevels(b.build(), false, false, false);
    }

    @Test
    void anUnknownInitialRowThatAnotherReadShowsSelectedCannotBeTheOneLeftOut() {
        // T1 read doctors/1's initial value, on call; T2's read, before T3's write in its session,
        // left the row out: it must have seen T3's write, which comes after it. Violation.
        HistoryBuilder b = History.builder();
        b.transaction("T1").read("doctors/1", doctor(1, true));
        b.transaction("T2").session("s").predicate("doctors", "on_call = TRUE", Map.of());
        b.transaction("T3").session("s").write("doctors/1", doctor(1, false));
        assertLevels(b.build(), false, false, false);
        // Without T1 the unknown initial value may be off call: no violation.
        HistoryBuilder unseen = History.builder();
        unseen.transaction("T2").session("s").predicate("doctors", "on_call = TRUE", Map.of());
        unseen.transaction("T3").session("s").write("doctors/1", doctor(1, false));
        assertLevels(unseen.build(), true, true, true);
    }

    @Test
    void missingItsOwnInsertIsAnInternalInconsistency() {
        HistoryBuilder b = History.builder().initialStateComplete(true).initialValue("doctors/1", doctor(1, true));
        b.transaction("T1").write("doctors/2", doctor(2, true))
                .predicate("doctors", "on_call = TRUE", rows("doctors/1", doctor(1, true)));
        History history = b.build();
        assertThat(ReadAnomalies.find(history)).singleElement().satisfies(a -> {
            assertThat(a.type()).isEqualTo(AnomalyType.INTERNAL);
            assertThat(a.explanation()).contains("did not return doctors/2 after T1 wrote");
        });
        assertThat(REFERENCE.check(history, SERIALIZABLE).isViolated()).isTrue();
    }

    @Test
    void returningItsOwnRowTheClauseRejectsIsAnInternalInconsistency() {
        HistoryBuilder b = History.builder().initialStateComplete(true).initialValue("doctors/1", doctor(1, true));
        b.transaction("T1").write("doctors/1", doctor(1, false))
                .predicate("doctors", "on_call = TRUE", rows("doctors/1", doctor(1, false)));
        History history = b.build();
        assertThat(ReadAnomalies.find(history)).singleElement()
                .satisfies(a -> assertThat(a.explanation()).contains("which the clause does not select"));
        assertThat(REFERENCE.check(history, SERIALIZABLE).isViolated()).isTrue();
    }

    @Test
    void anUnsupportedClauseConstrainsNothingAndIsReported() {
        // With a clause the engine could evaluate this would be the insert phantom above.
        HistoryBuilder b = History.builder().initialStateComplete(true)
                .initialValue("x", 0).initialValue("doctors/1", doctor(1, true)).initialValue("doctors/2", null);
        b.transaction("T1").predicate("doctors", "lower(name) = 'x' OR on_call = TRUE", rows("doctors/1", doctor(1, true)))
                .write("x", 1);
        b.transaction("T2").read("x", 0).write("doctors/2", doctor(2, true));
        Verdict verdict = ENGINE.check(b.build(), SERIALIZABLE);
        assertThat(verdict).isInstanceOfSatisfying(Verdict.Satisfied.class, s -> assertThat(s.caveats()).singleElement()
                .asString().startsWith("T1's predicate read of doctors where lower(name) = 'x' OR on_call = TRUE: only its returned rows"));
    }

    /**
     * The same history with times, checked with a time limit that has already passed: the engine
     * gives up before building its constraints and passes on the order of the recorded times,
     * which must say as well that the clause it cannot evaluate was not checked.
     */
    @Test
    void aPassFoundByGivingUpEarlyStillReportsTheClauseItCannotEvaluate() throws InterruptedException {
        HistoryBuilder b = History.builder().initialStateComplete(true)
                .initialValue("x", 0).initialValue("doctors/1", doctor(1, true)).initialValue("doctors/2", null);
        b.transaction("T1").times(10, 11).predicate("doctors", "lower(name) = 'x' OR on_call = TRUE",
                rows("doctors/1", doctor(1, true))).write("x", 1);
        b.transaction("T2").times(1, 2).read("x", 0).write("doctors/2", doctor(2, true));
        History history = b.build();
        dev.isocheck.internal.limit.Limits passed = dev.isocheck.internal.limit.Limits.startingNow(
                java.time.Duration.ofNanos(1), 1L << 30, "as set");
        Thread.sleep(2);

        for (IsolationLevel level : List.of(SERIALIZABLE, SNAPSHOT_ISOLATION)) {
            Verdict verdict = ENGINE.check(history, level, passed);
            assertThat(verdict).as("at %s", level).isInstanceOfSatisfying(Verdict.Satisfied.class,
                    s -> assertThat(s.caveats()).singleElement().asString()
                            .startsWith("T1's predicate read of doctors where lower(name) = 'x' OR on_call = TRUE: only its returned rows"));
        }
    }

    private static void assertLevels(History history, boolean strict, boolean serializable, boolean snapshot) {
        assertLevel(history, STRICT_SERIALIZABLE, strict);
        assertLevel(history, SERIALIZABLE, serializable);
        assertLevel(history, SNAPSHOT_ISOLATION, snapshot);
    }

    private static void assertLevel(History history, IsolationLevel level, boolean satisfied) {
        assertThat(ReadAnomalies.find(history)).as("screening").isEmpty();
        Verdict reference = REFERENCE.check(history, level);
        assertThat(reference.isSatisfied()).as("reference at %s: %s", level, reference).isEqualTo(satisfied);
        Verdict engine = ENGINE.check(history, level);
        assertThat(engine).as("engine at %s", level).isInstanceOf(satisfied ? Verdict.Satisfied.class : Verdict.Violated.class);
        if (engine instanceof Verdict.Satisfied s) {
            assertThat(ReferenceChecker.explains(history, level, s.witness())).as("witness at %s", level).isTrue();
            assertThat(s.caveats()).isEmpty();
        }
    }
}
