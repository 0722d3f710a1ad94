package dev.isocheck.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.spi.BitRowReachability;
import dev.isocheck.spi.Dag;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The engine's whole host path (packing, levels, launch geometry, launch order, incremental
 * insertion) over {@link KernelEmulator}'s index-for-index execution of the kernels, against
 * {@link BitRowReachability#compute}: rows must be identical bit for bit. Each failure names the
 * seed that reproduces it.
 */
class KernelEmulationTest {

    private static final int[] BOUNDARY_SIZES = {1, 2, 3, 63, 64, 65, 127, 128, 129, 191, 192, 193, 255, 256, 257};

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
    void boundarySizesMatchTheCpuBitForBit(long seed) {
        for (int n : BOUNDARY_SIZES) {
            // Sparse with long paths, and dense with short ones: few wide levels and many thin ones.
            assertSameRows(seed, n, RandomDags.uniform(seed * 1000 + n, n, 1.2, 4));
            assertSameRows(seed, n, RandomDags.uniform(seed * 2000 + n, n, 6.0, n));
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {31, 32, 33, 34, 35, 36})
    void randomSizesAndShapesMatchTheCpuBitForBit(long seed) {
        Random random = new Random(seed);
        for (int round = 0; round < 4; round++) {
            int n = 1 + random.nextInt(1500);
            long graphSeed = random.nextLong();
            Dag dag = random.nextBoolean()
                    ? RandomDags.uniform(graphSeed, n, random.nextDouble() * 5, 1 + random.nextInt(n))
                    : RandomDags.sessionStructured(graphSeed, n, 1 + random.nextInt(32), random.nextInt(4), 1 + random.nextInt(100));
            assertSameRows(graphSeed, n, dag);
        }
    }

    @Test
    void rowsWiderThanOneBlockMatchTheCpuBitForBit() {
        // 16_449 nodes: 258 words, two y-chunks of 256 threads, the second mostly idle.
        long seed = 77;
        int n = 16_449;
        assertSameRows(seed, n, RandomDags.uniform(seed, n, 1.0, n));
    }

    @Test
    void oneLaunchPerLevel() {
        KernelEmulator emulator = new KernelEmulator();
        Dag dag = RandomDags.sessionStructured(5, 400, 8, 2, 20);
        try (DeviceClosure closure = DeviceClosure.compute(emulator, dag)) {
            assertThat(emulator.levelLaunches).isEqualTo(Levels.of(dag).count());
        }
        assertThat(emulator.openSessions).isZero();
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {41, 42, 43, 44, 45, 46, 47, 48})
    void insertedEdgesGiveTheRowsOfTheGrownGraphBitForBit(long seed) {
        Random random = new Random(seed);
        for (int n : new int[] {63, 64, 65, 200}) {
            Dag dag = RandomDags.uniform(seed * 100 + n, n, 1.0, 10);
            KernelEmulator emulator = new KernelEmulator();
            List<int[]> applied = new ArrayList<>();
            try (DeviceClosure closure = DeviceClosure.compute(emulator, dag)) {
                for (int k = 0; k < 30; k++) {
                    int a = random.nextInt(n);
                    int b = random.nextInt(n);
                    if (a == b) {
                        continue;
                    }
                    long[] before = closure.snapshot().rows();
                    boolean forward = dag.positionOf(a) < dag.positionOf(b);
                    assertThat(closure.addEdge(a, b)).as("seed %d, n %d: edge %d -> %d", seed, n, a, b).isEqualTo(forward);
                    if (forward) {
                        applied.add(new int[] {a, b});
                    } else {
                        assertThat(closure.snapshot().rows()).as("seed %d, n %d: refused edge changed rows", seed, n).isEqualTo(before);
                    }
                }
                String difference = Rows.firstDifference(Rows.closureWith(dag, applied), closure.snapshot().rows(), BitRowReachability.wordsPerRow(n));
                assertThat(difference).as("seed %d, n %d, %d edges inserted", seed, n, applied.size()).isNull();
                assertThat(emulator.insertLaunches).isEqualTo(applied.size());
            }
        }
    }

    @Test
    void insertionReachesAcrossWordBoundariesAndChunks() {
        // Two chains, 0..99 and 100..16_499; rows of 258 words, two y-chunks. Kahn's order starts
        // with both heads, so 0 -> 100 goes forward and its insertion touches words 0..257.
        int n = 16_500;
        int[] from = new int[n - 2];
        int[] to = new int[n - 2];
        int e = 0;
        for (int i = 0; i + 1 < n; i++) {
            if (i != 99) {
                from[e] = i;
                to[e++] = i + 1;
            }
        }
        Dag dag = Dag.of(n, from, to, e);
        assertThat(dag.positionOf(0)).isLessThan(dag.positionOf(100));
        assertThat(LaunchGeometry.forInsertion(BitRowReachability.wordsPerRow(n), dag.positionOf(0), dag.positionOf(100)).gridY()).isEqualTo(2);
        try (DeviceClosure closure = DeviceClosure.compute(new KernelEmulator(), dag)) {
            assertThat(closure.snapshot().reaches(0, n - 1)).isFalse();
            assertThat(closure.addEdge(0, 100)).isTrue();
            BitRowReachability grown = closure.snapshot();
            assertThat(grown.reaches(0, n - 1)).isTrue();
            assertThat(grown.reaches(1, n - 1)).isFalse();
            assertThat(grown.reaches(100, 0)).isFalse();
            String difference = Rows.firstDifference(Rows.closureWith(dag, List.<int[]>of(new int[] {0, 100})), grown.rows(), BitRowReachability.wordsPerRow(n));
            assertThat(difference).isNull();
        }
    }

    static void assertSameRows(long seed, int n, Dag dag) {
        long[] expected = BitRowReachability.compute(dag).rows();
        long[] actual;
        try (DeviceClosure closure = DeviceClosure.compute(new KernelEmulator(), dag)) {
            actual = closure.snapshot().rows();
        }
        String difference = Rows.firstDifference(expected, actual, BitRowReachability.wordsPerRow(n));
        assertThat(difference).as("seed %d, %d nodes, %d edges", seed, n, dag.edgeCount()).isNull();
    }
}
