package dev.isocheck.internal.prune;

import dev.isocheck.spi.Dag;
import java.util.Arrays;
import java.util.Optional;
import java.util.Random;

/**
 * Random acyclic graphs for the tests: edges always go forward in a hidden order, so every graph is
 * a DAG; node ids can be shuffled so that they are not that order. Bench's
 * {@code ReachabilityBenchmark} has a copy of {@link #sessions}.
 */
final class RandomDags {

    private RandomDags() {
    }

    /** An edge list; {@link #dag()} builds it. Parallel edges may occur. */
    record Graph(int nodes, int[] from, int[] to, String description) {

        int edges() {
            return from.length;
        }

        /** The {@link Dag} of all the edges; fails the test if they form a cycle (a generator bug). */
        Dag dag() {
            return prefix(edges()).orElseThrow();
        }

        /** The {@link Dag} of the first {@code edges} edges. */
        Optional<Dag> prefix(int edges) {
            return Optional.ofNullable(Dag.of(nodes, from, to, edges));
        }

        /** The same graph with node ids permuted at random, so that ids are not a topological order. */
        Graph relabelled(Random random) {
            int[] name = permutation(random, nodes);
            int[] f = new int[edges()];
            int[] t = new int[edges()];
            for (int e = 0; e < edges(); e++) {
                f[e] = name[from[e]];
                t[e] = name[to[e]];
            }
            return new Graph(nodes, f, t, description + ", relabelled");
        }

        /** The same edges in a random order. */
        Graph shuffled(Random random) {
            int[] order = permutation(random, edges());
            int[] f = new int[edges()];
            int[] t = new int[edges()];
            for (int e = 0; e < edges(); e++) {
                f[e] = from[order[e]];
                t[e] = to[order[e]];
            }
            return new Graph(nodes, f, t, description + ", edges shuffled");
        }

        @Override
        public String toString() {
            StringBuilder out = new StringBuilder(description).append(": ").append(nodes).append(" nodes, edges");
            for (int e = 0; e < edges(); e++) {
                out.append(' ').append(from[e]).append("->").append(to[e]);
            }
            return out.toString();
        }
    }

    /** About {@code edgesPerNode * nodes} edges between random pairs, forward in a hidden order. */
    static Graph random(Random random, int nodes, double edgesPerNode) {
        int edges = nodes < 2 ? 0 : (int) Math.round(edgesPerNode * nodes);
        int[] order = permutation(random, nodes);
        int[] from = new int[edges];
        int[] to = new int[edges];
        for (int e = 0; e < edges; e++) {
            int a = random.nextInt(nodes);
            int b = random.nextInt(nodes - 1);
            b += b >= a ? 1 : 0;
            from[e] = order[Math.min(a, b)];
            to[e] = order[Math.max(a, b)];
        }
        return new Graph(nodes, from, to, "random, " + edgesPerNode + " edges per node");
    }

    /** Each forward pair of the hidden order an edge with probability {@code density}. */
    static Graph dense(Random random, int nodes, double density) {
        int[] order = permutation(random, nodes);
        IntPairs edges = new IntPairs();
        for (int a = 0; a < nodes; a++) {
            for (int b = a + 1; b < nodes; b++) {
                if (random.nextDouble() < density) {
                    edges.add(order[a], order[b]);
                }
            }
        }
        return new Graph(nodes, edges.from(), edges.to(), "dense " + density);
    }

    /**
     * A history-like graph: node {@code i} is the {@code i}-th transaction in time, in a random one of
     * {@code sessions} sessions; consecutive transactions of a session are linked (these edges come
     * first, as the known graph lists them), then about {@code crossPerNode} edges per node go to a
     * node up to {@code window} transactions later.
     */
    static Graph sessions(Random random, int nodes, int sessions, double crossPerNode, int window) {
        IntPairs edges = new IntPairs();
        int[] last = new int[sessions];
        Arrays.fill(last, -1);
        for (int node = 0; node < nodes; node++) {
            int session = random.nextInt(sessions);
            if (last[session] >= 0) {
                edges.add(last[session], node);
            }
            last[session] = node;
        }
        long cross = nodes < 2 ? 0 : Math.round(crossPerNode * nodes);
        for (long e = 0; e < cross; e++) {
            int target = 1 + random.nextInt(nodes - 1);
            int source = target - 1 - random.nextInt(Math.min(window, target));
            edges.add(source, target);
        }
        return new Graph(nodes, edges.from(), edges.to(),
                sessions + " sessions, " + crossPerNode + " cross edges per node within " + window);
    }

    static int[] permutation(Random random, int size) {
        int[] values = new int[size];
        for (int i = 0; i < size; i++) {
            int j = random.nextInt(i + 1);
            values[i] = values[j];
            values[j] = i;
        }
        return values;
    }

    /** A growable list of (from, to) pairs. */
    private static final class IntPairs {

        private int[] from = new int[16];
        private int[] to = new int[16];
        private int size;

        void add(int a, int b) {
            if (size == from.length) {
                from = Arrays.copyOf(from, size * 2);
                to = Arrays.copyOf(to, size * 2);
            }
            from[size] = a;
            to[size++] = b;
        }

        int[] from() {
            return Arrays.copyOf(from, size);
        }

        int[] to() {
            return Arrays.copyOf(to, size);
        }
    }
}
