package dev.isocheck.gpu;

/**
 * The device operations the engine is built from, kept this small so that everything above them
 * (levels, packing, launch order, edge insertion, selection) runs unchanged against a pure-Java
 * emulation in the tests of machines without a GPU. {@link CudaDriver} is the real one.
 *
 * <p>Every method may throw {@link IllegalStateException} naming the CUDA error.
 */
interface Accelerator {

    /** The device, for logs and benchmarks ("NVIDIA H100 80GB HBM3, compute 9.0"). */
    String description();

    /** Free device memory now, in bytes. */
    long freeMemoryBytes();

    /** Device memory for the closure of {@code packed}: rows zeroed, CSR and level order copied. */
    Session upload(PackedDag packed);

    /** The device-resident state of one closure. Launches are asynchronous; errors may surface later. */
    interface Session extends AutoCloseable {

        /** Launches {@code closure_level} for the level whose positions start at {@code levelBegin}. */
        void closureLevel(LaunchGeometry.Launch launch, int levelBegin);

        /** Launches {@code insert_edge} for the edge between positions {@code u} and {@code v}. */
        void insertEdge(LaunchGeometry.Launch launch, int u, int v);

        /** Waits for every launch so far, reporting the first failure. */
        void synchronize();

        /** The rows, after every launch so far, in {@code BitRowReachability}'s layout. */
        long[] downloadRows();

        /** Frees the device memory; idempotent. */
        @Override
        void close();
    }
}
