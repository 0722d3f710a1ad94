package dev.isocheck.gpu;

import dev.isocheck.spi.BitRowReachability;
import dev.isocheck.spi.Dag;
import dev.isocheck.spi.ReachabilityEngine;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The {@link ReachabilityEngine} that computes bit-row closures on a CUDA GPU through JCuda: the
 * kernels of {@code src/main/cuda/reachability.cu}, loaded from PTX shipped in this jar, produce
 * rows identical bit for bit to {@link BitRowReachability#compute}. Registered for
 * {@link java.util.ServiceLoader} under the name {@value #NAME}.
 *
 * <p>It declines (through {@link #unavailableReason}, never by throwing) when the system property
 * {@value #PROPERTY} is {@code off}; when the graph is below {@link #MIN_NODES} nodes and the
 * property is {@code auto} (the default; {@code on} waives the size rule); when the rows would not
 * fit one Java array; when JCuda, its natives, the CUDA driver or a device are missing, or the
 * driver rejects the PTX; and when the device lacks the free memory. The device probe runs once per
 * process and only for a graph that passed the cheaper rules, so small histories never load
 * native code.
 */
public final class CudaReachabilityEngine implements ReachabilityEngine {

    /** The engine's name in logs, benchmarks and the selection. */
    public static final String NAME = "cuda";

    /** The system property choosing the GPU: {@code auto} (default), {@code on} or {@code off}. */
    public static final String PROPERTY = "isocheck.gpu";

    /**
     * Below this many nodes {@code auto} leaves the closure to the CPU. Measured on an H100 and its
     * 16-core host ({@code GpuReachabilityBenchmark}), copies included, against the CPU engine's
     * bit rows: on deep, session-shaped graphs the GPU took 2.6 times the CPU's time at 4,096 nodes,
     * 1.9 times at 10k, 1.1 times at 50k and 0.7 times at 100k (a launch per level, thousands of
     * levels); on wide graphs (about 60 levels) 0.4 to 0.45 times from 10k to 100k. 65,536 is where
     * both shapes are past break-even or close to it, so that {@code auto} never makes a check
     * slower on either. Graphs whose chain clocks are smaller than bit rows never reach this engine
     * under {@code auto} (the selection in {@code extension} keeps them on the CPU).
     */
    public static final int MIN_NODES = 65_536;

    private static final long MAX_ARRAY_WORDS = Integer.MAX_VALUE - 8;

    private final Supplier<Probe> prober;
    private final UnaryOperator<String> properties;
    private Probe probe;

    /** The engine over the real CUDA driver, reading {@value #PROPERTY} from the system properties. */
    public CudaReachabilityEngine() {
        this(CudaDriver::probe, System::getProperty);
    }

    /** For tests: another device (an emulator) and another source of properties. */
    CudaReachabilityEngine(Supplier<Probe> prober, UnaryOperator<String> properties) {
        this.prober = prober;
        this.properties = properties;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Optional<String> unavailableReason(int nodes, long edges) {
        String mode = properties.apply(PROPERTY);
        mode = mode == null || mode.isBlank() ? "auto" : mode.strip().toLowerCase(Locale.ROOT);
        switch (mode) {
            case "off":
                return Optional.of(PROPERTY + "=off");
            case "auto":
                if (nodes < MIN_NODES) {
                    return Optional.of(nodes + " nodes is below the GPU threshold of " + MIN_NODES
                            + " (" + PROPERTY + "=on forces the GPU)");
                }
                break;
            case "on":
                break;
            default:
                return Optional.of(PROPERTY + "=" + mode + " is not auto, on or off");
        }
        if (nodes < 0 || edges < 0) {
            return Optional.of("bad sizes: " + nodes + " nodes, " + edges + " edges");
        }
        long words = (long) nodes * BitRowReachability.wordsPerRow(nodes);
        if (words > MAX_ARRAY_WORDS) {
            return Optional.of(nodes + " nodes need " + words + " words of bit rows, more than one Java array holds");
        }
        if (edges > Integer.MAX_VALUE) {
            return Optional.of(edges + " edges are more than the device's int offsets address");
        }
        Probe found = probe();
        if (found.accelerator() == null) {
            return Optional.of("no usable CUDA device: " + found.reason());
        }
        long needed = PackedDag.deviceBytes(nodes, edges);
        long free;
        try {
            free = found.accelerator().freeMemoryBytes();
        } catch (RuntimeException e) {
            return Optional.of("device memory unknown: " + Probe.describe(e));
        }
        if (needed > free) {
            return Optional.of(nodes + " nodes need " + mib(needed) + " MiB of device memory, "
                    + mib(free) + " MiB free on " + found.accelerator().description());
        }
        return Optional.empty();
    }

    /**
     * The closure of {@code dag} computed on the device and copied back.
     *
     * @throws IllegalStateException when there is no usable device, or on any CUDA error (its name in
     *     the message); the caller falls back to the CPU
     */
    @Override
    public BitRowReachability closureOf(Dag dag) {
        Accelerator accelerator = accelerator();
        if (dag.nodeCount() == 0) {
            return new BitRowReachability(dag, new long[0]);
        }
        try (DeviceClosure closure = DeviceClosure.compute(accelerator, dag)) {
            return closure.snapshot();
        }
    }

    /**
     * The closure of {@code dag} left on the device, for adding edges to it (see
     * {@link DeviceClosure}). The caller closes it.
     *
     * @throws IllegalStateException when there is no usable device, or on any CUDA error
     */
    public DeviceClosure openClosure(Dag dag) {
        Accelerator accelerator = accelerator();
        if (dag.nodeCount() == 0) {
            throw new IllegalArgumentException("an empty graph has no rows to keep on a device");
        }
        return DeviceClosure.compute(accelerator, dag);
    }

    /** The device used, or why there is none; probes the device (once) when not done yet. */
    public String deviceDescription() {
        Probe found = probe();
        return found.accelerator() != null ? found.accelerator().description() : "none: " + found.reason();
    }

    private Accelerator accelerator() {
        Probe found = probe();
        if (found.accelerator() == null) {
            throw new IllegalStateException("no usable CUDA device: " + found.reason());
        }
        return found.accelerator();
    }

    private synchronized Probe probe() {
        if (probe == null) {
            try {
                probe = prober.get();
            } catch (Throwable t) {
                // The real prober never throws; a substitute that does must not break selection.
                probe = Probe.missing(Probe.describe(t));
            }
            if (probe == null) {
                probe = Probe.missing("the device probe answered nothing");
            }
        }
        return probe;
    }

    private static long mib(long bytes) {
        return (bytes + (1 << 20) - 1) >> 20;
    }
}
