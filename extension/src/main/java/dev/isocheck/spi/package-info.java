/**
 * The service-provider interface for reachability: how an engine that computes transitive closures
 * plugs into the pruning stage.
 *
 * <p>For implementers, not for users of the checker. A
 * {@link dev.isocheck.spi.ReachabilityEngine} takes a {@link dev.isocheck.spi.Dag} and answers its
 * {@link dev.isocheck.spi.Reachability}, exactly; {@link dev.isocheck.spi.BitRowReachability} is the
 * bit-row layout every bit-row engine produces, so that results compare bit for bit, and
 * {@link dev.isocheck.spi.JavaArrays} bounds what one array holds. Engines are found through
 * {@link java.util.ServiceLoader}; module {@code gpu-kernels} registers the CUDA one, and the CPU
 * engine built into isocheck is the fallback of all of them.
 */
package dev.isocheck.spi;
