/**
 * CUDA reachability for the pruning stage: the {@link dev.isocheck.spi.ReachabilityEngine}
 * {@link dev.isocheck.gpu.CudaReachabilityEngine}, its kernels ({@code src/main/cuda/reachability.cu},
 * shipped as PTX) and the host-side pieces that prepare their input without a device
 * ({@link dev.isocheck.gpu.Levels}, {@link dev.isocheck.gpu.PackedDag},
 * {@link dev.isocheck.gpu.LaunchGeometry}).
 */
package dev.isocheck.gpu;
