package dev.isocheck.internal.graph;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.internal.simulate.SeededRuns;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class KnownGraphTests {

    private static KnownGraph graph(History h, boolean realTime) {
        return KnownGraph.of(h, ReadExplanations.of(h), realTime);
    }

    private static List<String> edges(KnownGraph g, EdgeKind kind) {
        List<String> out = new ArrayList<>();
        for (int e = 0; e < g.edgeCount(); e++) {
            if (g.kind(e) == kind) {
                out.add(g.history().transaction(g.transaction(g.from(e))).id() + "->"
                        + g.history().transaction(g.transaction(g.to(e))).id());
            }
        }
        return out;
    }

    @Test
    void sessionOrderLinksConsecutiveCommittedTransactionsAndSkipsAbortedOnes() {
        HistoryBuilder b = History.builder().initialValue("x", 0);
        b.transaction("T1").session("s").write("x", 1);
        b.transaction("T2").session("s").aborted().write("x", 2);
        b.transaction("T3").session("s").write("x", 3);
        b.transaction("U1").session("u").write("x", 4);
        KnownGraph g = graph(b.build(), false);
        assertThat(edges(g, EdgeKind.SESSION)).containsExactly("T1->T3");
        assertThat(g.nodeCount()).isEqualTo(4);
        assertThat(g.node(1)).isEqualTo(-1);
        assertThat(g.transaction(KnownGraph.INITIAL)).isEqualTo(-1);
    }

    @Test
    void writeReadEdgesOnlyWhereExactlyOneWriterExplainsTheRead() {
        HistoryBuilder b = History.builder().initialValue("x", 0).initialValue("y", 0);
        b.transaction("W1").write("x", 1).write("y", 7);
        b.transaction("W2").write("y", 7);
        b.transaction("R").read("x", 1).read("y", 7);
        b.transaction("I").read("x", 0);
        KnownGraph g = graph(b.build(), false);
        assertThat(edges(g, EdgeKind.WRITE_READ)).containsExactly("W1->R");
    }

    @Test
    void realTimeEdgesOnlyWhenAsked() {
        HistoryBuilder b = History.builder();
        b.transaction("A").times(0, 1).write("x", 1);
        b.transaction("B").times(2, 3).write("x", 2);
        assertThat(edges(graph(b.build(), false), EdgeKind.REAL_TIME)).isEmpty();
    }

    /** The closure of the real-time edges is exactly {@code end(a) < start(b)}, on random intervals. */
    @Test
    void realTimeClosureEqualsTheAllPairsDefinition() {
        SeededRuns.forEachSeed(300, 1, seed -> {
            Random random = new Random(seed);
            int n = 1 + random.nextInt(40);
            long[] start = new long[n];
            long[] end = new long[n];
            HistoryBuilder b = History.builder();
            for (int i = 0; i < n; i++) {
                start[i] = random.nextInt(60);
                end[i] = start[i] + random.nextInt(random.nextBoolean() ? 4 : 20);
                HistoryBuilder.TransactionBuilder t = b.transaction("T" + i).write("x", i);
                int shape = random.nextInt(10);
                if (shape == 0) {
                    t.start(start[i]);
                    end[i] = Long.MAX_VALUE;
                } else if (shape == 1) {
                    t.end(end[i]);
                    start[i] = Long.MIN_VALUE;
                } else if (shape == 2) {
                    start[i] = Long.MIN_VALUE;
                    end[i] = Long.MAX_VALUE;
                } else {
                    t.times(start[i], end[i]);
                }
                if (random.nextInt(8) == 0) {
                    t.aborted();
                }
            }
            History h = b.build();
            KnownGraph g = graph(h, true);
            int nodes = g.nodeCount();
            BitSet[] reach = new BitSet[nodes];
            for (int v = 0; v < nodes; v++) {
                reach[v] = new BitSet(nodes);
            }
            for (int e = 0; e < g.edgeCount(); e++) {
                assertThat(g.kind(e)).isEqualTo(EdgeKind.REAL_TIME);
                reach[g.from(e)].set(g.to(e));
            }
            // Floyd–Warshall on bit sets: small n.
            for (int k = 0; k < nodes; k++) {
                for (int i = 0; i < nodes; i++) {
                    if (reach[i].get(k)) {
                        reach[i].or(reach[k]);
                    }
                }
            }
            for (int a = 1; a < nodes; a++) {
                for (int c = 1; c < nodes; c++) {
                    int ta = g.transaction(a);
                    int tc = g.transaction(c);
                    boolean before = end[ta] != Long.MAX_VALUE && start[tc] != Long.MIN_VALUE && end[ta] < start[tc];
                    assertThat(reach[a].get(c)).as("%s before %s", h.transaction(ta), h.transaction(tc)).isEqualTo(before);
                }
            }
        });
    }
}
