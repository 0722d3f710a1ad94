package dev.isocheck.internal.graph;

import static dev.isocheck.history.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.UnknownInitialValues;
import dev.isocheck.history.Value;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReadExplanationsTests {

    @Test
    void everyCommittedFinalWriterOfTheValueExplainsARead() {
        HistoryBuilder b = History.builder().initialValue("x", 5);
        b.transaction("T0").write("x", 5);
        b.transaction("T1").write("x", 5).aborted();
        b.transaction("T2").write("x", 5).write("x", 6);
        b.transaction("T3").read("x", 5).write("x", 5);
        b.transaction("T4").write("x", 5);
        b.transaction("T5").write("y", 5);
        ReadExplanations e = ReadExplanations.of(b.build());
        assertThat(e.size()).isEqualTo(1);
        assertThat(e.transaction(0)).isEqualTo(3);
        assertThat(e.writers(0)).containsExactly(0, 4);
        assertThat(e.writerCount(0)).isEqualTo(2);
        assertThat(e.writer(0, 1)).isEqualTo(4);
        assertThat(e.initialStateExplains(0)).isTrue();
        assertThat(e.isExplained(0)).isTrue();
    }

    /** Reads of one value share its writers, each read less its own transaction's write. */
    @Test
    void readsOfOneValueEachLeaveOutTheirOwnWrite() {
        HistoryBuilder b = History.builder().initialValue("x", 0);
        b.transaction("T0").write("x", 1);
        b.transaction("T1").read("x", 1).write("x", 1);
        b.transaction("T2").read("x", 1).write("x", 1);
        b.transaction("T3").read("x", 1);
        ReadExplanations e = ReadExplanations.of(b.build());
        assertThat(e.size()).isEqualTo(3);
        assertThat(e.writers(0)).containsExactly(0, 2);
        assertThat(e.writers(1)).containsExactly(0, 1);
        assertThat(e.writers(2)).containsExactly(0, 1, 2);
        assertThat(e.writerCount(0)).isEqualTo(2);
        assertThat(e.writer(0, 1)).isEqualTo(2);
        assertThat(e.writer(1, 1)).isEqualTo(1);
        assertThat(e.writerCount(2)).isEqualTo(3);
    }

    /** A reader that writes another value of the key leaves its value's writers whole. */
    @Test
    void aReaderWritingAnotherValueLeavesItsValuesWritersWhole() {
        HistoryBuilder b = History.builder().initialValue("x", 0);
        b.transaction("T0").write("x", 1);
        b.transaction("T1").read("x", 1).write("x", 2);
        ReadExplanations e = ReadExplanations.of(b.build());
        assertThat(e.writers(0)).containsExactly(0);
        assertThat(e.writerCount(0)).isEqualTo(1);
    }

    /** Only an aborted transaction wrote the value: no writer, and the unknown initial value cannot be it either. */
    @Test
    void aValueOnlyAnAbortedTransactionWroteHasNoSource() {
        HistoryBuilder b = History.builder();
        b.transaction("T0").write("x", 1).aborted();
        b.transaction("T1").read("x", 1);
        ReadExplanations e = ReadExplanations.of(b.build());
        assertThat(e.writerCount(0)).isZero();
        assertThat(e.writers(0)).isEmpty();
        assertThat(e.initialStateExplains(0)).isFalse();
    }

    @Test
    void partialRowsAreExplainedByEveryWrittenRowWithThoseColumns() {
        HistoryBuilder b = History.builder().initialStateComplete(true);
        b.transaction("T0").write("t/1", row(1, 5));
        b.transaction("T1").write("t/1", Map.of("v", 5));
        b.transaction("T2").write("t/1", row(1, 6));
        b.transaction("T3").read("t/1", Map.of("v", 5)).read("t/2", Map.of("v", 5));
        ReadExplanations e = ReadExplanations.of(b.build());
        assertThat(e.size()).isEqualTo(2);
        assertThat(e.writers(0)).containsExactly(0, 1);
        assertThat(e.initialStateExplains(0)).isFalse();
        assertThat(e.writers(1)).isEmpty();
        assertThat(e.isExplained(1)).isFalse();
    }

    @Test
    void aFullRowIsExplainedOnlyByEqualRowsWhenEveryRowHasItsColumns() {
        HistoryBuilder b = History.builder().initialStateComplete(true);
        b.transaction("T0").write("t/1", row(1, 5));
        b.transaction("T1").write("t/1", row(1, 6));
        b.transaction("T2").read("t/1", row(1, 6));
        ReadExplanations e = ReadExplanations.of(b.build());
        assertThat(e.writers(0)).containsExactly(1);
    }

    @Test
    void theUnknownInitialValueExplainsAbsenceRowsAndUnwrittenValuesOnly() {
        HistoryBuilder b = History.builder();
        b.transaction("T0").write("x", 1).delete("y");
        b.transaction("T1").write("x", 2).aborted();
        b.transaction("T2").readAbsent("x").read("x", 2);
        b.transaction("T3").read("x", 3).readAbsent("y").read("t/1", Map.of("v", 1));
        b.transaction("T4").write("t/1", row(1, 1)).aborted();
        History history = b.build();
        ReadExplanations e = ReadExplanations.of(history);
        // T2's second read of x is internal, so not an observation.
        assertThat(e.size()).isEqualTo(4);
        assertThat(e.firstOf(2)).isZero();
        assertThat(e.endOf(2)).isEqualTo(1);
        assertThat(e.initialStateExplains(0)).isTrue();
        assertThat(e.value(1)).isEqualTo(history.values().idOf(Value.of(3)));
        assertThat(e.initialStateExplains(1)).isTrue();
        assertThat(e.writers(1)).isEmpty();
        assertThat(e.initialStateExplains(2)).isTrue();
        assertThat(e.writers(2)).containsExactly(0);
        // A row observation may always be the initial row: it shows only the columns it selected,
        // which the initial row may share with the aborted write (docs/semantics.md).
        assertThat(e.initialStateExplains(3)).isTrue();
        assertThat(e.writers(3)).isEmpty();
    }

    @Test
    void withUnknownAnyTheUnknownInitialValueExplainsEveryObservation() {
        HistoryBuilder b = History.builder().initialValue("k", 0).unknownInitialValues(UnknownInitialValues.ANY);
        b.transaction("T0").write("x", 1).write("k", 1);
        b.transaction("T1").write("y", 2).aborted();
        b.transaction("T2").read("x", 1).read("y", 2).read("k", 1);
        ReadExplanations e = ReadExplanations.of(b.build());
        assertThat(e.size()).isEqualTo(3);
        // x = 1 may be T0's write or the initial value; y = 2 only the initial value.
        assertThat(e.writers(0)).containsExactly(0);
        assertThat(e.initialStateExplains(0)).isTrue();
        assertThat(e.hasOneExplanation(0)).isFalse();
        assertThat(e.writers(1)).isEmpty();
        assertThat(e.initialStateExplains(1)).isTrue();
        // k is listed: its initial value is known to be 0.
        assertThat(e.initialStateExplains(2)).isFalse();
        assertThat(e.hasOneExplanation(2)).isTrue();
    }

    @Test
    void predicateRowsAreObservationsWithTheirRowIndex() {
        Map<String, Object> returned = new LinkedHashMap<>();
        returned.put("t/1", row(1, 5));
        returned.put("t/2", row(2, 7));
        HistoryBuilder b = History.builder().initialStateComplete(true);
        b.transaction("T0").write("t/1", row(1, 5)).write("t/2", row(2, 7));
        b.transaction("T1").write("t/2", row(2, 7)).predicate("t", "v > 1", returned);
        ReadExplanations e = ReadExplanations.of(b.build());
        assertThat(e.size()).isEqualTo(1);
        assertThat(e.operation(0)).isEqualTo(1);
        assertThat(e.row(0)).isZero();
        assertThat(e.writers(0)).containsExactly(0);
    }

    @Test
    void partialRowsOfKeysWithManyVersionsAreExplainedLikeFewVersions() {
        HistoryBuilder b = History.builder().initialStateComplete(true);
        for (int i = 0; i < 20; i++) {
            Map<String, Object> row = row(1, i % 10);
            row.put("w", i);
            b.transaction("T" + i).write("t/1", row);
        }
        b.transaction("R").read("t/1", Map.of("v", 3)).read("t/2", Map.of()).read("t/1", Map.of("id", 1, "w", 17))
                .read("t/3", Map.of("v", 3));
        b.transaction("S").read("t/1", Map.of("v", 11)).read("t/1", Map.of()).read("t/1", row(1, 3));
        ReadExplanations e = ReadExplanations.of(b.build());
        assertThat(e.writers(0)).containsExactly(3, 13);
        assertThat(e.size()).isEqualTo(4);
        assertThat(e.writers(1)).isEmpty();
        assertThat(e.writers(2)).isEmpty();
        assertThat(e.writers(3)).isEmpty();
        assertThat(e.writerCount(e.firstOf(21))).isZero();
        assertThat(e.initialStateExplains(e.firstOf(21))).isFalse();
    }

    @Test
    void aPartialRowMatchingOnlyALaterColumnIsExplained() {
        HistoryBuilder b = History.builder().initialStateComplete(true);
        for (int i = 0; i < 20; i++) {
            Map<String, Object> row = row(1, i);
            row.put("w", i);
            b.transaction("T" + i).write("t/1", row);
        }
        b.transaction("R").read("t/1", Map.of("id", 1, "w", 17));
        b.transaction("S").read("t/1", Map.of());
        ReadExplanations e = ReadExplanations.of(b.build());
        assertThat(e.writers(0)).containsExactly(17);
        assertThat(e.writerCount(1)).isEqualTo(20);
    }

    private static Map<String, Object> withNote(int id, int v, Object note) {
        Map<String, Object> row = row(id, v);
        row.put("note", note);
        return row;
    }

    @Test
    void aNullFieldIsExplainedByARowWrittenWithoutIt() {
        // Few versions (compared one by one) and many versions (through the column index), with
        // every written row of one shape (no shape shortcut may hide the candidates).
        for (int versions : new int[] {1, 3, 20}) {
            HistoryBuilder b = History.builder().initialStateComplete(true);
            for (int i = 1; i <= versions; i++) {
                b.transaction("W" + i).write("t/1", row(1, i));
            }
            b.transaction("R").read("t/1", withNote(1, 1, null)).read("t/2", withNote(2, 1, null));
            b.transaction("R2").read("t/1", Map.of("note", "x"));
            Map<String, Object> onlyNull = new LinkedHashMap<>();
            onlyNull.put("note", null);
            b.transaction("R3").read("t/1", onlyNull);
            ReadExplanations e = ReadExplanations.of(b.build());
            assertThat(e.size()).as("%d versions", versions).isEqualTo(4);
            assertThat(e.writers(0)).as("%d versions", versions).containsExactly(0);
            assertThat(e.isExplained(1)).isFalse();
            assertThat(e.isExplained(2)).isFalse();
            int[] all = new int[versions];
            for (int i = 0; i < versions; i++) {
                all[i] = i;
            }
            assertThat(e.writers(3)).as("%d versions", versions).containsExactly(all);
            assertThat(e.consistentWrites(3)).hasSize(versions);
            assertThat(e.consistentWrites(0)).hasSize(1);
        }
        // A written null field and a missing one are both NULL to a null observation, but not to
        // a present one.
        HistoryBuilder b = History.builder().initialStateComplete(true);
        b.transaction("W1").write("t/1", withNote(1, 1, null));
        b.transaction("W2").write("t/1", row(1, 1));
        b.transaction("W3").write("t/1", withNote(1, 1, "x"));
        b.transaction("R").read("t/1", withNote(1, 1, null));
        ReadExplanations e = ReadExplanations.of(b.build());
        assertThat(e.writers(0)).containsExactly(0, 1);
    }
}
