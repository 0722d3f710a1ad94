package dev.isocheck.bench;

import dev.isocheck.internal.prune.ChainReachability;
import dev.isocheck.internal.prune.IncrementalReachability;
import dev.isocheck.internal.prune.ReachabilityEngines;
import dev.isocheck.spi.BitRowReachability;
import dev.isocheck.spi.Dag;
import dev.isocheck.spi.Reachability;
import java.util.Arrays;
import java.util.Objects;
import java.util.Random;
import java.util.function.Supplier;

/**
 * Times the CPU closures on history-like graphs: {@code n} transactions in 24 sessions, session
 * edges first, then 4 cross edges per transaction from one up to 2000 transactions earlier (about 5
 * edges per node). Run it with
 * {@code java -Xmx4g -cp bench/target/isocheck-bench.jar dev.isocheck.bench.ReachabilityBenchmark
 * [nodes...]} (default 10000 50000 100000). Prints the median of 5 runs after two warm-ups, and the
 * memory each closure holds; bit rows are skipped where they would take more than half the heap.
 * Each run starts after a {@code System.gc()}, so that collecting the previous run's arrays is not
 * timed.
 *
 * <p>{@code cpu-chains} and {@code cpu-bitrows} are the names of the two layouts' engines in
 * {@code prune} ({@link ChainReachability#compute}, {@link BitRowReachability#compute}); {@code cpu}
 * is the engine that chooses between them ({@link ReachabilityEngines#cpu()}).
 */
public final class ReachabilityBenchmark {

    private static final int SESSIONS = 24;
    private static final double CROSS_PER_NODE = 4;
    private static final int WINDOW = 2000;
    private static final int RUNS = 5;
    private static final int ADDED_EDGES = 10_000;
    private static final String CHAINS = "cpu-chains";
    private static final String BIT_ROWS = "cpu-bitrows";

    private ReachabilityBenchmark() {
    }

    /** Runs the benchmark for each node count given (or 10k, 50k, 100k). */
    public static void main(String[] args) {
        int[] sizes = args.length == 0 ? new int[] {10_000, 50_000, 100_000}
                : Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        System.out.printf("max heap %d MiB, %d processors%n", Runtime.getRuntime().maxMemory() >> 20,
                Runtime.getRuntime().availableProcessors());
        for (int nodes : sizes) {
            run(nodes);
        }
    }

    private static void run(int nodes) {
        Graph graph = sessions(new Random(nodes), nodes, SESSIONS, CROSS_PER_NODE, WINDOW);
        Dag dag = graph.dag();
        System.out.printf("%n%d nodes, %d edges (%s)%n", nodes, graph.edges(), graph.description());
        time("Dag.of", graph::dag);
        time(CHAINS, () -> ChainReachability.compute(dag));
        long bitRowBytes = BitRowReachability.wordCount(nodes) * Long.BYTES;
        if (bitRowBytes > Runtime.getRuntime().maxMemory() / 2) {
            System.out.printf("  %-26s skipped: %d MiB of rows, more than half the heap%n",
                    BIT_ROWS, bitRowBytes >> 20);
        } else {
            time(BIT_ROWS, () -> BitRowReachability.compute(dag));
        }
        time("cpu (chooses)", () -> ReachabilityEngines.cpu().closureOf(dag));
        time("IncrementalReachability.of", () -> IncrementalReachability.of(dag));
        timeAddingEdges(dag);
    }

    /** Prints the median time of {@code build} and what its result holds. */
    private static void time(String name, Supplier<?> build) {
        long[] millis = new long[RUNS];
        Object result = build.get();
        result = build.get();
        for (int run = 0; run < RUNS; run++) {
            result = null;
            System.gc();
            long start = System.nanoTime();
            result = build.get();
            millis[run] = (System.nanoTime() - start) / 1_000_000;
        }
        print(name, millis, describe(result));
    }

    /** Prints the median time of {@value #ADDED_EDGES} {@code addEdge} calls on a fresh closure. */
    private static void timeAddingEdges(Dag dag) {
        long[] millis = new long[RUNS];
        IncrementalReachability closure = IncrementalReachability.of(dag);
        int changed = addCrossEdges(closure);
        addCrossEdges(IncrementalReachability.of(dag));
        for (int run = 0; run < RUNS; run++) {
            closure = IncrementalReachability.of(dag);
            System.gc();
            long start = System.nanoTime();
            addCrossEdges(closure);
            millis[run] = (System.nanoTime() - start) / 1_000_000;
        }
        print(ADDED_EDGES + " addEdge", millis, describe(closure) + ", " + changed + " changed the closure");
    }

    private static int addCrossEdges(IncrementalReachability closure) {
        int nodes = closure.nodeCount();
        Random random = new Random(-nodes);
        int changed = 0;
        for (int e = 0; e < ADDED_EDGES; e++) {
            // Node ids are time order and every edge goes forward in it, so none closes a cycle.
            int to = 1 + random.nextInt(nodes - 1);
            changed += closure.addEdge(to - 1 - random.nextInt(Math.min(WINDOW, to)), to) ? 1 : 0;
        }
        return changed;
    }

    private static String describe(Object result) {
        if (result instanceof ChainReachability) {
            ChainReachability chains = (ChainReachability) result;
            return memory(chains) + ", " + chains.chainCount() + " chains";
        }
        if (result instanceof IncrementalReachability) {
            IncrementalReachability chains = (IncrementalReachability) result;
            return memory(chains) + ", " + chains.chainCount() + " chains";
        }
        if (result instanceof Reachability) {
            return memory((Reachability) result) + ", bit rows";
        }
        return "";
    }

    private static String memory(Reachability closure) {
        return String.format("%.1f MiB", closure.memoryBytes() / 1048576.0);
    }

    private static void print(String name, long[] millis, String about) {
        long[] sorted = millis.clone();
        Arrays.sort(sorted);
        System.out.printf("  %-26s median %6d ms  (runs %s)  %s%n", name, sorted[RUNS / 2], Arrays.toString(millis), about);
    }

    /** An edge list; {@link #dag()} builds it. Parallel edges may occur. */
    private record Graph(int nodes, int[] from, int[] to, String description) {

        int edges() {
            return from.length;
        }

        /** The {@link Dag} of all the edges; fails if they form a cycle (a generator bug). */
        Dag dag() {
            return Objects.requireNonNull(Dag.of(nodes, from, to, edges()), "the generated edges form a cycle");
        }
    }

    /**
     * A history-like graph: node {@code i} is the {@code i}-th transaction in time, in a random one of
     * {@code sessions} sessions; consecutive transactions of a session are linked (these edges come
     * first, as the known graph lists them), then about {@code crossPerNode} edges per node go to a
     * node up to {@code window} transactions later. A copy of the generator of the same name in
     * {@code prune}'s tests, so that the graphs stay those the published results were measured on.
     */
    private static Graph sessions(Random random, int nodes, int sessions, double crossPerNode, int window) {
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
