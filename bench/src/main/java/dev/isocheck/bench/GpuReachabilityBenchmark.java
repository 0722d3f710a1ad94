package dev.isocheck.bench;

import dev.isocheck.gpu.CudaReachabilityEngine;
import dev.isocheck.gpu.DeviceClosure;
import dev.isocheck.gpu.Levels;
import dev.isocheck.gpu.PackedDag;
import dev.isocheck.internal.prune.ReachabilityEngines;
import dev.isocheck.spi.BitRowReachability;
import dev.isocheck.spi.Dag;
import dev.isocheck.spi.Reachability;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;

/**
 * Closure of session-structured random DAGs (10k, 50k, 100k nodes by default) on the GPU against
 * {@link BitRowReachability#compute} on the CPU: median of 5 runs each, after a warm-up, with the
 * bandwidth bound (bytes the level-by-level closure must move / 3 TB/s, an H100's HBM3) for
 * comparison. Every GPU result is checked bit for bit against the CPU's before it is timed, so a
 * fast wrong answer cannot be reported. Without a usable GPU it says why and times the CPU alone.
 * The last columns time the check's own CPU engine (chain clocks or bit rows, whichever is
 * smaller), which is what the GPU has to beat. Shape {@code wide}: random DAGs of thousands of
 * chains instead (3 edges per node from any earlier node), the only graphs {@code auto} sends to the
 * GPU.
 *
 * <p>Run: {@code mvn -B -ntp -pl bench -am -DskipTests -Pgpu-benchmark verify}, or
 * {@code java -Xmx8g -cp ... dev.isocheck.bench.GpuReachabilityBenchmark [sizes [sessions|wide]]} with sizes as
 * {@code 10000,50000,100000} and the class path of module {@code bench} (with {@code gpu-kernels};
 * the runnable {@code isocheck-bench.jar} leaves them out). Needs about 5 GB of heap at 100k nodes
 * (rows are 1.25 GB). It sets {@code isocheck.gpu=on}, so that the engine's size rule does not turn
 * the GPU down for small sizes.
 */
public final class GpuReachabilityBenchmark {

    private static final int RUNS = 5;
    private static final double BANDWIDTH_BYTES_PER_SECOND = 3.0e12;
    private static final int SESSIONS = 24;
    private static final int READS_PER_TRANSACTION = 2;
    private static final int READ_WINDOW = 200;
    private static final int WIDE_EDGES_PER_NODE = 3;

    private GpuReachabilityBenchmark() {
    }

    /** Runs the benchmark; {@code args[0]}, optional, is a comma-separated list of node counts. */
    public static void main(String[] args) {
        int[] sizes = args.length > 0
                ? Arrays.stream(args[0].split(",")).map(String::strip).mapToInt(Integer::parseInt).toArray()
                : new int[] {10_000, 50_000, 100_000};
        boolean wide = args.length > 1 && args[1].equals("wide");
        if (args.length > 1 && !wide && !args[1].equals("sessions")) {
            throw new IllegalArgumentException("the shape is sessions or wide, not " + args[1]);
        }
        System.setProperty(CudaReachabilityEngine.PROPERTY, "on");
        CudaReachabilityEngine engine = new CudaReachabilityEngine();
        System.out.println("device: " + engine.deviceDescription());
        String shape = wide ? String.format(Locale.ROOT, "wide, %d edges per node from any earlier node", WIDE_EDGES_PER_NODE)
                : String.format(Locale.ROOT, "%d sessions, %d reads per transaction from the last %d", SESSIONS,
                        READS_PER_TRANSACTION, READ_WINDOW);
        System.out.printf(Locale.ROOT, "DAGs: %s; median of %d runs; bound = bytes moved / %.0f TB/s; cpu_engine: the"
                + " check's own CPU engine and its layout%n", shape, RUNS, BANDWIDTH_BYTES_PER_SECOND / 1e12);
        System.out.println("nodes    edges    levels  maxwidth  rowsMB   movedMB  bound_ms    cpu_ms  gpu_kernel_ms  gpu_total_ms  kernel/bound  cpu/kernel  cpu/total  cpu_engine_ms  layout");
        String lastReason = engine.deviceDescription().startsWith("none: ") ? "no usable CUDA device: " + engine.deviceDescription().substring(6) : null;
        for (int n : sizes) {
            Optional<String> reason = run(engine, n, wide);
            if (reason.isPresent() && !reason.get().equals(lastReason)) {
                System.out.println("  GPU not run: " + reason.get());
                lastReason = reason.get();
            }
        }
    }

