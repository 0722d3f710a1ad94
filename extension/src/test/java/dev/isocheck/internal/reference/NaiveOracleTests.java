package dev.isocheck.internal.reference;

import static dev.isocheck.IsolationLevel.SERIALIZABLE;
import static dev.isocheck.IsolationLevel.SNAPSHOT_ISOLATION;
import static dev.isocheck.IsolationLevel.STRICT_SERIALIZABLE;
import static dev.isocheck.history.Rows.row;
import static dev.isocheck.history.Rows.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.isocheck.IsolationLevel;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.PredicateRead;
import dev.isocheck.history.Session;
import dev.isocheck.history.Transaction;
import dev.isocheck.history.Value;
import dev.isocheck.internal.simulate.AnyInitialValues;
import dev.isocheck.internal.simulate.HistoryGenerator;
import dev.isocheck.internal.simulate.SeededRuns;
import dev.isocheck.internal.simulate.SimulatedDatabase;
import dev.isocheck.internal.simulate.Workload;
import dev.isocheck.internal.simulate.Workload.InitialKnowledge;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * {@link NaiveOracle} is sane on textbook histories, and agrees with {@link ReferenceChecker} at
 * every level on thousands of generated histories from correct and broken simulated databases.
 */
class NaiveOracleTests {

    private static final ReferenceChecker REFERENCE = new ReferenceChecker();
    private static final int HISTORIES_PER_WORKLOAD = 80;

    /** The naive verdicts at strict, serializable and snapshot isolation, which must match the reference too. */
    private static void assertLevels(History history, boolean strict, boolean serializable, boolean snapshot) {
        Map<IsolationLevel, Boolean> expected = Map.of(STRICT_SERIALIZABLE, strict, SERIALIZABLE, serializable,
                SNAPSHOT_ISOLATION, snapshot);
        for (IsolationLevel level : dev.isocheck.internal.saturate.WeakLevel.searchedLevels()) {
            assertThat(NaiveOracle.satisfies(history, level)).as("naive at %s", level).isEqualTo(expected.get(level));
            assertThat(REFERENCE.check(history, level).isSatisfied()).as("reference at %s", level)
                    .isEqualTo(expected.get(level));
        }
    }

    private static HistoryBuilder xyZero() {
        return History.builder().initialValue("x", 0).initialValue("y", 0).initialStateComplete(true);
    }

    @Nested
    class Textbook {

        @Test
        void writeSkewIsSnapshotIsolationOnly() {
            HistoryBuilder b = xyZero();
            b.transaction("T1").read("x", 0).read("y", 0).write("x", 1);
            b.transaction("T2").read("x", 0).read("y", 0).write("y", 1);
            assertLevels(b.build(), false, false, true);
        }

        @Test
        void lostUpdateViolatesEveryLevel() {
            HistoryBuilder b = xyZero();
            b.transaction("T1").read("x", 0).write("x", 1);
            b.transaction("T2").read("x", 0).write("x", 2);
            assertLevels(b.build(), false, false, false);
        }

        @Test
        void disjointBlindWritesAfterReadsAreFine() {
            HistoryBuilder b = xyZero();
            b.transaction("T1").read("x", 0).write("x", 1);
            b.transaction("T2").read("x", 1).write("x", 2);
            assertLevels(b.build(), true, true, true);
        }

        @Test
        void longForkViolatesEveryLevel() {
            HistoryBuilder b = xyZero();
            b.transaction("T1").write("x", 1);
            b.transaction("T2").write("y", 1);
            b.transaction("T3").read("x", 1).read("y", 0);
            b.transaction("T4").read("x", 0).read("y", 1);
            assertLevels(b.build(), false, false, false);
        }

        @Test
        void staleReadViolatesOnlyStrictSerializability() {
            HistoryBuilder b = xyZero();
            b.transaction("T1").times(1, 2).write("x", 1);
            b.transaction("T2").times(3, 4).read("x", 0);
            assertLevels(b.build(), false, true, true);
        }

        @Test
        void overlappingTransactionsAreNotOrderedInRealTime() {
            HistoryBuilder b = xyZero();
            b.transaction("T1").times(1, 3).write("x", 1);
            b.transaction("T2").times(2, 4).read("x", 0);
            assertLevels(b.build(), true, true, true);
        }

