package dev.isocheck.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.isocheck.spi.BitRowReachability;
import dev.isocheck.spi.Dag;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Selection and fallback, with the device replaced: by {@link KernelEmulator}, by a probe that finds
 * nothing, or by one that throws. The real driver is {@link CudaDriverTest}'s.
 */
class CudaReachabilityEngineTest {

    private final KernelEmulator emulator = new KernelEmulator();
    private final AtomicInteger probes = new AtomicInteger();

    private CudaReachabilityEngine engine(String mode, Supplier<Probe> probe) {
        Map<String, String> properties = mode == null ? Map.of() : Map.of(CudaReachabilityEngine.PROPERTY, mode);
        return new CudaReachabilityEngine(() -> {
            probes.incrementAndGet();
            return probe.get();
        }, properties::get);
    }

    private CudaReachabilityEngine emulated(String mode) {
        return engine(mode, () -> Probe.ready(emulator));
    }

    @Test
    void isNamedCuda() {
        assertThat(new CudaReachabilityEngine().name()).isEqualTo("cuda");
    }

    @Test
    void autoTakesLargeGraphsWhenADeviceIsThere() {
        assertThat(emulated(null).unavailableReason(CudaReachabilityEngine.MIN_NODES, 10_000)).isEmpty();
        assertThat(emulated("auto").unavailableReason(100_000, 300_000)).isEmpty();
        assertThat(emulated(" AUTO ").unavailableReason(100_000, 300_000)).isEmpty();
    }

    @Test
    void autoLeavesSmallGraphsToTheCpuWithoutProbing() {
        assertThat(emulated("auto").unavailableReason(CudaReachabilityEngine.MIN_NODES - 1, 10))
                .hasValueSatisfying(reason -> assertThat(reason).contains("below the GPU threshold of 65536").contains("isocheck.gpu=on"));
        assertThat(probes).hasValue(0);
    }

    @Test
    void onWaivesTheSizeRule() {
        assertThat(emulated("on").unavailableReason(10, 9)).isEmpty();
    }

    @Test
    void offDeclinesEverythingWithoutProbing() {
        assertThat(emulated("off").unavailableReason(100_000, 300_000)).hasValue("isocheck.gpu=off");
        assertThat(probes).hasValue(0);
    }

    @Test
    void anUnknownModeIsAReason() {
        assertThat(emulated("always").unavailableReason(100_000, 1)).hasValue("isocheck.gpu=always is not auto, on or off");
    }

    @Test
    void rowsLargerThanOneJavaArrayAreAReasonWithoutProbing() {
        assertThat(emulated("on").unavailableReason(400_000, 1)).hasValueSatisfying(reason -> assertThat(reason).contains("more than one Java array"));
        assertThat(probes).hasValue(0);
    }

    @Test
    void tooLittleDeviceMemoryIsAReason() {
        emulator.freeBytes = 1L << 30;
        // 100k nodes: 1.25 GB of rows.
        assertThat(emulated("auto").unavailableReason(100_000, 300_000))
                .hasValueSatisfying(reason -> assertThat(reason).contains("1195 MiB of device memory").contains("1024 MiB free"));
        assertThat(emulated("on").unavailableReason(50_000, 300_000)).isEmpty();
    }

    @Test
    void aFailingMemoryQueryIsAReason() {
        emulator.failMemoryQuery = new IllegalStateException("cuMemGetInfo: CUDA_ERROR_UNKNOWN");
        assertThat(emulated("on").unavailableReason(10, 9)).hasValueSatisfying(reason -> assertThat(reason).contains("CUDA_ERROR_UNKNOWN"));
    }

    @Test
    void noDeviceIsAReasonAndTheProbeRunsOnce() {
        CudaReachabilityEngine engine = engine("auto", () -> Probe.missing("cuInit: CUDA_ERROR_NO_DEVICE"));
        for (int i = 0; i < 3; i++) {
            assertThat(engine.unavailableReason(100_000, 1)).hasValue("no usable CUDA device: cuInit: CUDA_ERROR_NO_DEVICE");
        }
        assertThat(probes).hasValue(1);
        assertThat(engine.deviceDescription()).isEqualTo("none: cuInit: CUDA_ERROR_NO_DEVICE");
    }

