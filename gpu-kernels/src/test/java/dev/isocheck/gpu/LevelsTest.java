package dev.isocheck.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.spi.Dag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LevelsTest {

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void everyEdgeGoesToALowerLevelAndLevelsAreLongestPaths(long seed) {
        Dag dag = seed % 2 == 0
                ? RandomDags.uniform(seed, 300, 2.5, 1 + (int) seed * 20)
                : RandomDags.sessionStructured(seed, 300, 1 + (int) seed, 2, 30);
        Levels levels = Levels.of(dag);
        for (int u = 0; u < dag.nodeCount(); u++) {
            int p = dag.positionOf(u);
            int highestSuccessor = -1;
            for (int i = 0; i < dag.successorCount(u); i++) {
                int q = dag.positionOf(dag.successor(u, i));
                assertThat(levels.levelOf(q)).as("seed %d: edge %d -> %d", seed, u, dag.successor(u, i)).isLessThan(levels.levelOf(p));
                highestSuccessor = Math.max(highestSuccessor, levels.levelOf(q));
            }
            // Minimal: one level above the highest successor, 0 for a sink. So the level count is
            // the longest path's node count, the fewest launches possible.
            assertThat(levels.levelOf(p)).as("seed %d: node %d", seed, u).isEqualTo(highestSuccessor + 1);
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {11, 12, 13})
    void positionsAreGroupedByLevelAscendingWithin(long seed) {
        Dag dag = RandomDags.uniform(seed, 500, 1.5, 40);
        Levels levels = Levels.of(dag);
        int[] positions = levels.positions();
        int[] starts = levels.starts();
        assertThat(starts[0]).isZero();
        assertThat(starts[levels.count()]).isEqualTo(dag.nodeCount());
        boolean[] seen = new boolean[dag.nodeCount()];
        for (int l = 0; l < levels.count(); l++) {
            assertThat(levels.size(l)).as("level %d", l).isPositive();
            for (int i = levels.begin(l); i < levels.begin(l) + levels.size(l); i++) {
                assertThat(levels.levelOf(positions[i])).isEqualTo(l);
                assertThat(seen[positions[i]]).isFalse();
                seen[positions[i]] = true;
                assertThat(levels.positionAt(i)).isEqualTo(positions[i]);
                if (i > levels.begin(l)) {
                    assertThat(positions[i]).isGreaterThan(positions[i - 1]);
                }
            }
        }
        assertThat(seen).containsOnly(true);
    }

    @Test
    void chainHasOneLevelPerNodeAndAntichainOne() {
        int n = 70;
        int[] from = new int[n - 1];
        int[] to = new int[n - 1];
        for (int i = 0; i < n - 1; i++) {
            from[i] = i;
            to[i] = i + 1;
        }
        Levels chain = Levels.of(Dag.of(n, from, to, n - 1));
        assertThat(chain.count()).isEqualTo(n);
        assertThat(chain.maxSize()).isEqualTo(1);
        assertThat(chain.positionAt(chain.begin(0))).isEqualTo(n - 1);

        Levels antichain = Levels.of(Dag.of(n, new int[0], new int[0], 0));
        assertThat(antichain.count()).isEqualTo(1);
        assertThat(antichain.size(0)).isEqualTo(n);
    }

    @Test
    void emptyGraphHasNoLevels() {
        Levels levels = Levels.of(Dag.of(0, new int[0], new int[0], 0));
        assertThat(levels.count()).isZero();
        assertThat(levels.positions()).isEmpty();
        assertThat(levels.maxSize()).isZero();
    }
}
