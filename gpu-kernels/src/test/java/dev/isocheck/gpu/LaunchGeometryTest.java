package dev.isocheck.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LaunchGeometryTest {

    @ParameterizedTest(name = "{0} nodes")
    @ValueSource(ints = {1, 63, 64, 65, 129, 1000, 16_384, 16_385, 16_449})
    void levelLaunchesCoverEveryNonZeroWordOfEveryRow(int nodes) {
        PackedDag packed = PackedDag.of(RandomDags.uniform(nodes, nodes, 1.5, 50));
        Levels levels = packed.levels();
        for (int l = 0; l < levels.count(); l++) {
            LaunchGeometry.Launch launch = LaunchGeometry.forLevel(packed, l);
            assertThat(launch.gridX()).isEqualTo(levels.size(l));
            assertThat(launch.blockX()).isEqualTo(LaunchGeometry.BLOCK_THREADS);
            for (int i = levels.begin(l); i < levels.begin(l) + levels.size(l); i++) {
                int own = levels.positionAt(i) >>> 6;
                // The words a row can have set, own..words-1, all get a thread ...
                assertThat(launch.firstWord()).isLessThanOrEqualTo(own);
                assertThat(launch.firstWord() + (long) launch.gridY() * launch.blockX()).isGreaterThanOrEqualTo(packed.words());
            }
            // ... and no y-chunk is wholly past the end of the rows.
            assertThat(launch.firstWord() + (long) (launch.gridY() - 1) * launch.blockX()).isLessThan(packed.words());
        }
    }

    @Test
    void wideRowsSplitIntoSeveralChunks() {
        int words = 257;
        LaunchGeometry.Launch insertion = LaunchGeometry.forInsertion(words, 3, 70);
        assertThat(insertion.gridX()).isEqualTo(4);
        assertThat(insertion.firstWord()).isEqualTo(1);
        assertThat(insertion.gridY()).isEqualTo(1);
        assertThat(LaunchGeometry.forInsertion(words, 0, 1).gridY()).isEqualTo(2);
        assertThat(LaunchGeometry.forInsertion(words, 0, words * 64 - 1).gridY()).isEqualTo(1);
    }

    @Test
    void insertionNeedsAForwardEdgeInRange() {
        assertThatThrownBy(() -> LaunchGeometry.forInsertion(2, 5, 5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LaunchGeometry.forInsertion(2, 6, 5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LaunchGeometry.forInsertion(2, 5, 128)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void gridLimitIsFarAboveAnyRowThatFitsMemory() {
        assertThat(LaunchGeometry.fits(1563)).isTrue();
        assertThat(LaunchGeometry.fits(LaunchGeometry.MAX_GRID_Y * LaunchGeometry.BLOCK_THREADS)).isTrue();
        assertThat(LaunchGeometry.fits(LaunchGeometry.MAX_GRID_Y * LaunchGeometry.BLOCK_THREADS + 1)).isFalse();
    }
}