        @Test
        void readingBeforeTheSessionPredecessorViolatesEveryLevel() {
            HistoryBuilder b = xyZero();
            b.transaction("T1").session("s").write("x", 1);
            b.transaction("T2").session("s").read("x", 0);
            assertLevels(b.build(), false, false, false);
            HistoryBuilder other = xyZero();
            other.transaction("T1").session("s").write("x", 1);
            other.transaction("T2").session("t").read("x", 0);
            assertLevels(other.build(), true, true, true);
        }

        @Test
        void abortedSessionPredecessorsDoNotCount() {
            HistoryBuilder b = xyZero();
            b.transaction("T1").session("s").aborted().write("x", 1);
            b.transaction("T2").session("s").read("x", 0);
            assertLevels(b.build(), true, true, true);
        }

        @Test
        void insertPhantomIsWriteSkewOverPredicates() {
            HistoryBuilder b = History.builder().initialValue("t/1", row(1, 1)).initialStateComplete(true);
            b.transaction("T1").predicate("t", "v >= 0", rows("t/1", row(1, 1))).write("t/2", row(2, 5));
            b.transaction("T2").predicate("t", "v >= 0", rows("t/1", row(1, 1))).write("t/3", row(3, 6));
            assertLevels(b.build(), false, false, true);
        }

        @Test
        void aPredicateReadMissingACommittedInsertOfItsSession() {
            HistoryBuilder b = History.builder().initialStateComplete(true);
            b.transaction("T1").session("s").write("t/1", row(1, 1));
            b.transaction("T2").session("s").predicate("t", "v >= 0", rows());
            assertLevels(b.build(), false, false, false);
            HistoryBuilder outside = History.builder().initialStateComplete(true);
            outside.transaction("T1").session("s").write("t/1", row(1, 1));
            outside.transaction("T2").session("s").predicate("t", "v >= 5", rows());
            assertLevels(outside.build(), true, true, true);
        }

        @Test
        void aPredicateSeesItsOwnWrites() {
            HistoryBuilder b = History.builder().initialStateComplete(true);
            b.transaction("T1").write("t/1", row(1, 1)).predicate("t", "v >= 0", rows("t/1", row(1, 1)));
            assertLevels(b.build(), true, true, true);
        }

        @Test
        void indeterminateRowsMayGoEitherWayAndUnsupportedClausesConstrainOnlyReturnedRows() {
            for (boolean returned : new boolean[] {true, false}) {
                HistoryBuilder b = History.builder().initialValue("t/1", row(1, 1)).initialStateComplete(true);
                b.transaction("T1").predicate("t", "v >= 'a'", returned ? rows("t/1", row(1, 1)) : rows());
                assertLevels(b.build(), true, true, true);
            }
            HistoryBuilder unsupported = History.builder().initialValue("t/1", row(1, 1)).initialStateComplete(true);
            unsupported.transaction("T1").predicate("t", "abs(v) >= 0", rows());
            assertLevels(unsupported.build(), true, true, true);
            HistoryBuilder wrongRow = History.builder().initialValue("t/1", row(1, 1)).initialStateComplete(true);
            wrongRow.transaction("T1").predicate("t", "abs(v) >= 0", rows("t/1", row(1, 2)));
            assertLevels(wrongRow.build(), false, false, false);
        }

        @Test
        void conflictingObservationsOfAnUnknownInitialValue() {
            HistoryBuilder b = History.builder();
            b.transaction("T1").read("x", 5);
            b.transaction("T2").read("x", 6);
            assertLevels(b.build(), false, false, false);
            HistoryBuilder agreeing = History.builder();
            agreeing.transaction("T1").read("x", 5);
            agreeing.transaction("T2").read("x", 5).write("x", 6);
            agreeing.transaction("T3").read("x", 6);
            assertLevels(agreeing.build(), true, true, true);
        }

        @Test
        void anUnknownInitialValueIsNoValueAnyoneWrote() {
            HistoryBuilder b = History.builder();
            b.transaction("T1").aborted().write("x", 5);
            b.transaction("T2").read("x", 5);
            assertLevels(b.build(), false, false, false);
            HistoryBuilder deleted = History.builder();
            deleted.transaction("T1").write("x", null);
            deleted.transaction("T2").read("x", null);
            assertLevels(deleted.build(), true, true, true);
        }

