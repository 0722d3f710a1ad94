package dev.isocheck.gpu;

import static jcuda.driver.JCudaDriver.cuCtxSetCurrent;
import static jcuda.driver.JCudaDriver.cuCtxSynchronize;
import static jcuda.driver.JCudaDriver.cuDeviceGet;
import static jcuda.driver.JCudaDriver.cuDeviceGetAttribute;
import static jcuda.driver.JCudaDriver.cuDeviceGetCount;
import static jcuda.driver.JCudaDriver.cuDeviceGetName;
import static jcuda.driver.JCudaDriver.cuDevicePrimaryCtxRetain;
import static jcuda.driver.JCudaDriver.cuDriverGetVersion;
import static jcuda.driver.JCudaDriver.cuInit;
import static jcuda.driver.JCudaDriver.cuLaunchKernel;
import static jcuda.driver.JCudaDriver.cuMemAlloc;
import static jcuda.driver.JCudaDriver.cuMemFree;
import static jcuda.driver.JCudaDriver.cuMemGetInfo;
import static jcuda.driver.JCudaDriver.cuMemcpyDtoH;
import static jcuda.driver.JCudaDriver.cuMemcpyHtoD;
import static jcuda.driver.JCudaDriver.cuMemsetD32;
import static jcuda.driver.JCudaDriver.cuModuleGetFunction;
import static jcuda.driver.JCudaDriver.cuModuleLoadData;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import jcuda.Pointer;
import jcuda.driver.CUcontext;
import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.CUdeviceptr;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;
import jcuda.driver.CUresult;

/**
 * The {@link Accelerator} of device 0 through JCuda's driver API, running the kernels from the PTX
 * resource {@value #PTX_RESOURCE}. The only class that names a JCuda type: the JVM resolves those on
 * first use, so where JCuda or its natives are missing, the failure happens inside {@link #probe()}'s
 * catch and not while loading the engine.
 *
 * <p>Uses the device's primary context, made current on whichever thread calls (the pruner's
 * threads are not ours), and JCuda's return codes rather than its exceptions, whose switch is
 * global to the process. Methods are synchronized: one context, one default stream, and a
 * {@link Session}'s calls must not interleave with another thread's {@code cuCtxSetCurrent}.
 */
final class CudaDriver implements Accelerator {

    /** Where the build puts the PTX of {@code src/main/cuda/reachability.cu}. */
    static final String PTX_RESOURCE = "/dev/isocheck/gpu/reachability.ptx";

    private static final System.Logger LOG = System.getLogger(CudaDriver.class.getName());
    private static final Object PROBE_LOCK = new Object();
    private static Probe shared;

    private final CUcontext context;
    private final CUfunction closureLevel;
    private final CUfunction insertEdge;
    private final String description;

    private CudaDriver(CUcontext context, CUfunction closureLevel, CUfunction insertEdge, String description) {
        this.context = context;
        this.closureLevel = closureLevel;
        this.insertEdge = insertEdge;
        this.description = description;
    }

    /**
     * The process's one probe of CUDA: loads JCuda and its natives, initialises the driver, takes
     * device 0's primary context and loads the PTX. Never throws: whatever goes wrong (no natives for
     * this platform, no {@code libcuda}, no device, a driver too old for the PTX) becomes the reason.
     */
    static Probe probe() {
        synchronized (PROBE_LOCK) {
            if (shared == null) {
                shared = load();
            }
            return shared;
        }
    }

    private static Probe load() {
        try {
            Probe probe = Probe.ready(open());
            LOG.log(System.Logger.Level.DEBUG, "CUDA reachability: " + probe.accelerator().description());
            return probe;
        } catch (Throwable t) {
            // Every Throwable: UnsatisfiedLinkError and NoClassDefFoundError are Errors, and a
            // reachability engine that cannot start must leave the checker running on the CPU.
            String reason = Probe.describe(t);
            LOG.log(System.Logger.Level.DEBUG, "CUDA reachability unavailable: " + reason, t);
            return Probe.missing(reason);
        }
    }

