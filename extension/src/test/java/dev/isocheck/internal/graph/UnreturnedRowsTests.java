package dev.isocheck.internal.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which rows a predicate read left out constrain the order, and with which candidate versions. */
class UnreturnedRowsTests {

    private static History readingRows() {
        HistoryBuilder b = History.builder().initialStateComplete(true)
                .initialValue("t/1", Map.of("v", 1)).initialValue("t/2", Map.of("v", 50)).initialValue("t/3", Map.of("v", 99));
        b.transaction("W1").write("t/1", Map.of("v", 10)).write("t/3", Map.of("v", 98));
        b.transaction("W2").write("t/1", Map.of("v", 60));
        b.transaction("R").predicate("t", "v BETWEEN 5 AND 20", Map.of());
        return b.build();
    }

    @Test
    void onlyRowsSomeVersionOfWhichTheClauseSelectsAreListed() {
        History h = readingRows();
        UnreturnedRows rows = UnreturnedRows.of(ReadExplanations.of(h));
        // t/1 has W1's version 10 in range; t/2 and t/3 never do.
        assertThat(rows.size()).isEqualTo(1);
        assertThat(h.keys().name(rows.key(0))).isEqualTo("t/1");
        // The versions it may have seen: the initial one and W2's, not W1's.
        assertThat(rows.candidates(0)).containsExactly(UnreturnedRows.INITIAL, h.transaction("W2").orElseThrow().index());
        assertThat(rows.selected(0)).containsExactly(h.transaction("W1").orElseThrow().index());
    }

    @Test
    void tooManyCandidatesStopTheBuildInsteadOfExhaustingTheHeap() {
        ReadExplanations explanations = ReadExplanations.of(readingRows());
        assertThatThrownBy(() -> UnreturnedRows.of(explanations, 1))
                .isInstanceOf(UnreturnedRows.TooManyException.class)
                .hasMessageContaining("more than 1 candidate versions (reached at R's predicate read of t)");
        assertThat(UnreturnedRows.of(explanations, 2).size()).isEqualTo(1);
    }
}