        @Test
        void aPredicateThatMissedAKnownUnknownInitialRow() {
            HistoryBuilder b = History.builder();
            b.transaction("T1").read("t/1", row(1, 3));
            b.transaction("T2").predicate("t", "v >= 0", rows());
            assertLevels(b.build(), false, false, false);
            // Only the v column was observed: nothing is known about id.
            Map<String, Object> partial = Map.of("v", 3);
            HistoryBuilder unknownField = History.builder();
            unknownField.transaction("T1").read("t/1", partial);
            unknownField.transaction("T2").predicate("t", "id >= 0 AND v >= 0", rows());
            assertLevels(unknownField.build(), true, true, true);
        }

        @Test
        void refusesHistoriesAboveItsLimits() {
            HistoryBuilder b = xyZero();
            for (int i = 0; i < 9; i++) {
                b.transaction("T" + i).read("x", 0);
            }
            History nine = b.build();
            assertThatThrownBy(() -> NaiveOracle.satisfies(nine, SERIALIZABLE)).isInstanceOf(IllegalArgumentException.class);
            HistoryBuilder six = xyZero();
            for (int i = 0; i < 6; i++) {
                six.transaction("T" + i).read("x", 0);
            }
            History h = six.build();
            assertThat(NaiveOracle.satisfies(h, STRICT_SERIALIZABLE)).isTrue();
            assertThatThrownBy(() -> NaiveOracle.satisfies(h, SNAPSHOT_ISOLATION)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Nested
    class CrossCheck {

        private final Map<IsolationLevel, int[]> outcomes = new EnumMap<>(IsolationLevel.class);

        /**
         * {@code sessions} of {@code perSession} transactions, varied by {@code variant}: unique or
         * duplicate values, every kind of initial state, partial rows, deletes, aborts, times.
         */
        private Workload workload(int variant, int sessions, int perSession) {
            InitialKnowledge[] initial = InitialKnowledge.values();
            return Workload.defaults()
                    .withSessions(sessions, perSession)
                    .withMaxOpsPerTransaction(2 + variant % 4)
                    .withKeys(1 + variant % 3, 1 + (variant / 3) % 3)
                    .withValueDomain(variant % 4 == 0 ? 0 : 1 + variant % 4)
                    .withInitialState(initial[(variant / 2) % initial.length])
                    .withPartialRows(variant % 5 != 0)
                    .withMix(5, 4, variant % 3 == 0 ? 0 : 2, 1 + variant % 2)
                    .withAbortProbability(variant % 3 == 1 ? 0.2 : 0.0)
                    .withRecordTimes(variant % 7 != 3);
        }

        private final List<SimulatedDatabase> databases = List.of(SimulatedDatabase.serial(),
                SimulatedDatabase.snapshotIsolation(), SimulatedDatabase.readCommitted(), SimulatedDatabase.lostUpdate(0.5),
                SimulatedDatabase.staleRead(0.3), SimulatedDatabase.abortedRead(0.3),
                SimulatedDatabase.intermediateRead(0.3));

        @Test
        void theNaiveOracleAndTheReferenceAgreeAtEveryLevel() {
            for (IsolationLevel level : dev.isocheck.internal.saturate.WeakLevel.searchedLevels()) {
                outcomes.put(level, new int[2]);
            }
            long base = 50_000;
            int variants = 12;
            for (int d = 0; d < databases.size(); d++) {
                SimulatedDatabase database = databases.get(d);
                for (int variant = 0; variant < variants; variant++) {
                    // Two shapes: 6 to 8 transactions (serial levels), 4 or 5 (snapshot isolation too).
                    int[][] shapes = {{2 + variant % 3, variant % 3 == 0 ? 4 : 2}, variant % 2 == 0 ? new int[] {2, 2} : new int[] {5, 1}};
                    for (int[] shape : shapes) {
                        Workload workload = workload(variant, shape[0], shape[1]);
                        HistoryGenerator generator = new HistoryGenerator(workload, database);
                        long seed = base + 1_000L * (variants * d + variant) + 100L * shape[0] + shape[1];
                        SeededRuns.forEachHistory(HISTORIES_PER_WORKLOAD, seed, generator, generated -> {
                            compare(generated.history(), "as generated");
                            compare(withOtherWheres(generated.history(), generated.seed()), "where clauses rewritten");
                            if (generated.seed() % 5 == 0) {
                                // As a recorder writes it: "unknown": "any", most initial values forgotten.
                                compare(AnyInitialValues.forget(generated.history(), new SplittableRandom(generated.seed())),
                                        "\"unknown\": \"any\"");
                            }
                        });
                    }
                }
            }
            for (IsolationLevel level : dev.isocheck.internal.saturate.WeakLevel.searchedLevels()) {
                int[] counts = outcomes.get(level);
                System.out.printf("naive vs reference at %s: %d satisfied, %d violated%n", level, counts[0], counts[1]);
                assertThat(counts[0]).as("satisfied at %s", level).isGreaterThan(100);
                assertThat(counts[1]).as("violated at %s", level).isGreaterThan(100);
            }
        }

        private void compare(History h, String variant) {
            for (IsolationLevel level : dev.isocheck.internal.saturate.WeakLevel.searchedLevels()) {
                int limit = level == SNAPSHOT_ISOLATION ? NaiveOracle.MAX_SNAPSHOT_COMMITTED : NaiveOracle.MAX_SERIAL_COMMITTED;
                if (h.committedCount() > limit) {
                    continue;
                }
                boolean naive = NaiveOracle.satisfies(h, level);
                assertThat(REFERENCE.check(h, level).isSatisfied()).as("reference at %s, %s (naive says %s)", level, variant, naive)
                        .isEqualTo(naive);
                outcomes.get(level)[naive ? 0 : 1]++;
            }
        }
    }

    private static final Pattern RANGE = Pattern.compile("v >= (\\d+) AND v < (\\d+)");

    /**
     * The same history with each generated {@code v >= a AND v < b} replaced (by seed) with a
     * clause of another shape: the generator writes only ranges, and the returned rows stay as
     * recorded, so the rewritten reads exercise missing rows, indeterminate comparisons, fields
     * that partial observations lack, and unsupported clauses.
     */
    static History withOtherWheres(History h, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        HistoryBuilder b = History.builder().initialStateComplete(h.initialState().isComplete())
                .unknownInitialValues(h.initialState().unknownValues());
        for (int k = 0; k < h.keys().size(); k++) {
            if (h.initialState().isKnown(k)) {
                b.initialValue(h.keys().name(k), h.values().get(h.initialState().valueOf(k)).toJava());
            }
        }
        for (Transaction t : h.transactions()) {
            HistoryBuilder.TransactionBuilder tb = b.transaction(t.id()).status(t.status());
            Session session = h.sessionOf(t);
            if (!session.isImplicit()) {
                tb.session(session.name());
            }
            if (t.startTime() != Transaction.NO_TIME) {
                tb.start(t.startTime());
            }
            if (t.endTime() != Transaction.NO_TIME) {
                tb.end(t.endTime());
            }
            for (int i = 0; i < t.size(); i++) {
                if (t.kind(i) == OpKind.PREDICATE) {
                    PredicateRead read = t.predicate(i);
                    Map<String, Object> returned = new LinkedHashMap<>();
                    for (Map.Entry<String, Value> row : read.rows()) {
                        returned.put(row.getKey(), row.getValue().toJava());
                    }
                    tb.predicate(read.table(), otherWhere(read.where(), random), returned);
                } else {
                    Object value = h.values().get(t.value(i)).toJava();
                    if (t.kind(i) == OpKind.WRITE) {
                        tb.write(h.keys().name(t.key(i)), value);
                    } else {
                        tb.read(h.keys().name(t.key(i)), value);
                    }
                }
            }
        }
        return b.build();
    }

    private static String otherWhere(String where, SplittableRandom random) {
        Matcher range = RANGE.matcher(where);
        if (!range.matches()) {
            return where;
        }
        String low = range.group(1);
        String high = range.group(2);
        return switch (random.nextInt(8)) {
            case 0 -> "v >= " + low;
            case 1 -> "v >= " + low + " AND v < '" + high + "'";
            case 2 -> "id >= 0 AND v >= " + low + " AND v < " + high;
            case 3 -> "abs(v) >= " + low;
            case 4 -> "v < " + low + " OR v IS NULL";
            case 5 -> "NOT (v < " + low + " OR v >= " + high + ")";
            case 6 -> "V >= " + low + " AND V < " + high;
            default -> where;
        };
    }
}
