package dev.isocheck.internal.graph;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HyperPolygraphTests {

    private static HyperPolygraph polygraph(History h) {
        ReadExplanations explanations = ReadExplanations.of(h);
        return HyperPolygraph.of(KnownGraph.of(h, explanations, false), explanations);
    }

    private static List<String> candidates(HyperPolygraph p, int o) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < p.candidateCount(o); i++) {
            int node = p.candidate(o, i);
            out.add(node == KnownGraph.INITIAL ? "T⊥" : p.known().history().transaction(p.known().transaction(node)).id());
        }
        return out;
    }

    @Test
    void duplicateValuesAndTheInitialStateGiveSeveralCandidates() {
        HistoryBuilder b = History.builder().initialValue("x", 1);
        b.transaction("W1").write("x", 1);
        b.transaction("W2").write("x", 1);
        b.transaction("A").aborted().write("x", 1);
        b.transaction("R").read("x", 1);
        HyperPolygraph p = polygraph(b.build());
        assertThat(p.observationCount()).isEqualTo(1);
        assertThat(candidates(p, 0)).containsExactly("T⊥", "W1", "W2");
        assertThat(p.firstUnexplained()).isEqualTo(-1);
    }

    @Test
    void writersOfAKeyAreCommittedTransactionsListedOnceEach() {
        HistoryBuilder b = History.builder().initialValue("x", 0);
        b.transaction("W1").write("x", 1).write("x", 2);
        b.transaction("A").aborted().write("x", 3);
        b.transaction("W2").read("x", 2).write("x", 4);
        HyperPolygraph p = polygraph(b.build());
        int x = p.known().history().keys().idOf("x");
        assertThat(p.writerCount(x)).isEqualTo(2);
        // The read-modify-write's reader is also a writer: the RW rule must skip it.
        assertThat(p.reader(0)).isEqualTo(p.writer(x, 1));
        assertThat(candidates(p, 0)).containsExactly("W1");
    }

    @Test
    void incompatibleObservationsOfAnUnknownInitialValueAreGrouped() {
        HistoryBuilder b = History.builder();
        b.transaction("W").write("x", 5);
        b.transaction("R1").read("x", -1);
        b.transaction("R2").read("x", -2);
        b.transaction("R3").read("x", -1);
        HyperPolygraph p = polygraph(b.build());
        assertThat(p.initialGroupCount()).isEqualTo(2);
        assertThat(p.incompatibleInitialGroups()).containsExactly(0, 1);
        assertThat(p.initialGroup(0)).hasSize(2);
    }
}