    @Test
    void aProbeThatThrowsIsAReasonNotAnException() {
        CudaReachabilityEngine engine = engine("auto", () -> {
            throw new UnsatisfiedLinkError("libcuda.so.1: cannot open shared object file\nand more lines");
        });
        assertThat(engine.unavailableReason(100_000, 1)).hasValue("no usable CUDA device: UnsatisfiedLinkError: libcuda.so.1: cannot open shared object file");
        CudaReachabilityEngine nothing = engine("auto", () -> null);
        assertThat(nothing.unavailableReason(100_000, 1)).isPresent();
    }

    @Test
    void jcudasLoaderMessageIsReducedToWhatIsMissing() {
        String message = "Error while loading native library \"JCudaDriver-12.6.0-linux-x86_64\"\n"
                + "Operating system name: Linux\n"
                + "java.lang.UnsatisfiedLinkError: no JCudaDriver-12.6.0-linux-x86_64 in java.library.path: /usr/lib\n"
                + "\tat java.base/java.lang.ClassLoader.loadLibrary(ClassLoader.java:2434)\n"
                + "java.lang.UnsatisfiedLinkError: /tmp/libJCudaDriver-12.6.0-linux-x86_64.so: libcuda.so.1: cannot open shared object file\n"
                + "\tat java.base/jdk.internal.loader.NativeLibraries.load(Native Method)\n";
        assertThat(Probe.describe(new UnsatisfiedLinkError(message))).isEqualTo(
                "UnsatisfiedLinkError: Error while loading native library \"JCudaDriver-12.6.0-linux-x86_64\""
                        + " (/tmp/libJCudaDriver-12.6.0-linux-x86_64.so: libcuda.so.1: cannot open shared object file)");
        assertThat(Probe.describe(new NoClassDefFoundError("jcuda/driver/JCudaDriver"))).isEqualTo("NoClassDefFoundError: jcuda/driver/JCudaDriver");
        assertThat(Probe.describe(new IllegalStateException())).isEqualTo("java.lang.IllegalStateException");
    }

    @Test
    void withoutADeviceClosureOfThrowsIllegalStateExceptionForTheFallback() {
        Dag dag = RandomDags.uniform(1, 100, 2, 10);
        assertThatThrownBy(() -> engine("on", () -> Probe.missing("no CUDA device")).closureOf(dag))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no CUDA device");
        assertThatThrownBy(() -> engine("on", () -> Probe.missing("no CUDA device")).openClosure(dag))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aCudaErrorDuringTheClosureIsAnIllegalStateExceptionNamingItAndFreesTheDevice() {
        emulator.failAtSynchronize = new IllegalStateException("cuCtxSynchronize: CUDA_ERROR_ILLEGAL_ADDRESS");
        Dag dag = RandomDags.uniform(2, 300, 2, 10);
        assertThatThrownBy(() -> emulated("on").closureOf(dag))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("CUDA_ERROR_ILLEGAL_ADDRESS");
        assertThat(emulator.openSessions).isZero();
    }

    @Test
    void closureOfMatchesTheCpuAndFreesTheDevice() {
        Dag dag = RandomDags.sessionStructured(3, 1000, 12, 2, 40);
        BitRowReachability rows = emulated("on").closureOf(dag);
        assertThat(rows.rows()).isEqualTo(BitRowReachability.compute(dag).rows());
        assertThat(rows.nodeCount()).isEqualTo(1000);
        assertThat(emulator.openSessions).isZero();
    }

    @Test
    void anEmptyGraphNeedsNoLaunch() {
        Dag empty = Dag.of(0, new int[0], new int[0], 0);
        assertThat(emulated("on").closureOf(empty).nodeCount()).isZero();
        assertThat(emulator.levelLaunches).isZero();
        assertThatThrownBy(() -> emulated("on").openClosure(empty)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aClosedDeviceClosureRefusesFurtherUse() {
        DeviceClosure closure = emulated("on").openClosure(RandomDags.uniform(4, 50, 1, 5));
        closure.close();
        closure.close();
        assertThat(emulator.openSessions).isZero();
        assertThatThrownBy(closure::snapshot).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> closure.addEdge(0, 1)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void selfLoopsAndUnknownNodesAreRefused() {
        try (DeviceClosure closure = emulated("on").openClosure(RandomDags.uniform(4, 50, 1, 5))) {
            assertThatThrownBy(() -> closure.addEdge(3, 3)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> closure.addEdge(3, 50)).isInstanceOf(IndexOutOfBoundsException.class);
        }
    }
}
