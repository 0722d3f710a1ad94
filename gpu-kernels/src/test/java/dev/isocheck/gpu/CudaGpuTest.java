package dev.isocheck.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.isocheck.spi.BitRowReachability;
import dev.isocheck.spi.Dag;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The kernels on a real GPU, bit for bit against {@link BitRowReachability#compute}. Tagged
 * {@code gpu}; each test is skipped, with the engine's reason, where no usable device is found
 * (no JCuda natives for the platform, no driver, no device, a driver that rejects the PTX).
 * {@code isocheck.gpu=on} semantics so that small graphs run on the device too.
 */
@Tag("gpu")
class CudaGpuTest {

    private static final CudaReachabilityEngine ENGINE = new CudaReachabilityEngine(CudaDriver::probe, key -> "on");

    private static void assumeDevice(int nodes, long edges) {
        Optional<String> reason = ENGINE.unavailableReason(nodes, edges);
        assumeTrue(reason.isEmpty(), () -> "no GPU run: " + reason.orElse(""));
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void boundarySizesMatchTheCpuBitForBit(long seed) {
        assumeDevice(1, 0);
        for (int n : new int[] {1, 2, 63, 64, 65, 127, 128, 129, 255, 256, 257, 16_383, 16_384, 16_385, 16_449}) {
            assertSameRows(seed, RandomDags.uniform(seed * 1000 + n, n, 1.5, 8));
            assertSameRows(seed, RandomDags.uniform(seed * 2000 + n, n, 4.0, n));
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {11, 12, 13, 14, 15, 16, 17, 18})
    void randomDagsUpTo10kMatchTheCpuBitForBit(long seed) {
        assumeDevice(10_000, 50_000);
        Random random = new Random(seed);
        for (int round = 0; round < 5; round++) {
            int n = 1 + random.nextInt(10_000);
            long graphSeed = random.nextLong();
            Dag dag = random.nextBoolean()
                    ? RandomDags.uniform(graphSeed, n, random.nextDouble() * 5, 1 + random.nextInt(n))
                    : RandomDags.sessionStructured(graphSeed, n, 1 + random.nextInt(64), random.nextInt(4), 1 + random.nextInt(500));
            assertSameRows(graphSeed, dag);
        }
    }

    @ParameterizedTest(name = "{0} nodes")
    @ValueSource(ints = {50_000, 100_000})
    void largeSessionStructuredDagsMatchTheCpuBitForBit(int n) {
        assumeDevice(n, 3L * n);
        assertSameRows(n, RandomDags.sessionStructured(n, n, 24, 2, 200));
    }

    @Test
    void wideShallow100kDagMatchesTheCpuBitForBit() {
        assumeDevice(100_000, 300_000);
        assertSameRows(100, RandomDags.uniform(100, 100_000, 3.0, 100_000));
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {41, 42, 43})
    void insertedEdgesGiveTheRowsOfTheGrownGraphBitForBit(long seed) {
        assumeDevice(20_000, 40_000);
        Random random = new Random(seed);
        for (int n : new int[] {65, 1000, 20_000}) {
            Dag dag = RandomDags.sessionStructured(seed * 10 + n, n, 16, 1, 50);
            List<int[]> applied = new ArrayList<>();
            try (DeviceClosure closure = ENGINE.openClosure(dag)) {
                for (int k = 0; k < 200; k++) {
                    int a = random.nextInt(n);
                    int b = random.nextInt(n);
                    if (a != b && closure.addEdge(a, b)) {
                        applied.add(new int[] {a, b});
                    }
                }
                String difference = Rows.firstDifference(Rows.closureWith(dag, applied), closure.snapshot().rows(), BitRowReachability.wordsPerRow(n));
                assertThat(difference).as("seed %d, n %d, %d edges inserted", seed, n, applied.size()).isNull();
            }
        }
    }

    private static void assertSameRows(long seed, Dag dag) {
        long[] expected = BitRowReachability.compute(dag).rows();
        long[] actual = ENGINE.closureOf(dag).rows();
        String difference = Rows.firstDifference(expected, actual, BitRowReachability.wordsPerRow(dag.nodeCount()));
        assertThat(difference).as("seed %d, %d nodes, %d edges", seed, dag.nodeCount(), dag.edgeCount()).isNull();
    }
}
