/**
 * Pruning and reachability: the stage between the hyper-polygraph and the solver.
 *
 * <p>Input: the known graph and the hyper-polygraph's constraints. Output: the constraints that
 * reachability could not decide, over a known graph grown by every decision that was certain.
 * Reachability is computed behind {@link dev.isocheck.spi.ReachabilityEngine}, exactly, on the
 * CPU or (module {@code gpu-kernels}) on a GPU.
 */
package dev.isocheck.internal.prune;
