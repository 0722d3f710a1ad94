package dev.isocheck.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.spi.Dag;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PackedDagTest {

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {21, 22, 23, 24, 25})
    void successorsRoundTripThroughPositions(long seed) {
        // Dense enough, on few nodes, to draw parallel edges.
        Dag dag = RandomDags.uniform(seed, 120, 4.0, 6);
        PackedDag packed = PackedDag.of(dag);
        int distinct = 0;
        for (int u = 0; u < dag.nodeCount(); u++) {
            int p = dag.positionOf(u);
            Set<Integer> expected = new TreeSet<>();
            for (int i = 0; i < dag.successorCount(u); i++) {
                expected.add(dag.positionOf(dag.successor(u, i)));
            }
            Set<Integer> actual = new TreeSet<>();
            for (int i = 0; i < packed.successorCount(p); i++) {
                int q = packed.successor(p, i);
                assertThat(q).as("seed %d: successor of position %d", seed, p).isGreaterThan(p);
                if (i > 0) {
                    assertThat(q).as("seed %d: ascending, no duplicates", seed).isGreaterThan(packed.successor(p, i - 1));
                }
                actual.add(q);
            }
            assertThat(actual).as("seed %d: node %d at position %d", seed, u, p).isEqualTo(expected);
            distinct += expected.size();
        }
        assertThat(packed.edgeCount()).isEqualTo(distinct);
        assertThat(packed.nodeCount()).isEqualTo(dag.nodeCount());
        assertThat(packed.successorStarts()).hasSize(dag.nodeCount() + 1);
        assertThat(packed.successorPositions()).hasSize(distinct);
    }

    @Test
    void parallelEdgesCountOnce() {
        Dag dag = Dag.of(3, new int[] {0, 0, 0, 1}, new int[] {1, 1, 2, 2}, 4);
        PackedDag packed = PackedDag.of(dag);
        assertThat(packed.edgeCount()).isEqualTo(3);
        assertThat(packed.successorStarts()).containsExactly(0, 2, 3, 3);
        assertThat(packed.successorPositions()).containsExactly(1, 2, 2);
    }

    @Test
    void wordsAtTheWordBoundaries() {
        assertThat(PackedDag.of(RandomDags.uniform(1, 63, 1, 5)).words()).isEqualTo(1);
        assertThat(PackedDag.of(RandomDags.uniform(1, 64, 1, 5)).words()).isEqualTo(1);
        assertThat(PackedDag.of(RandomDags.uniform(1, 65, 1, 5)).words()).isEqualTo(2);
    }

    @Test
    void memoryAndTrafficFormulas() {
        assertThat(PackedDag.rowBytes(100_000)).isEqualTo(100_000L * 1563 * 8);
        assertThat(PackedDag.deviceBytes(100_000, 250_000)).isEqualTo(100_000L * 1563 * 8 + 4L * (100_001 + 250_000 + 100_000));
        // 0 -> 1 -> 2, one word per row: zeroing 3 words, writing 3 rows of 1 word, reading 2 rows.
        PackedDag path = PackedDag.of(Dag.of(3, new int[] {0, 1}, new int[] {1, 2}, 2));
        assertThat(path.bytesMoved()).isEqualTo((3 + 3 + 2) * 8L);
        // 130 nodes: 3 words; the edge 0 -> 129 reads 1 word of row 129 (from its word 2 on).
        PackedDag wide = PackedDag.of(Dag.of(130, new int[] {0}, new int[] {129}, 1));
        int q = wide.successor(0, 0);
        long rowWrites = 0;
        for (int p = 0; p < 130; p++) {
            rowWrites += 3 - (p >>> 6);
        }
        assertThat(wide.bytesMoved()).isEqualTo((130 * 3 + rowWrites + (3 - (q >>> 6))) * 8L);
    }
}
