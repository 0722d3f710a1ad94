package dev.isocheck.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * The transitive closure of a {@link Dag}, as computed by a {@link ReachabilityEngine}: whether a
 * path leads from one node to another. Exact: no engine may answer from an approximation.
 *
 * <p>{@code reaches(u, u)} is {@code true} (the empty path). Thread-safe for concurrent queries
 * once built.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface Reachability {

    /** Whether a path (possibly empty) leads from {@code from} to {@code to}. */
    boolean reaches(int from, int to);

    /** How many nodes the closure is over. */
    int nodeCount();

    /** About how many bytes of memory the closure holds, for benchmarks and engine selection. */
    long memoryBytes();
}
