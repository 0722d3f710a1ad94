package dev.isocheck.internal.prune;

import dev.isocheck.GpuMode;
import dev.isocheck.spi.BitRowReachability;
import dev.isocheck.spi.Dag;
import dev.isocheck.spi.Reachability;
import dev.isocheck.spi.ReachabilityEngine;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Which {@link ReachabilityEngine} computes a closure: an engine discovered with
 * {@link ServiceLoader} (the CUDA one of module {@code gpu-kernels}, when its jar is on the class
 * path) or the built-in CPU engine, which needs no service file because it is the fallback of all
 * the others.
 *
 * <p>The {@link GpuMode} each call is given decides (it comes from the caller's
 * {@link dev.isocheck.CheckOptions}; nothing here reads a system property):
 * <ul>
 *   <li>{@link GpuMode#AUTO} (the default): the CPU where its chain clocks are smaller than bit
 *       rows (nearly every history: its sessions are chains); otherwise the first discovered engine
 *       that reports no {@linkplain ReachabilityEngine#unavailableReason unavailable reason}, else
 *       the CPU;</li>
 *   <li>{@link GpuMode#ON}: the first available discovered engine whatever the graph, and the CPU
 *       standing in is logged even when no engine was found at all, since the user asked for one;</li>
 *   <li>{@link GpuMode#OFF}: the CPU only; discovered engines are not even loaded.</li>
 * </ul>
 * A chosen engine whose {@code closureOf} throws {@link IllegalStateException} is replaced by the CPU
 * for that graph. Why the CPU stood in is logged at {@code INFO} through {@link System.Logger}, once
 * per JVM: the pruner asks every round, and the reason rarely changes between rounds.
 *
 * <p>The CPU engine decomposes the graph into chains and stores chain clocks
 * ({@link ChainReachability}) when they are smaller than bit rows ({@link BitRowReachability}) or
 * when bit rows would not fit in one array; session-structured histories nearly always get chains.
 */
public final class ReachabilityEngines {

    private static final CpuReachabilityEngine CPU = new CpuReachabilityEngine();

    private static final OnceLog FALLBACK_LOG = OnceLog.named(ReachabilityEngines.class.getName());

    private ReachabilityEngines() {
    }

    /**
     * The closure of {@code dag}, from the engine {@link #select} picks in {@code mode}, or from the
     * CPU when that engine fails with {@link IllegalStateException}.
     *
     * @return never {@code null}
     * @throws IllegalStateException when even the CPU cannot hold the closure (see {@link #cpu()})
     */
    public static Reachability closureOf(Dag dag, GpuMode mode) {
        return closureOf(dag, discoveredUnlessOff(mode), mode, FALLBACK_LOG);
    }

    /**
     * The engine that would compute the closure of a graph of {@code nodes} nodes and {@code edges}
     * edges in {@code mode} (before any failure of that engine) if its chain clocks were not smaller
     * than its bit rows (those stay on the CPU under {@code auto}), for logs and benchmarks; logs
     * why the CPU stands in, once per JVM.
     *
     * @return never {@code null}
     */
    public static ReachabilityEngine select(int nodes, long edges, GpuMode mode) {
        Selection selection = select(nodes, edges, discoveredUnlessOff(mode), mode);
        selection.fallbackReason().ifPresent(FALLBACK_LOG::log);
        return selection.engine();
    }

    /**
     * The built-in CPU engine, named {@code cpu}: chain clocks or bit rows, whichever is smaller. Its
     * {@code closureOf} throws {@link IllegalStateException} only when
     * neither layout fits in one Java array.
     */
    public static ReachabilityEngine cpu() {
        return CPU;
    }

    /** {@link #closureOf(Dag, GpuMode)} over the given engines, logging to {@code log}. */
    static Reachability closureOf(Dag dag, List<? extends ReachabilityEngine> discovered, GpuMode mode, OnceLog log) {
        // Only "auto" needs the chains to choose; under "on" and "off" they are made only when the
        // CPU computes the closure, not for a GPU that does not use them.
        ChainDecomposition chains = mode == GpuMode.AUTO ? ChainDecomposition.of(dag) : null;
        // Measured on an H100 (docs/benchmarks.md#gpu-reachability): where chain clocks are smaller
        // than bit rows, the CPU's clocks beat the GPU's rows at every size, 100k nodes included
        // (checks twice as fast, a quarter of the heap). Only "on" sends such graphs to the GPU.
        if (chains != null && CpuReachabilityEngine.clocksSmallerThanRows(dag.nodeCount(), chains.count())) {
            return cpuClosureOf(dag, chains);
        }
        Selection selection = select(dag.nodeCount(), dag.edgeCount(), discovered, mode);
        selection.fallbackReason().ifPresent(log::log);
        ReachabilityEngine engine = selection.engine();
        if (engine == CPU) {
            return cpuClosureOf(dag, chains);
        }
        try {
            return engine.closureOf(dag);
        } catch (IllegalStateException failure) {
            log.log("reachability engine " + engine.name() + " failed on " + dag.nodeCount() + " nodes and "
                    + dag.edgeCount() + " edges (" + failure.getMessage() + "); computing reachability on the CPU");
            return cpuClosureOf(dag, chains);
        }
    }

    /** The CPU's closure of {@code dag}, over {@code chains} when they were made already ({@code null} when not). */
    private static Reachability cpuClosureOf(Dag dag, ChainDecomposition chains) {
        return chains == null ? CPU.closureOf(dag) : CPU.closureOf(dag, chains);
    }

    /** {@link #select(int, long, GpuMode)} over the given engines, without logging. */
    static Selection select(int nodes, long edges, List<? extends ReachabilityEngine> discovered, GpuMode mode) {
        Objects.requireNonNull(mode, "mode is null");
        if (mode == GpuMode.OFF) {
            return new Selection(CPU, Optional.empty());
        }
        List<String> reasons = new ArrayList<>();
        for (ReachabilityEngine engine : discovered) {
            Optional<String> reason = engine.unavailableReason(nodes, edges);
            if (reason.isEmpty()) {
                return new Selection(engine, Optional.empty());
            }
            reasons.add(engine.name() + " is unavailable for " + nodes + " nodes and " + edges + " edges ("
                    + reason.get() + ")");
        }
        if (!reasons.isEmpty()) {
            return new Selection(CPU, Optional.of("reachability engine " + String.join("; ", reasons)
                    + "; computing reachability on the CPU"));
        }
        if (mode == GpuMode.ON) {
            // Named as users set it (the command line's system property, which the cuda engine
            // reads too), whichever way the mode was given.
            return new Selection(CPU, Optional.of("isocheck.gpu=on but no reachability engine was found on the"
                    + " class path (module gpu-kernels registers one); computing reachability on the CPU"));
        }
        return new Selection(CPU, Optional.empty());
    }

    private static List<ReachabilityEngine> discoveredUnlessOff(GpuMode mode) {
        return Objects.requireNonNull(mode, "mode is null") == GpuMode.OFF ? List.of() : Discovered.ENGINES;
    }

    /** The engine chosen, and why the CPU stands in for a discovered or requested engine, if it does. */
    record Selection(ReachabilityEngine engine, Optional<String> fallbackReason) {
    }

    /** Loaded on first use only, so that {@code off} never touches the GPU engine's classes. */
    private static final class Discovered {

        static final List<ReachabilityEngine> ENGINES = load();

        private static List<ReachabilityEngine> load() {
            List<ReachabilityEngine> engines = new ArrayList<>();
            Iterator<ReachabilityEngine> providers = ServiceLoader.load(ReachabilityEngine.class).iterator();
            try {
                while (providers.hasNext()) {
                    engines.add(providers.next());
                }
            } catch (ServiceConfigurationError | LinkageError broken) {
                // A broken optional engine (say, its native libraries missing) must not stop the check;
                // the loader's recovery after an error is not guaranteed, so stop at the first.
                FALLBACK_LOG.log("a reachability engine could not be loaded (" + broken + "); engines loaded before it: "
                        + engines.size());
            }
            return List.copyOf(engines);
        }
    }
}
