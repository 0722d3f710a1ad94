package dev.isocheck.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Computes the {@link Reachability} of a {@link Dag}: the pruning stage's only view of how
 * reachability is computed, so that a GPU implementation (module {@code gpu-kernels}, found through
 * {@link java.util.ServiceLoader}) plugs in without touching the pruner.
 *
 * <p>Implementations must be exact, and must answer {@link #unavailableReason} honestly: isocheck's
 * engine selection falls back to the CPU when it is present.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface ReachabilityEngine {

    /** A short name for logs and benchmarks, such as {@code cpu-chains} or {@code cuda}. */
    String name();

    /**
     * Why this engine cannot (or should not) compute the closure of a graph of {@code nodes} nodes and
     * {@code edges} edges here and now (no device, no driver, too small to pay off, too large for
     * memory), or empty when it can.
     */
    Optional<String> unavailableReason(int nodes, long edges);

    /**
     * The closure of {@code dag}.
     *
     * @throws IllegalStateException when the engine fails after all (the caller falls back)
     */
    Reachability closureOf(Dag dag);
}