    private static CudaDriver open() {
        check(cuInit(0), "cuInit");
        int[] count = new int[1];
        check(cuDeviceGetCount(count), "cuDeviceGetCount");
        if (count[0] == 0) {
            throw new IllegalStateException("no CUDA device");
        }
        CUdevice device = new CUdevice();
        check(cuDeviceGet(device, 0), "cuDeviceGet");
        CUcontext context = new CUcontext();
        check(cuDevicePrimaryCtxRetain(context, device), "cuDevicePrimaryCtxRetain");
        check(cuCtxSetCurrent(context), "cuCtxSetCurrent");
        CUmodule module = new CUmodule();
        check(cuModuleLoadData(module, ptx()), "cuModuleLoadData");
        CUfunction closureLevel = new CUfunction();
        check(cuModuleGetFunction(closureLevel, module, "closure_level"), "cuModuleGetFunction(closure_level)");
        CUfunction insertEdge = new CUfunction();
        check(cuModuleGetFunction(insertEdge, module, "insert_edge"), "cuModuleGetFunction(insert_edge)");
        return new CudaDriver(context, closureLevel, insertEdge, describe(device));
    }

    /** The PTX resource, NUL-terminated as {@code cuModuleLoadData} requires of text images. */
    static byte[] ptx() {
        try (InputStream in = CudaDriver.class.getResourceAsStream(PTX_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("PTX resource " + PTX_RESOURCE + " is missing from the classpath");
            }
            byte[] text = in.readAllBytes();
            return Arrays.copyOf(text, text.length + 1);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + PTX_RESOURCE, e);
        }
    }

    private static String describe(CUdevice device) {
        byte[] name = new byte[256];
        check(cuDeviceGetName(name, name.length, device), "cuDeviceGetName");
        int length = 0;
        while (length < name.length && name[length] != 0) {
            length++;
        }
        int[] major = new int[1];
        int[] minor = new int[1];
        check(cuDeviceGetAttribute(major, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device), "cuDeviceGetAttribute");
        check(cuDeviceGetAttribute(minor, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device), "cuDeviceGetAttribute");
        int[] driver = new int[1];
        check(cuDriverGetVersion(driver), "cuDriverGetVersion");
        return new String(name, 0, length, StandardCharsets.US_ASCII) + ", compute " + major[0] + "." + minor[0]
                + ", driver CUDA " + driver[0] / 1000 + "." + driver[0] % 1000 / 10;
    }

    /** Throws {@link IllegalStateException} naming the CUDA error when {@code result} is not success. */
    static void check(int result, String what) {
        if (result != CUresult.CUDA_SUCCESS) {
            throw new IllegalStateException(what + ": " + CUresult.stringFor(result));
        }
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public synchronized long freeMemoryBytes() {
        check(cuCtxSetCurrent(context), "cuCtxSetCurrent");
        long[] free = new long[1];
        long[] total = new long[1];
        check(cuMemGetInfo(free, total), "cuMemGetInfo");
        return free[0];
    }

    @Override
    public synchronized Session upload(PackedDag packed) {
        check(cuCtxSetCurrent(context), "cuCtxSetCurrent");
        DeviceSession session = new DeviceSession(packed.nodeCount(), packed.words());
        try {
            session.rows = alloc(packed.rowBytes());
            // Words below each row's own are never written by the kernels and must read as zero.
            check(cuMemsetD32(session.rows, 0, packed.rowBytes() / Integer.BYTES), "cuMemsetD32");
            session.successorStart = upload(packed.successorStartArray());
            session.successors = upload(packed.successorArray());
            session.levelPositions = upload(packed.levels().positionArray());
            return session;
        } catch (RuntimeException e) {
            session.close();
            throw e;
        }
    }

    private static CUdeviceptr alloc(long bytes) {
        CUdeviceptr pointer = new CUdeviceptr();
        // cuMemAlloc refuses 0 bytes; an edgeless graph still needs a valid pointer to pass.
        check(cuMemAlloc(pointer, Math.max(bytes, Integer.BYTES)), "cuMemAlloc(" + bytes + " bytes)");
        return pointer;
    }

    private static CUdeviceptr upload(int[] values) {
        CUdeviceptr pointer = alloc((long) values.length * Integer.BYTES);
        if (values.length > 0) {
            check(cuMemcpyHtoD(pointer, Pointer.to(values), (long) values.length * Integer.BYTES), "cuMemcpyHtoD");
        }
        return pointer;
    }

    /** Device memory of one closure; every call re-enters the driver's lock and context. */
    private final class DeviceSession implements Session {

        private final int nodes;
        private final int words;
        private CUdeviceptr rows;
        private CUdeviceptr successorStart;
        private CUdeviceptr successors;
        private CUdeviceptr levelPositions;
        // Kernel arguments built once and updated in place: a closure launches once per level,
        // thousands of times on deep graphs, and JCuda reads the arrays at each launch.
        private final int[] levelBegin = new int[1];
        private final int[] firstWord = new int[1];
        private final int[] u = new int[1];
        private final int[] v = new int[1];
        private Pointer closureLevelParameters;
        private Pointer insertEdgeParameters;

        DeviceSession(int nodes, int words) {
            this.nodes = nodes;
            this.words = words;
        }

        @Override
        public void closureLevel(LaunchGeometry.Launch launch, int begin) {
            synchronized (CudaDriver.this) {
                check(cuCtxSetCurrent(context), "cuCtxSetCurrent");
                if (closureLevelParameters == null) {
                    // closure_level(rows, words, successorStart, successors, levelPositions, levelBegin, firstWord)
                    closureLevelParameters = Pointer.to(
                            Pointer.to(rows),
                            Pointer.to(new int[] {words}),
                            Pointer.to(successorStart),
                            Pointer.to(successors),
                            Pointer.to(levelPositions),
                            Pointer.to(levelBegin),
                            Pointer.to(firstWord));
                }
                levelBegin[0] = begin;
                firstWord[0] = launch.firstWord();
                check(cuLaunchKernel(closureLevel, launch.gridX(), launch.gridY(), 1, launch.blockX(), 1, 1, 0, null, closureLevelParameters, null),
                        "cuLaunchKernel(closure_level)");
            }
        }

        @Override
        public void insertEdge(LaunchGeometry.Launch launch, int from, int to) {
            synchronized (CudaDriver.this) {
                check(cuCtxSetCurrent(context), "cuCtxSetCurrent");
                if (insertEdgeParameters == null) {
                    // insert_edge(rows, words, u, v)
                    insertEdgeParameters = Pointer.to(
                            Pointer.to(rows),
                            Pointer.to(new int[] {words}),
                            Pointer.to(u),
                            Pointer.to(v));
                }
                u[0] = from;
                v[0] = to;
                check(cuLaunchKernel(insertEdge, launch.gridX(), launch.gridY(), 1, launch.blockX(), 1, 1, 0, null, insertEdgeParameters, null),
                        "cuLaunchKernel(insert_edge)");
            }
        }

        @Override
        public void synchronize() {
            synchronized (CudaDriver.this) {
                check(cuCtxSetCurrent(context), "cuCtxSetCurrent");
                // Kernel faults surface here, not at launch.
                check(cuCtxSynchronize(), "cuCtxSynchronize");
            }
        }

        @Override
        public long[] downloadRows() {
            long size = (long) nodes * words;
            if (size > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException(nodes + " nodes need " + size + " words of rows, more than one Java array holds");
            }
            long[] host = new long[(int) size];
            synchronized (CudaDriver.this) {
                check(cuCtxSetCurrent(context), "cuCtxSetCurrent");
                if (size > 0) {
                    check(cuMemcpyDtoH(Pointer.to(host), rows, size * Long.BYTES), "cuMemcpyDtoH");
                }
            }
            return host;
        }

        @Override
        public void close() {
            synchronized (CudaDriver.this) {
                // Best effort: after a sticky error the context cannot free anything, and the
                // error that matters was reported by the call that failed.
                cuCtxSetCurrent(context);
                rows = free(rows);
                successorStart = free(successorStart);
                successors = free(successors);
                levelPositions = free(levelPositions);
            }
        }

        private CUdeviceptr free(CUdeviceptr pointer) {
            if (pointer != null) {
                cuMemFree(pointer);
            }
            return null;
        }
    }
}
