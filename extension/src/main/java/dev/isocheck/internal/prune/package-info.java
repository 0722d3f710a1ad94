/**
 * Pruning and reachability: the stage between the hyper-polygraph and the solver.
 *
 * <p>Input: the known graph and the hyper-polygraph's constraints. Output: the constraints that
 * reachability could not decide, over a known graph grown by every decision that was certain.
 * Reachability is computed behind {@link dev.isocheck.spi.ReachabilityEngine}, exactly, on the
 * CPU or (module {@code gpu-kernels}) on a GPU.
 *
 * <p><strong>Internal.</strong> This package is not API: it may change at any time without notice,
 * and using it from outside isocheck is not supported.
 */
package dev.isocheck.internal.prune;
