package dev.isocheck.gpu;

import dev.isocheck.spi.Dag;
import java.util.Random;

/**
 * Seeded random DAGs for the tests; the same seed gives the same graph. Bench's
 * {@code GpuReachabilityBenchmark} has a copy of {@link #sessionStructured}.
 */
final class RandomDags {

    private RandomDags() {
    }

    /**
     * A graph whose edges go from lower to higher rank in a random ranking, {@code edgesPerNode} on
     * average, each to a node at most {@code reach} ranks later (small reach: long paths, many
     * levels; large reach: few levels). Node ids are shuffled against the ranking so that ids,
     * ranks and topological positions all differ, as they do in real graphs.
     */
    static Dag uniform(long seed, int nodes, double edgesPerNode, int reach) {
        Random random = new Random(seed);
        int[] id = shuffled(random, nodes);
        int edges = nodes < 2 ? 0 : (int) Math.round(nodes * edgesPerNode);
        int[] from = new int[edges];
        int[] to = new int[edges];
        for (int e = 0; e < edges; e++) {
            int a = random.nextInt(nodes - 1);
            int b = a + 1 + random.nextInt(Math.min(reach, nodes - 1 - a));
            from[e] = id[a];
            to[e] = id[b];
        }
        return Dag.of(nodes, from, to, edges);
    }

    /**
     * A graph shaped like a history's known graph: {@code sessions} sessions take turns at random,
     * each transaction follows its session's previous one (session order) and reads from
     * {@code readsPerNode} transactions among the {@code window} before it (write-read edges to
     * recent writes, as real workloads read mostly fresh values). Ids are in issue order.
     */
    static Dag sessionStructured(long seed, int nodes, int sessions, int readsPerNode, int window) {
        Random random = new Random(seed);
        int[] last = new int[sessions];
        java.util.Arrays.fill(last, -1);
        int capacity = nodes * (1 + readsPerNode);
        int[] from = new int[capacity];
        int[] to = new int[capacity];
        int edges = 0;
        for (int t = 0; t < nodes; t++) {
            int s = random.nextInt(sessions);
            if (last[s] >= 0) {
                from[edges] = last[s];
                to[edges++] = t;
            }
            last[s] = t;
            for (int r = 0; r < readsPerNode && t > 0; r++) {
                int writer = t - 1 - random.nextInt(Math.min(window, t));
                from[edges] = writer;
                to[edges++] = t;
            }
        }
        return Dag.of(nodes, from, to, edges);
    }

    private static int[] shuffled(Random random, int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
        return a;
    }
}
