package dev.isocheck.internal.prune;

import dev.isocheck.spi.Dag;
import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.internal.prune.RandomDags.Graph;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ChainReachabilityTests {

    private static Dag dag(int nodes, int... edges) {
        int[] from = new int[edges.length / 2];
        int[] to = new int[edges.length / 2];
        for (int e = 0; e < from.length; e++) {
            from[e] = edges[2 * e];
            to[e] = edges[2 * e + 1];
        }
        return Dag.of(nodes, from, to, from.length);
    }

    @Test
    void aDiamondIsTwoChainsAndItsClocksAnswerEveryPair() {
        // 0 -> 1 -> 3 and 0 -> 2 -> 3: 0, 1, 3 form one chain (first successors), 2 the other.
        ChainReachability closure = ChainReachability.compute(dag(4, 0, 1, 0, 2, 1, 3, 2, 3));
        assertThat(closure.chainCount()).isEqualTo(2);
        assertThat(closure.chains().chainOf(3)).isEqualTo(closure.chains().chainOf(0));
        assertThat(closure.chains().indexOf(3)).isEqualTo(2);
        assertThat(closure.reaches(0, 3)).isTrue();
        assertThat(closure.reaches(2, 3)).isTrue();
        assertThat(closure.reaches(1, 2)).isFalse();
        assertThat(closure.reaches(2, 1)).isFalse();
        assertThat(closure.reaches(3, 0)).isFalse();
        for (int u = 0; u < 4; u++) {
            assertThat(closure.reaches(u, u)).as("node %d reaches itself", u).isTrue();
        }
    }

    @Test
    void eachSessionBecomesOneChainWhenSessionEdgesComeFirst() {
        Random random = new Random(11);
        Graph onlySessions = RandomDags.sessions(random, 2000, 24, 0, 1);
        assertThat(ChainReachability.compute(onlySessions.dag()).chainCount()).isEqualTo(24);
        // Cross edges may only merge chains: every transaction but a session's first is claimed by
        // its session predecessor if nobody claimed it before.
        for (int run = 0; run < 20; run++) {
            Graph graph = RandomDags.sessions(random, 2000, 24, 1 + random.nextInt(5), 1 + random.nextInt(500));
            assertThat(ChainReachability.compute(graph.relabelled(random).dag()).chainCount())
                    .as(graph.description()).isBetween(1, 24);
        }
    }

    @Test
    void clocksCostFourBytesPerNodeAndChainPlusTheDecomposition() {
        ChainReachability closure = ChainReachability.compute(RandomDags.sessions(new Random(3), 1000, 10, 0, 1).dag());
        assertThat(closure.chainCount()).isEqualTo(10);
        assertThat(closure.memoryBytes()).isEqualTo(1000L * 10 * 4 + 1000L * 8);
    }

    @Test
    void anEmptyGraphHasNoChains() {
        ChainReachability closure = ChainReachability.compute(dag(0));
        assertThat(closure.chainCount()).isZero();
        assertThat(closure.nodeCount()).isZero();
    }

    @Test
    void isolatedNodesAreOneChainEach() {
        ChainReachability closure = ChainReachability.compute(dag(5));
        assertThat(closure.chainCount()).isEqualTo(5);
        assertThat(closure.reaches(1, 2)).isFalse();
        assertThat(closure.reaches(4, 4)).isTrue();
    }
}
