package dev.isocheck.internal.reference;

import static dev.isocheck.IsolationLevel.SERIALIZABLE;
import static dev.isocheck.IsolationLevel.SNAPSHOT_ISOLATION;
import static dev.isocheck.IsolationLevel.STRICT_SERIALIZABLE;
import static dev.isocheck.history.Rows.doctor;
import static dev.isocheck.history.Rows.rows;
import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.AnomalyType;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class ReferenceCheckerTests {

    private static final ReferenceChecker CHECKER = new ReferenceChecker();

    /** Asserts the verdict at each level; every Satisfied witness is replayed. */
    private static void assertLevels(History history, boolean strict, boolean serializable, boolean snapshot) {
        assertLevel(history, STRICT_SERIALIZABLE, strict);
        assertLevel(history, SERIALIZABLE, serializable);
        assertLevel(history, SNAPSHOT_ISOLATION, snapshot);
    }

    private static void assertLevel(History history, IsolationLevel level, boolean satisfied) {
        Verdict verdict = CHECKER.check(history, level);
        if (satisfied) {
            assertThat(verdict).as("%s at %s", history, level).isInstanceOf(Verdict.Satisfied.class);
            List<String> witness = ((Verdict.Satisfied) verdict).witness();
            assertThat(witness).hasSize(history.committedCount());
            assertThat(ReferenceChecker.explains(history, level, witness)).as("witness %s replays", witness).isTrue();
        } else {
            assertThat(verdict).as("%s at %s", history, level).isInstanceOf(Verdict.Violated.class);
            Verdict.Violated violated = (Verdict.Violated) verdict;
            assertThat(violated.anomaly().type()).isEqualTo(AnomalyType.NO_VALID_ORDER);
            assertThat(violated.anomaly().transactions()).hasSize(history.committedCount());
        }
    }

    private static HistoryBuilder xyZero() {
        return History.builder().initialValue("x", 0).initialValue("y", 0).initialStateComplete(true);
    }

    @Nested
    class TextbookAnomalies {

        @Test
        void writeSkew() {
            // Each reads both keys at 0 and writes a different one: serially the second would see
            // the first's write, so SER (and strict) fail; SI lets both read the empty snapshot,
            // and they write disjoint keys, so first-committer-wins does not apply.
            HistoryBuilder b = xyZero();
            b.transaction("T1").read("x", 0).read("y", 0).write("x", 1);
            b.transaction("T2").read("x", 0).read("y", 0).write("y", 1);
            History h = b.build();
            assertLevels(h, false, false, true);
            assertThat(ReferenceChecker.explainsSnapshots(h, List.of("T1", "T2"), List.of(0, 0))).isTrue();
            assertThat(ReferenceChecker.explainsSnapshots(h, List.of("T1", "T2"), List.of(0, 1))).isFalse();
        }

        @Test
        void lostUpdate() {
            // Both read x = 0 and write it: serially the second would read the first's write; under
            // SI the second committer's snapshot must include the first (a common key written),
            // so it would read 1. Violates all three.
            HistoryBuilder b = xyZero();
            b.transaction("T1").read("x", 0).write("x", 1);
            b.transaction("T2").read("x", 0).write("x", 2);
            History h = b.build();
            assertLevels(h, false, false, false);
            assertThat(ReferenceChecker.explainsSnapshots(h, List.of("T1", "T2"), List.of(0, 0))).isFalse();
        }

        @Test
        void readSkew() {
            // T2 sees x before T1 and y after it: no prefix of any order holds both. Violates all.
            HistoryBuilder b = xyZero();
            b.transaction("T1").write("x", 1).write("y", 1);
            b.transaction("T2").read("x", 0).read("y", 1);
            assertLevels(b.build(), false, false, false);
        }

        @Test
        void longFork() {
            // T3 sees T1 without T2, T4 sees T2 without T1: the snapshots are not prefixes of one
            // commit order. Violates all, SI included.
            HistoryBuilder b = xyZero();
            b.transaction("T1").write("x", 1);
            b.transaction("T2").write("y", 1);
            b.transaction("T3").read("x", 1).read("y", 0);
            b.transaction("T4").read("x", 0).read("y", 1);
            assertLevels(b.build(), false, false, false);
        }

        @Test
        void writeCycleG0() {
            // T3 finds x from T1 and y from T2: T1 wrote x after T2, T2 wrote y after T1; no
            // prefix installs that mix (with both or with one, a key would be missing). Violates all.
            HistoryBuilder b = History.builder().initialStateComplete(true);
            b.transaction("T1").write("x", 1).write("y", 1);
            b.transaction("T2").write("x", 2).write("y", 2);
            b.transaction("T3").read("x", 1).read("y", 2);
            assertLevels(b.build(), false, false, false);
        }

        @Test
        void abortedReadG1a() {
            // Only the aborted T1 wrote 1; aborted transactions install nothing. Violates all.
            HistoryBuilder b = xyZero();
            b.transaction("T1").write("x", 1).aborted();
            b.transaction("T2").read("x", 1);
            assertLevels(b.build(), false, false, false);
        }

        @Test
        void intermediateReadG1b() {
            // 1 was overwritten by 2 inside T1; only the last write is installed. Violates all.
            HistoryBuilder b = xyZero();
            b.transaction("T1").write("x", 1).write("x", 2);
            b.transaction("T2").read("x", 1);
            assertLevels(b.build(), false, false, false);
        }

        @Test
        void phantomWriteSkewOverPredicateReads() {
            // Both see two doctors on call and each takes itself off: serially the second would see
            // one. SI lets both read the initial snapshot; they write different rows. SER fails, SI holds.
            HistoryBuilder b = History.builder().initialStateComplete(true)
                    .initialValue("doctors/1", doctor(1, true)).initialValue("doctors/2", doctor(2, true));
            Map<String, Object> bothOnCall = rows("doctors/1", doctor(1, true), "doctors/2", doctor(2, true));
            b.transaction("T1").predicate("doctors", "on_call = TRUE", bothOnCall).write("doctors/1", doctor(1, false));
            b.transaction("T2").predicate("doctors", "on_call = TRUE", bothOnCall).write("doctors/2", doctor(2, false));
            assertLevels(b.build(), false, false, true);
        }

        @Test
        void insertPhantom() {
            // T1 inserts an on-call doctor; T2 comes after it in the session, yet its predicate
            // read misses the new row. Every level makes T2 see T1. Violates all.
            HistoryBuilder b = History.builder().initialStateComplete(true).initialValue("doctors/1", doctor(1, true));
            b.transaction("T1").session("s").write("doctors/2", doctor(2, true));
            b.transaction("T2").session("s").predicate("doctors", "on_call = TRUE", rows("doctors/1", doctor(1, true)));
            assertLevels(b.build(), false, false, false);
        }

        @Test
        void staleReadViolatesOnlyStrict() {
            // T2 starts after T1 ended yet reads the old x. Serially T2 may come first (SER and SI
            // hold); real time puts T1 first, so strict serializability fails.
            HistoryBuilder b = xyZero();
            b.transaction("T1").write("x", 1).times(0, 10);
            b.transaction("T2").read("x", 0).times(20, 30);
            History h = b.build();
            assertLevels(h, false, true, true);
            assertThat(ReferenceChecker.explains(h, SERIALIZABLE, List.of("T2", "T1"))).isTrue();
            assertThat(ReferenceChecker.explains(h, STRICT_SERIALIZABLE, List.of("T2", "T1"))).isFalse();
        }
    }

    @Nested
    class SatisfiedHistories {

        @Test
        void serialHistory() {
            HistoryBuilder b = xyZero();
            b.transaction("T1").read("x", 0).write("x", 1);
            b.transaction("T2").read("x", 1).write("x", 2).write("y", 2);
            b.transaction("T3").read("x", 2).read("y", 2);
            History h = b.build();
            assertLevels(h, true, true, true);
            assertThat(((Verdict.Satisfied) CHECKER.check(h, SERIALIZABLE)).witness()).containsExactly("T1", "T2", "T3");
        }

        @Test
        void duplicateValuesExplainedByEitherWriter() {
            // Two writers of 1 (T2 reads T1's and rewrites it); either writer serves T3's read.
            HistoryBuilder b = xyZero();
            b.transaction("T1").write("x", 1);
            b.transaction("T2").read("x", 1).write("x", 1);
            b.transaction("T3").read("x", 1);
            assertLevels(b.build(), true, true, true);
        }

        @Test
        void partialRowReads() {
            // Reads that selected some columns are consistent with the full row written.
            HistoryBuilder b = History.builder().initialStateComplete(true)
                    .initialValue("accounts/1", Map.of("id", 1, "balance", 100, "owner", "ann"));
            b.transaction("T1").read("accounts/1", Map.of("balance", 100))
                    .write("accounts/1", Map.of("id", 1, "balance", 90, "owner", "ann"));
            b.transaction("T2").read("accounts/1", Map.of("owner", "ann", "balance", 90));
            assertLevels(b.build(), true, true, true);
        }

        @Test
        void partialRowReadOfAValueNobodyWrote() {
            HistoryBuilder b = History.builder().initialStateComplete(true)
                    .initialValue("accounts/1", Map.of("id", 1, "balance", 100));
            b.transaction("T1").write("accounts/1", Map.of("id", 1, "balance", 90));
            b.transaction("T2").read("accounts/1", Map.of("balance", 95));
            assertLevels(b.build(), false, false, false);
        }

        @Test
        void abortedTransactionIsIgnored() {
            // T1's read of 99 is not checked and its write is never installed.
            HistoryBuilder b = xyZero();
            b.transaction("T1").read("x", 99).write("x", 5).aborted();
            b.transaction("T2").read("x", 0).write("x", 1);
            b.transaction("T3").read("x", 1);
            assertLevels(b.build(), true, true, true);
        }

        @Test
        void emptyHistory() {
            assertLevels(History.builder().build(), true, true, true);
        }
    }

    @Nested
    class UnknownInitialValues {

        @Test
        void consistentObservationsOfTheInitialValue() {
            // x is unlisted: 5 is a value nobody wrote, seen twice alike before T3 overwrites it.
            HistoryBuilder b = History.builder();
            b.transaction("T1").read("x", 5);
            b.transaction("T2").read("x", 5);
            b.transaction("T3").write("x", 1);
            b.transaction("T4").read("x", 1);
            assertLevels(b.build(), true, true, true);
        }

        @Test
        void absentInitialValueIsAlwaysPossible() {
            HistoryBuilder b = History.builder();
            b.transaction("T1").readAbsent("x").write("x", 1);
            b.transaction("T2").read("x", 1).delete("x");
            assertLevels(b.build(), true, true, true);
        }

        @Test
        void conflictingObservationsOfTheInitialValue() {
            // Nobody writes x, so both reads see its one initial value, yet they differ.
            HistoryBuilder b = History.builder();
            b.transaction("T1").read("x", 5);
            b.transaction("T2").read("x", 6);
            assertLevels(b.build(), false, false, false);
        }

        @Test
        void presentAndAbsentObservationsConflict() {
            HistoryBuilder b = History.builder();
            b.transaction("T1").read("x", 5);
            b.transaction("T2").readAbsent("x");
            assertLevels(b.build(), false, false, false);
        }

        @Test
        void compatiblePartialRowsOfTheInitialValue() {
            HistoryBuilder b = History.builder();
            b.transaction("T1").read("a/1", Map.of("id", 1));
            b.transaction("T2").read("a/1", Map.of("id", 1, "n", 2));
            assertLevels(b.build(), true, true, true);
        }

        @Test
        void aWrittenValueIsNotTheInitialValue() {
            // T2 reads 1 before T1 (session order) writes it; 1 was written, so it cannot be the
            // initial value either.
            HistoryBuilder b = History.builder();
            b.transaction("T2").session("s").read("x", 1);
            b.transaction("T1").session("s").write("x", 1);
            assertLevels(b.build(), false, false, false);
        }

        private static HistoryBuilder any() {
            return History.builder().unknownInitialValues(dev.isocheck.history.UnknownInitialValues.ANY);
        }

        @Test
        void withUnknownAnyAWrittenValueMayBeTheInitialValue() {
            // The same history as above, recorded: x may have started at 1.
            HistoryBuilder b = any();
            b.transaction("T2").session("s").read("x", 1);
            b.transaction("T1").session("s").write("x", 1);
            assertLevels(b.build(), true, true, true);
        }

        @Test
        void aToggleNeedsTheInitialValueToBeOneAWriteRepeats() {
            // Issue 14: T1 sets the flag it read false, T2 clears the flag it read true.
            for (boolean any : new boolean[] {false, true}) {
                HistoryBuilder b = any ? any() : History.builder();
                b.transaction("T1").read("flag", false).write("flag", true);
                b.transaction("T2").read("flag", true).write("flag", false);
                assertLevels(b.build(), any, any, any);
            }
        }

        @Test
        void withUnknownAnyEveryReadOfTheInitialVersionStillSeesOneValue() {
            // Nobody writes 2, so T2 read the initial version; T1, before it in its session, read 1,
            // which T3 wrote or the initial version held. The initial value cannot be both 1 and 2,
            // so T1 read T3's 1, T3 precedes T1 and T2, and T2 could not have seen the initial version.
            HistoryBuilder b = any();
            b.transaction("T1").session("s").read("x", 1);
            b.transaction("T2").session("s").read("x", 2);
            b.transaction("T3").write("x", 1);
            assertLevels(b.build(), false, false, false);
            // Rows: the same fields in every read of the initial row.
            HistoryBuilder rows = any();
            rows.transaction("T1").session("s").read("t/1", Map.of("id", 1, "v", 1));
            rows.transaction("T2").session("s").read("t/1", Map.of("id", 1, "v", 2));
            rows.transaction("T3").write("t/1", Map.of("id", 1, "v", 1));
            assertLevels(rows.build(), false, false, false);
        }

        @Test
        void withUnknownAnyAListedInitialValueIsStillKnown() {
            HistoryBuilder b = any().initialValue("x", 0);
            b.transaction("T2").session("s").read("x", 1);
            b.transaction("T1").session("s").write("x", 1);
            assertLevels(b.build(), false, false, false);
        }

        @Test
        void predicateMissingAKnownInitialRow() {
            // doctors/3 is known (from T1's read) to be on call initially, and nobody writes it:
            // T2's predicate read must return it. Violates all.
            HistoryBuilder b = History.builder();
            b.transaction("T1").read("doctors/3", doctor(3, true));
            b.transaction("T2").predicate("doctors", "on_call = TRUE", Map.of());
            assertLevels(b.build(), false, false, false);
        }

        @Test
        void predicateMissingAnInitialRowWhoseFieldsAreNotKnown() {
            // Only the id of doctors/3 was seen; whether it is on call is unknown: no constraint.
            HistoryBuilder b = History.builder();
            b.transaction("T1").read("doctors/3", Map.of("id", 3));
            b.transaction("T2").predicate("doctors", "on_call = TRUE", Map.of());
            assertLevels(b.build(), true, true, true);
        }

        @Test
        void aFieldMatchedOnlyIgnoringCaseIsNotKnown() {
            // The unquoted column v would read a field "V" only if the row has no field "v"; T3
            // shows that it has one, and the initial row {"V": 3, "v": -1} fails v >= 0, so T2 may
            // miss it. Found cross-checking against NaiveOracle: the checker used to decide T2 on
            // T1's {"V": 3} alone, a false alarm.
            HistoryBuilder b = History.builder();
            b.transaction("T1").session("s").read("t/1", Map.of("V", 3));
            b.transaction("T2").session("s").predicate("t", "v >= 0", Map.of());
            b.transaction("T3").session("s").read("t/1", Map.of("v", -1));
            assertLevels(b.build(), true, true, true);
            // Without T3 the row may still have an unobserved field "v": no constraint either.
            HistoryBuilder unseen = History.builder();
            unseen.transaction("T1").read("t/1", Map.of("V", 3));
            unseen.transaction("T2").predicate("t", "v >= 0", Map.of());
            assertLevels(unseen.build(), true, true, true);
            // An exact field is known: {"v": 3} is selected by v >= 0, and "v" cannot be shadowed.
            HistoryBuilder exact = History.builder();
            exact.transaction("T1").read("t/1", Map.of("v", 3));
            exact.transaction("T2").predicate("t", "v >= 0", Map.of());
            assertLevels(exact.build(), false, false, false);
        }
    }

    @Nested
    class InternalReads {

        @Test
        void readYourOwnWrite() {
            HistoryBuilder b = xyZero();
            b.transaction("T1").read("x", 0).write("x", 1).read("x", 1);
            assertLevels(b.build(), true, true, true);
        }

        @Test
        void readOtherThanOwnWriteIsInternalInconsistency() {
            // INT: after writing 1, T1 reads the old 0.
            HistoryBuilder b = xyZero();
            b.transaction("T1").write("x", 1).read("x", 0);
            assertLevels(b.build(), false, false, false);
        }

        @Test
        void repeatedReadsDisagree() {
            HistoryBuilder b = xyZero();
            b.transaction("T1").write("x", 1);
            b.transaction("T2").read("x", 0).read("x", 1);
            assertLevels(b.build(), false, false, false);
        }
    }

    @Nested
    class Sessions {

        @Test
        void sessionOrderForcesAViolation() {
            // Without sessions T2 could run before T1; in one session it runs after and must see 1.
            HistoryBuilder free = xyZero();
            free.transaction("T1").write("x", 1);
            free.transaction("T2").read("x", 0);
            assertLevels(free.build(), true, true, true);

            HistoryBuilder ordered = xyZero();
            ordered.transaction("T1").session("s").write("x", 1);
            ordered.transaction("T2").session("s").read("x", 0);
            assertLevels(ordered.build(), false, false, false);
        }

        @Test
        void abortedSessionMemberDoesNotOrderAnything() {
            HistoryBuilder b = xyZero();
            b.transaction("T1").session("s").write("x", 1);
            b.transaction("T2").session("s").write("x", 7).aborted();
            b.transaction("T3").session("s").read("x", 1);
            assertLevels(b.build(), true, true, true);
        }
    }

    @Nested
    class PredicateReads {

        @Test
        void predicateReadIncludesOwnInsert() {
            HistoryBuilder b = History.builder().initialStateComplete(true).initialValue("doctors/1", doctor(1, true));
            b.transaction("T1").write("doctors/2", doctor(2, true))
                    .predicate("doctors", "on_call = TRUE", rows("doctors/1", doctor(1, true), "doctors/2", doctor(2, true)));
            assertLevels(b.build(), true, true, true);
        }

        @Test
        void predicateReadMissingOwnInsert() {
            HistoryBuilder b = History.builder().initialStateComplete(true).initialValue("doctors/1", doctor(1, true));
            b.transaction("T1").write("doctors/2", doctor(2, true))
                    .predicate("doctors", "on_call = TRUE", rows("doctors/1", doctor(1, true)));
            assertLevels(b.build(), false, false, false);
        }

        @Test
        void predicateReadReturningARowThatDoesNotMatch() {
            HistoryBuilder b = History.builder().initialStateComplete(true).initialValue("doctors/1", doctor(1, false));
            b.transaction("T1").predicate("doctors", "on_call = TRUE", rows("doctors/1", doctor(1, false)));
            assertLevels(b.build(), false, false, false);
        }

        @Test
        void unsupportedWhereRaisesNoFalseAlarm() {
            // lower() is not supported: the read is unmodelled, the missing doctors/2 is free.
            HistoryBuilder b = History.builder().initialStateComplete(true)
                    .initialValue("doctors/1", Map.of("id", 1, "name", "Ann")).initialValue("doctors/2", Map.of("id", 2, "name", "ann"));
            b.transaction("T1").predicate("doctors", "lower(name) = 'ann'", rows("doctors/1", Map.of("id", 1, "name", "Ann")));
            assertLevels(b.build(), true, true, true);
        }

        @Test
        void unsupportedWhereStillChecksReturnedRows() {
            // The returned row is an item read: its value was never written.
            HistoryBuilder b = History.builder().initialStateComplete(true).initialValue("doctors/1", Map.of("id", 1, "name", "Ann"));
            b.transaction("T1").predicate("doctors", "lower(name) = 'ann'", rows("doctors/1", Map.of("id", 1, "name", "Bob")));
            assertLevels(b.build(), false, false, false);
        }

        @Test
        void aBackslashInALikePatternNeitherRequiresNorForbidsARow() {
            // PostgreSQL and MySQL read the pattern a\_b as "a_b" (backslash is LIKE's default escape), SQLite
            // as "a\" + any character + "b": either answer is a correct database's.
            HistoryBuilder b = History.builder().initialStateComplete(true)
                    .initialValue("t/1", Map.of("id", 1, "name", "a_b")).initialValue("t/2", Map.of("id", 2, "name", "a\\xb"));
            b.transaction("T1").predicate("t", "name LIKE 'a\\_b'", rows("t/1", Map.of("id", 1, "name", "a_b")));
            b.transaction("T2").predicate("t", "name LIKE 'a\\_b'", rows("t/2", Map.of("id", 2, "name", "a\\xb")));
            assertLevels(b.build(), true, true, true);
        }

        @Test
        void aBackslashInAStringLiteralNeitherRequiresNorForbidsARow() {
            // The literal 'a\\b' is a\\b in PostgreSQL, a\b in MySQL's default mode.
            HistoryBuilder b = History.builder().initialStateComplete(true)
                    .initialValue("t/1", Map.of("id", 1, "name", "a\\b")).initialValue("t/2", Map.of("id", 2, "name", "a\\\\b"));
            b.transaction("T1").predicate("t", "name = 'a\\\\b'", rows("t/1", Map.of("id", 1, "name", "a\\b")));
            assertLevels(b.build(), true, true, true);
        }

        @Test
        void columnsDifferingOnlyInCaseNeitherRequireNorForbidARow() {
            // An unquoted v reads v in PostgreSQL and V in Oracle: either answer is a correct database's.
            HistoryBuilder b = History.builder().initialStateComplete(true).initialValue("t/1", Map.of("id", 1, "v", 3, "V", -1));
            b.transaction("T1").predicate("t", "v >= 0", Map.of());
            b.transaction("T2").predicate("t", "v >= 0", rows("t/1", Map.of("id", 1, "v", 3, "V", -1)));
            assertLevels(b.build(), true, true, true);

            HistoryBuilder unknown = History.builder();
            unknown.transaction("T1").session("s").read("t/1", Map.of("id", 1, "v", 3, "V", -1));
            unknown.transaction("T2").session("s").predicate("t", "v >= 0", Map.of());
            assertLevels(unknown.build(), true, true, true);
        }

        @Test
        void aNullFieldIsTheMissingColumnOfTheRowWritten() {
            // The recorder logged only the inserted columns; SELECT * shows the unset one as null.
            Map<String, Object> selectAll = new LinkedHashMap<>(Map.of("id", 1, "v", 2));
            selectAll.put("note", null);
            HistoryBuilder b = History.builder().initialStateComplete(true);
            b.transaction("T1").session("s").write("t/1", Map.of("id", 1, "v", 2));
            b.transaction("T2").session("s").read("t/1", selectAll).predicate("t", "note IS NULL", rows("t/1", selectAll));
            assertLevels(b.build(), true, true, true);

            // Two observations of an unknown initial row, one with the null column: compatible.
            HistoryBuilder unknown = History.builder();
            unknown.transaction("T1").read("t/1", Map.of("id", 1, "v", 2)).read("t/1", selectAll);
            unknown.transaction("T2").read("t/1", selectAll);
            assertLevels(unknown.build(), true, true, true);

            // ... but a null column and a present one are not.
            HistoryBuilder conflict = History.builder();
            conflict.transaction("T1").read("t/1", selectAll);
            conflict.transaction("T2").read("t/1", Map.of("id", 1, "note", "x"));
            assertLevels(conflict.build(), false, false, false);
        }

        @Test
        void indeterminateComparisonNeitherRequiresNorForbidsARow() {
            // shift is a number, the literal a string: the database may convert; either answer is allowed.
            HistoryBuilder b = History.builder().initialStateComplete(true).initialValue("doctors/1", Map.of("id", 1, "shift", 1));
            b.transaction("T1").predicate("doctors", "shift = '1'", Map.of());
            b.transaction("T2").predicate("doctors", "shift = '1'", rows("doctors/1", Map.of("id", 1, "shift", 1)));
            assertLevels(b.build(), true, true, true);
        }
    }

    @Nested
    class SizeLimit {

        private History nineCommitted() {
            HistoryBuilder b = xyZero();
            for (int i = 1; i <= 9; i++) {
                b.transaction("T" + i).session("s").read("x", i - 1).write("x", i);
            }
            b.transaction("A").write("y", 1).aborted();
            return b.build();
        }

        @Test
        void tooLargeIsUnknown() {
            for (IsolationLevel level : dev.isocheck.internal.saturate.WeakLevel.searchedLevels()) {
                Verdict verdict = CHECKER.check(nineCommitted(), level);
                assertThat(verdict).isInstanceOf(Verdict.Unknown.class);
                assertThat(((Verdict.Unknown) verdict).reason())
                        .contains("too large for the reference checker").contains("9 committed transactions (at most 8)");
            }
        }

        @Test
        void aLargerLimitDecides() {
            History h = nineCommitted();
            Verdict verdict = new ReferenceChecker(9).check(h, SERIALIZABLE);
            assertThat(verdict).isInstanceOf(Verdict.Satisfied.class);
            assertThat(ReferenceChecker.explains(h, SERIALIZABLE, ((Verdict.Satisfied) verdict).witness())).isTrue();
        }
    }

    @Nested
    class WitnessReplay {

        @Test
        void rejectsOrdersThatAreNotPermutationsOfTheCommitted() {
            HistoryBuilder b = xyZero();
            b.transaction("T1").write("x", 1);
            b.transaction("T2").read("x", 1);
            b.transaction("A").write("y", 3).aborted();
            History h = b.build();
            assertThat(ReferenceChecker.explains(h, SERIALIZABLE, List.of("T1", "T2"))).isTrue();
            assertThat(ReferenceChecker.explains(h, SERIALIZABLE, List.of("T2", "T1"))).isFalse();
            assertThat(ReferenceChecker.explains(h, SERIALIZABLE, List.of("T1"))).isFalse();
            assertThat(ReferenceChecker.explains(h, SERIALIZABLE, List.of("T1", "T1"))).isFalse();
            assertThat(ReferenceChecker.explains(h, SERIALIZABLE, List.of("T1", "T2", "A"))).isFalse();
            assertThat(ReferenceChecker.explains(h, SERIALIZABLE, List.of("T1", "nope"))).isFalse();
        }
    }

    @Nested
    class Speed {

        @Test
        @Timeout(10)
        void exhaustsEightTransactionsQuickly() {
            // Nothing explains T8's read, so every order (and, for SI, every snapshot) is tried.
            HistoryBuilder b = xyZero();
            for (int i = 1; i <= 7; i++) {
                b.transaction("T" + i).read("x", 0).write("k" + i, i);
            }
            b.transaction("T8").read("y", 99);
            History h = b.build();
            for (IsolationLevel level : dev.isocheck.internal.saturate.WeakLevel.searchedLevels()) {
                assertLevel(h, level, false);
            }
        }
    }
}
