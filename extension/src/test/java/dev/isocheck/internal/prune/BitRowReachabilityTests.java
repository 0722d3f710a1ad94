package dev.isocheck.internal.prune;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.isocheck.internal.prune.RandomDags.Graph;
import dev.isocheck.spi.BitRowReachability;
import dev.isocheck.spi.Dag;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BitRowReachabilityTests {

    @ParameterizedTest
    @ValueSource(ints = {1, 63, 64, 65, 128, 130})
    void rowsFollowTheDocumentedLayout(int nodes) {
        Random random = new Random(nodes);
        Graph graph = RandomDags.random(random, nodes, 2).relabelled(random);
        Dag dag = graph.dag();
        BreadthFirstClosure expected = BreadthFirstClosure.of(graph);
        long[] rows = BitRowReachability.compute(dag).rows();
        int words = (nodes + 63) / 64;
        assertThat(rows).hasSize(words * nodes);
        for (int p = 0; p < nodes; p++) {
            for (int q = 0; q < words * 64; q++) {
                boolean bit = (rows[p * words + q / 64] >>> (q % 64) & 1) == 1;
                boolean reaches = q < nodes && expected.reaches(dag.nodeAt(p), dag.nodeAt(q));
                assertThat(bit).as("bit %d of row %d (%d nodes)", q, p, nodes).isEqualTo(reaches);
                if (q < p || q >= nodes) {
                    assertThat(bit).as("bit %d of row %d, before the diagonal or past the last node", q, p).isFalse();
                }
            }
        }
    }

    @Test
    void aRowIsOneWordPerSixtyFourNodes() {
        assertThat(BitRowReachability.wordsPerRow(0)).isZero();
        assertThat(BitRowReachability.wordsPerRow(1)).isEqualTo(1);
        assertThat(BitRowReachability.wordsPerRow(64)).isEqualTo(1);
        assertThat(BitRowReachability.wordsPerRow(65)).isEqualTo(2);
        assertThat(BitRowReachability.wordCount(100_000)).isEqualTo(1563L * 100_000);
    }

    @Test
    void rowsOfTheWrongLengthAreRejected() {
        Dag dag = RandomDags.random(new Random(1), 65, 1).dag();
        assertThatThrownBy(() -> new BitRowReachability(dag, new long[65]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("expected 130 words, got 65");
    }

    @Test
    void memoryIsEightBytesPerWord() {
        assertThat(BitRowReachability.compute(RandomDags.random(new Random(2), 100, 1).dag()).memoryBytes())
                .isEqualTo(2L * 100 * 8);
    }
}
