package dev.isocheck.internal.graph;

import static dev.isocheck.history.Rows.row;
import static dev.isocheck.history.Rows.rows;
import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.Anomaly;
import dev.isocheck.AnomalyType;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.UnknownInitialValues;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReadAnomaliesTests {

    private static HistoryBuilder known() {
        return History.builder().initialValue("x", 0).initialValue("y", 0).initialValue("z", 0).initialStateComplete(true);
    }

    @Test
    void abortedReadNamesTheReaderAndTheAbortedWriter() {
        HistoryBuilder b = known();
        b.transaction("T1").write("x", 5).aborted();
        b.transaction("T2").read("x", 5);
        assertThat(ReadAnomalies.find(b.build())).containsExactly(new Anomaly(AnomalyType.G1A, List.of("T2", "T1"),
                "T2 read x = 5, but only T1 wrote x = 5, and T1 aborted"));
    }

    @Test
    void intermediateReadNamesTheOverwritingValue() {
        HistoryBuilder b = known();
        b.transaction("T1").write("y", 7).write("y", 8);
        b.transaction("T3").read("y", 7);
        assertThat(ReadAnomalies.find(b.build())).containsExactly(new Anomaly(AnomalyType.G1B, List.of("T3", "T1"),
                "T3 read y = 7, which T1 wrote but overwrote with y = 8 before committing"));
    }

    @Test
    void thinAirNamesTheInitialValue() {
        HistoryBuilder b = known();
        b.transaction("T4").read("z", 42);
        assertThat(ReadAnomalies.find(b.build())).containsExactly(new Anomaly(AnomalyType.THIN_AIR, List.of("T4"),
                "T4 read z = 42, which no transaction wrote and is not z's initial value (0)"));
    }

    @Test
    void aValueOnlyTheReaderWritesLaterIsThinAirEvenWithAnUnknownInitialValue() {
        HistoryBuilder b = History.builder();
        b.transaction("T1").read("x", 3).write("x", 3);
        assertThat(ReadAnomalies.find(b.build())).containsExactly(new Anomaly(AnomalyType.THIN_AIR, List.of("T1"),
                "T1 read x = 3, which only T1 itself writes, later, so it cannot be x's unknown initial value either"));
    }

    @Test
    void withUnknownAnyAReadOfAValueNobodyInstalledMayBeTheInitialValue() {
        // Each of these is an anomaly above; with "unknown": "any" the unlisted key may have held
        // the value before the history began, so none is.
        HistoryBuilder b = History.builder().unknownInitialValues(UnknownInitialValues.ANY);
        b.transaction("T1").write("a", 5).aborted();
        b.transaction("T2").read("a", 5);
        b.transaction("T3").write("b", 7).write("b", 8);
        b.transaction("T4").read("b", 7);
        b.transaction("T5").read("c", 3).write("c", 3);
        assertThat(ReadAnomalies.find(b.build())).isEmpty();

        // A listed key is still known, and a key the init line lists stays checked.
        HistoryBuilder listed = History.builder().unknownInitialValues(UnknownInitialValues.ANY).initialValue("a", 0);
        listed.transaction("T1").write("a", 5).aborted();
        listed.transaction("T2").read("a", 5);
        assertThat(ReadAnomalies.find(listed.build())).extracting(Anomaly::type).containsExactly(AnomalyType.G1A);
    }

    @Test
    void withUnknownAnyReadsOnlyTheInitialValueExplainsMustStillAgree() {
        HistoryBuilder b = History.builder().unknownInitialValues(UnknownInitialValues.ANY);
        b.transaction("T1").read("x", 1);
        b.transaction("T2").read("x", 2);
        b.transaction("T3").write("x", 1).write("x", 3).read("x", 4);
        assertThat(ReadAnomalies.find(b.build())).extracting(Anomaly::type)
                .containsExactly(AnomalyType.INITIAL_VALUE_CONFLICT, AnomalyType.INTERNAL);
    }

    @Test
    void internalReadAfterOwnWrite() {
        HistoryBuilder b = known();
        b.transaction("T1").write("x", 1).read("x", 2);
        assertThat(ReadAnomalies.find(b.build())).containsExactly(new Anomaly(AnomalyType.INTERNAL, List.of("T1"),
                "T1 read x = 2 after writing x = 1 itself"));
    }

    @Test
    void internalReadAfterOwnReadsMustBeCompatible() {
        HistoryBuilder b = known();
        b.transaction("T0").write("t/1", row(1, 5));
        b.transaction("T1").read("t/1", Map.of("v", 5)).read("t/1", Map.of("id", 1)).read("t/1", row(1, 5));
        b.transaction("T2").read("x", 0).read("x", 1);
        b.transaction("T5").write("x", 1);
        assertThat(ReadAnomalies.find(b.build())).containsExactly(new Anomaly(AnomalyType.INTERNAL, List.of("T2"),
                "T2 read x = 1 after reading x = 0 earlier in the same transaction"));
    }

    @Test
    void partialRowAfterOwnWriteIsFineButAContradictingOneIsNot() {
        HistoryBuilder b = known();
        b.transaction("T1").write("t/1", row(1, 5)).read("t/1", Map.of("v", 5)).read("t/1", Map.of("v", 6));
        assertThat(ReadAnomalies.find(b.build())).containsExactly(new Anomaly(AnomalyType.INTERNAL, List.of("T1"),
                "T1 read t/1 = {\"v\":6} after writing t/1 = {\"id\":1,\"v\":5} itself"));
    }

    @Test
    void aDuplicateValueWithACommittedFinalWriterIsNoAnomaly() {
        HistoryBuilder b = known();
        b.transaction("T1").write("x", 5).aborted();
        b.transaction("T2").write("x", 5).write("x", 6);
        b.transaction("T3").write("x", 5);
        b.transaction("T4").read("x", 5);
        assertThat(ReadAnomalies.find(b.build())).isEmpty();
    }

    @Test
    void abortedAndIntermediateWritersTogetherAreG1aNamingBoth() {
        HistoryBuilder b = known();
        b.transaction("T1").write("x", 5).aborted();
        b.transaction("T2").write("x", 5).write("x", 6);
        b.transaction("T3").read("x", 5);
        assertThat(ReadAnomalies.find(b.build())).containsExactly(new Anomaly(AnomalyType.G1A, List.of("T3", "T1", "T2"),
                "T3 read x = 5, but no committed transaction installed that value: T1 wrote x = 5 and aborted; "
                        + "T2 wrote x = 5 but overwrote it with x = 6 before committing"));
    }

    @Test
    void partialRowReadsAreExplainedByAnyRowWithThoseColumns() {
        HistoryBuilder b = known();
        b.transaction("T1").write("t/1", row(1, 5));
        b.transaction("T2").read("t/1", Map.of("v", 5)).read("t/2", Map.of("v", 9));
        b.transaction("T3").write("t/2", row(2, 9)).aborted();
        List<Anomaly> found = ReadAnomalies.find(b.build());
        assertThat(found).containsExactly(new Anomaly(AnomalyType.G1A, List.of("T2", "T3"),
                "T2 read t/2 = {\"v\":9}, but only T3 wrote t/2 = {\"id\":2,\"v\":9}, and T3 aborted"));
    }

    @Test
    void unknownInitialStateAllowsAbsentReadsOfKeysDeletedLater() {
        HistoryBuilder b = History.builder();
        b.transaction("T1").readAbsent("x").write("x", 1);
        b.transaction("T2").read("x", 1).delete("x");
        b.transaction("T3").readAbsent("x");
        assertThat(ReadAnomalies.find(b.build())).isEmpty();
    }

    @Test
    void unknownInitialStateFlagsConflictingInitialObservations() {
        HistoryBuilder b = History.builder();
        b.transaction("T1").read("x", 1);
        b.transaction("T2").read("x", 1);
        b.transaction("T3").read("x", 2);
        b.transaction("T4").readAbsent("y");
        b.transaction("T5").read("y", 7);
        assertThat(ReadAnomalies.find(b.build())).containsExactly(
                new Anomaly(AnomalyType.INITIAL_VALUE_CONFLICT, List.of("T1", "T3"),
                        "T1 read x = 1 and T3 read x = 2; only x's unknown initial value can explain either, and it cannot be both"),
                new Anomaly(AnomalyType.INITIAL_VALUE_CONFLICT, List.of("T4", "T5"),
                        "T4 read y = null and T5 read y = 7; only y's unknown initial value can explain either, and it cannot be both"));
    }

    @Test
    void compatiblePartialInitialObservationsAreNoConflict() {
        HistoryBuilder b = History.builder();
        b.transaction("T1").read("t/1", Map.of("v", 1));
        b.transaction("T2").read("t/1", Map.of("id", 1));
        b.transaction("T3").read("t/1", row(1, 1));
        assertThat(ReadAnomalies.find(b.build())).isEmpty();
    }

    @Test
    void aPresentReadEqualToAWrittenValueIsNotAttributedToTheUnknownInitialValue() {
        HistoryBuilder b = History.builder();
        b.transaction("T1").write("x", 5).aborted();
        b.transaction("T2").read("x", 5);
        List<Anomaly> found = ReadAnomalies.find(b.build());
        assertThat(found).extracting(Anomaly::type).containsExactly(AnomalyType.G1A);
    }

    @Test
    void predicateRowsAreScreenedLikeReads() {
        HistoryBuilder b = known();
        b.transaction("T1").write("t/1", row(1, 5)).aborted();
        b.transaction("T2").write("t/2", row(2, 4));
        b.transaction("T3").predicate("t", "v >= 3", rows("t/1", row(1, 5), "t/2", row(2, 4)));
        assertThat(ReadAnomalies.find(b.build())).containsExactly(new Anomaly(AnomalyType.G1A, List.of("T3", "T1"),
                "T3's predicate read of t where v >= 3 returned t/1 = {\"id\":1,\"v\":5}, but only T1 wrote "
                        + "t/1 = {\"id\":1,\"v\":5}, and T1 aborted"));
    }

    @Test
    void aRowAPredicateReadReturnedAndAnotherReadOfItThatSawAnotherVersionAreANonRepeatableRead() {
        HistoryBuilder b = known();
        b.transaction("T0").write("t/1", row(1, 5));
        b.transaction("T9").write("t/1", row(1, 6));
        // Item read, then a row returned; a row, then an item read; a row, then a row; and the
        // same version twice, which is no anomaly.
        b.transaction("T1").read("t/1", row(1, 5)).predicate("t", "v >= 3", rows("t/1", row(1, 6)));
        b.transaction("T2").predicate("t", "v >= 3", rows("t/1", row(1, 5))).read("t/1", row(1, 6));
        b.transaction("T3").predicate("t", "v >= 3", rows("t/1", row(1, 5))).predicate("t", "v > 4", rows("t/1", row(1, 6)));
        b.transaction("T4").predicate("t", "v >= 3", rows("t/1", row(1, 5))).read("t/1", Map.of("v", 5));
        History history = b.build();
        assertThat(ReadAnomalies.find(history)).containsExactly(
                new Anomaly(AnomalyType.INTERNAL, List.of("T1"), "T1's predicate read of t where v >= 3 returned t/1 ="
                        + " {\"id\":1,\"v\":6} after reading t/1 = {\"id\":1,\"v\":5} earlier in the same transaction"),
                new Anomaly(AnomalyType.INTERNAL, List.of("T2"), "T2 read t/1 = {\"id\":1,\"v\":6} after reading"
                        + " t/1 = {\"id\":1,\"v\":5} earlier in the same transaction"),
                new Anomaly(AnomalyType.INTERNAL, List.of("T3"), "T3's predicate read of t where v > 4 returned t/1 ="
                        + " {\"id\":1,\"v\":6} after reading t/1 = {\"id\":1,\"v\":5} earlier in the same transaction"));
        // The earlier read each contradicts is named: T2's is the row its predicate read returned.
        ReadAnomalies.Finding t2 = ReadAnomalies.findings(history).get(1);
        assertThat(t2.related()).containsExactly(new ReadAnomalies.Place(3, 0, 0));
    }

    @Test
    void aPredicateRowOfAKeyTheReaderWroteIsAnInternalRead() {
        HistoryBuilder b = known();
        b.transaction("T1").write("t/1", row(1, 5)).predicate("t", "v >= 3", rows("t/1", Map.of("v", 5)));
        b.transaction("T2").write("t/2", row(2, 5)).predicate("t", "v >= 3", rows("t/2", row(2, 6)));
        assertThat(ReadAnomalies.find(b.build())).containsExactly(new Anomaly(AnomalyType.INTERNAL, List.of("T2"),
                "T2's predicate read of t where v >= 3 returned t/2 = {\"id\":2,\"v\":6} after T2 wrote "
                        + "t/2 = {\"id\":2,\"v\":5} itself"));
    }

    @Test
    void readsInAbortedTransactionsAreIgnored() {
        HistoryBuilder b = known();
        b.transaction("T1").read("x", 99).write("y", 1).read("y", 2).aborted();
        assertThat(ReadAnomalies.find(b.build())).isEmpty();
        assertThat(ReadExplanations.of(known().build()).size()).isZero();
    }

    @Test
    void anomaliesComeInTransactionThenOperationOrder() {
        HistoryBuilder b = known();
        b.transaction("T1").write("x", 5).aborted();
        b.transaction("T2").read("z", 42).write("y", 1).read("y", 3).read("x", 5);
        b.transaction("T3").read("x", 5);
        History history = b.build();
        assertThat(ReadAnomalies.find(history)).extracting(Anomaly::type)
                .containsExactly(AnomalyType.THIN_AIR, AnomalyType.INTERNAL, AnomalyType.G1A, AnomalyType.G1A);
        assertThat(ReadAnomalies.first(history)).map(Anomaly::type).contains(AnomalyType.THIN_AIR);
    }

    @Test
    void aCorrectHistoryHasNoAnomalies() {
        HistoryBuilder b = known();
        b.transaction("T1").session("a").read("x", 0).write("x", 1);
        b.transaction("T2").session("b").read("x", 1).write("x", 2).read("x", 2);
        b.transaction("T3").session("a").read("x", 2).delete("x");
        b.transaction("T4").session("b").readAbsent("x").read("y", 0);
        assertThat(ReadAnomalies.find(b.build())).isEmpty();
        assertThat(ReadAnomalies.first(known().build())).isEmpty();
    }

    @Test
    void manyUnexplainedReadsOfAHeavilyWrittenKey() {
        // 20,000 committed writes of x, then 20,000 reads of x that none explains: each read's
        // report looks up its own value, not every value written to x (this took quadratic time).
        int n = 20_000;
        HistoryBuilder b = known();
        b.transaction("A").write("x", -5).aborted();
        b.transaction("O").write("x", -7).write("x", -8);
        for (int i = 1; i <= n; i++) {
            b.transaction("W" + i).write("x", i);
        }
        for (int i = 0; i < n; i++) {
            b.transaction("R" + i).read("x", i % 3 == 0 ? -1 : i % 3 == 1 ? -5 : -7);
        }
        // Row reads of a key with many versions still go through the column index.
        for (int i = 1; i <= 20; i++) {
            b.transaction("V" + i).write("t/1", row(1, i));
        }
        b.transaction("RV").read("t/1", Map.of("v", 5));
        b.transaction("RV2").read("t/1", Map.of("v", 99));
        b.transaction("RV3").read("t/1", Map.of("id", 1));
        List<Anomaly> found = ReadAnomalies.find(b.build());
        assertThat(found).hasSize(n + 1);
        for (int i = 0; i < n; i++) {
            Anomaly a = found.get(i);
            String reader = "R" + i;
            switch (i % 3) {
                case 0 -> assertThat(a).isEqualTo(new Anomaly(AnomalyType.THIN_AIR, List.of(reader),
                        reader + " read x = -1, which no transaction wrote and is not x's initial value (0)"));
                case 1 -> assertThat(a).isEqualTo(new Anomaly(AnomalyType.G1A, List.of(reader, "A"),
                        reader + " read x = -5, but only A wrote x = -5, and A aborted"));
                default -> assertThat(a).isEqualTo(new Anomaly(AnomalyType.G1B, List.of(reader, "O"),
                        reader + " read x = -7, which O wrote but overwrote with x = -8 before committing"));
            }
        }
        assertThat(found.get(n)).isEqualTo(new Anomaly(AnomalyType.THIN_AIR, List.of("RV2"),
                "RV2 read t/1 = {\"v\":99}, which no transaction wrote and is not t/1's initial value (null)"));
    }

    @Test
    void aNullFieldMatchesARowWrittenWithoutItAndRepeatedReadsStayCompatible() {
        Map<String, Object> selectAll = new LinkedHashMap<>(row(1, 2));
        selectAll.put("note", null);
        HistoryBuilder b = History.builder().initialStateComplete(true);
        b.transaction("T1").write("t/1", row(1, 2));
        b.transaction("T2").read("t/1", selectAll).read("t/1", row(1, 2));
        b.transaction("T3").read("t/1", row(1, 2)).read("t/1", selectAll);
        b.transaction("T4").predicate("t", "note IS NULL", rows("t/1", selectAll));
        assertThat(ReadAnomalies.find(b.build())).isEmpty();

        Map<String, Object> onlyNull = new LinkedHashMap<>();
        onlyNull.put("note", null);
        HistoryBuilder c = History.builder().initialStateComplete(true);
        c.transaction("T1").write("t/1", Map.of("id", 1, "note", "x"));
        c.transaction("T2").read("t/1", Map.of("note", "x")).read("t/1", onlyNull);
        assertThat(ReadAnomalies.find(c.build())).extracting(Anomaly::type).containsExactly(AnomalyType.INTERNAL);
    }
}