    private static Optional<String> run(CudaReachabilityEngine engine, int n, boolean wide) {
        Dag dag = wide ? wide(n, n, WIDE_EDGES_PER_NODE) : sessionStructured(n, n, SESSIONS, READS_PER_TRANSACTION, READ_WINDOW);
        PackedDag packed = PackedDag.of(dag);
        double boundMs = packed.bytesMoved() / BANDWIDTH_BYTES_PER_SECOND * 1e3;

        BitRowReachability.compute(dag);
        double cpuMs = median(() -> {
            long start = System.nanoTime();
            BitRowReachability.compute(dag);
            return System.nanoTime() - start;
        });

        Optional<String> reason = engine.unavailableReason(n, dag.edgeCount());
        String kernel = "-";
        String total = "-";
        String kernelPerBound = "-";
        String cpuPerKernel = "-";
        String cpuPerTotal = "-";
        if (reason.isEmpty()) {
            long[] expected = BitRowReachability.compute(dag).rows();
            String difference = firstDifference(expected, engine.closureOf(dag).rows(), packed.words());
            if (difference != null) {
                throw new AssertionError(n + " nodes: GPU rows differ from the CPU's: " + difference);
            }
            expected = null;
            double kernelMs = median(() -> {
                try (DeviceClosure closure = engine.openClosure(dag)) {
                    return closure.closureNanos();
                }
            });
            double totalMs = median(() -> {
                long start = System.nanoTime();
                engine.closureOf(dag);
                return System.nanoTime() - start;
            });
            kernel = format(kernelMs);
            total = format(totalMs);
            kernelPerBound = format(kernelMs / boundMs);
            cpuPerKernel = format(cpuMs / kernelMs);
            cpuPerTotal = format(cpuMs / totalMs);
        }
        // What the check itself would use on the CPU: chain clocks or bit rows, whichever is smaller.
        Reachability[] layout = new Reachability[1];
        double engineMs = median(() -> {
            long start = System.nanoTime();
            layout[0] = ReachabilityEngines.cpu().closureOf(dag);
            return System.nanoTime() - start;
        });
        Levels levels = packed.levels();
        System.out.printf(Locale.ROOT, "%-8d %-8d %-7d %-9d %-8d %-8d %-9s %-9s %-14s %-13s %-13s %-11s %-10s %-14s %s%n",
                n, packed.edgeCount(), levels.count(), levels.maxSize(), packed.rowBytes() >> 20, packed.bytesMoved() >> 20,
                format(boundMs), format(cpuMs), kernel, total, kernelPerBound, cpuPerKernel, cpuPerTotal, format(engineMs),
                layout[0].getClass().getSimpleName());
        return reason;
    }

    private interface Timed {
        long nanos();
    }

    private static double median(Timed timed) {
        timed.nanos();
        long[] nanos = new long[RUNS];
        for (int i = 0; i < RUNS; i++) {
            nanos[i] = timed.nanos();
        }
        Arrays.sort(nanos);
        return nanos[RUNS / 2] / 1e6;
    }

    private static String format(double value) {
        return String.format(Locale.ROOT, value < 10 ? "%.3f" : "%.1f", value);
    }

    /**
     * A graph shaped like a history's known graph: {@code sessions} sessions take turns at random,
     * each transaction follows its session's previous one (session order) and reads from
     * {@code readsPerNode} transactions among the {@code window} before it (write-read edges to
     * recent writes, as real workloads read mostly fresh values). Ids are in issue order. A copy of
     * the generator of the same name in {@code gpu-kernels}' tests, so that the graphs stay those the
     * CPU numbers in {@code gpu-kernels/README.md} were measured on.
     */
    private static Dag sessionStructured(long seed, int nodes, int sessions, int readsPerNode, int window) {
        Random random = new Random(seed);
        int[] last = new int[sessions];
        Arrays.fill(last, -1);
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

    /**
     * A wide graph, unlike a history's: each node after the first reads from {@code edgesPerNode}
     * nodes drawn from all the nodes before it, so that it decomposes into thousands of chains and
     * the CPU's chain clocks lose to bit rows: the graphs {@code auto} sends to the GPU.
     */
    private static Dag wide(long seed, int nodes, int edgesPerNode) {
        Random random = new Random(seed);
        int[] from = new int[nodes * edgesPerNode];
        int[] to = new int[from.length];
        int edges = 0;
        for (int t = 1; t < nodes; t++) {
            for (int e = 0; e < edgesPerNode; e++) {
                from[edges] = random.nextInt(t);
                to[edges++] = t;
            }
        }
        return Dag.of(nodes, from, to, edges);
    }

    /** Null when equal; else where the first difference is, for the failure message. */
    private static String firstDifference(long[] expected, long[] actual, int words) {
        if (expected.length != actual.length) {
            return "lengths differ: expected " + expected.length + " words, got " + actual.length;
        }
        for (int i = 0; i < expected.length; i++) {
            if (expected[i] != actual[i]) {
                return "row (position) " + i / words + ", word " + i % words + ": expected "
                        + Long.toHexString(expected[i]) + ", got " + Long.toHexString(actual[i]);
            }
        }
        return null;
    }
}
