package dev.isocheck.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.isocheck.spi.ReachabilityEngine;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/**
 * The real driver and the shipped artefacts, on any machine: with or without JCuda's natives, a
 * driver or a device, the engine answers a reason and never throws; the PTX is in the jar, declares
 * what the host launches, and was built from the current kernels.
 */
class CudaDriverTest {

    @Test
    void theRealEngineAnswersWithoutThrowingWhateverTheMachine() {
        CudaReachabilityEngine engine = new CudaReachabilityEngine();
        assertThatCode(() -> engine.unavailableReason(100_000, 300_000)).doesNotThrowAnyException();
        Optional<String> reason = engine.unavailableReason(100_000, 300_000);
        System.out.println("CUDA engine on this machine: " + reason.map(r -> "unavailable, " + r).orElse("available, " + engine.deviceDescription()));
        // Asked again: the probe is cached, the answer the same.
        assertThat(engine.unavailableReason(100_000, 300_000)).isEqualTo(reason);
    }

    @Test
    void withoutAUsableDeviceTheRealEngineThrowsIllegalStateExceptionForTheFallback() {
        CudaReachabilityEngine engine = new CudaReachabilityEngine();
        Optional<String> reason = engine.unavailableReason(100_000, 300_000);
        assumeTrue(reason.isPresent(), "this machine has a usable CUDA device");
        assertThat(reason.get()).startsWith("no usable CUDA device: ");
        assertThatThrownBy(() -> engine.closureOf(RandomDags.uniform(1, 10, 1, 3)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(reason.get().substring("no usable CUDA device: ".length()));
    }

    @Test
    void serviceLoaderFindsTheEngine() {
        assertThat(StreamSupport.stream(ServiceLoader.load(ReachabilityEngine.class).spliterator(), false)
                .map(ReachabilityEngine::name))
                .contains(CudaReachabilityEngine.NAME);
    }

    @Test
    void thePtxResourceDeclaresTheKernelsTheHostLaunches() throws IOException {
        String ptx = resource();
        assertThat(ptx).containsPattern("(?m)^\\.version 7\\.0$").containsPattern("(?m)^\\.target sm_75$");
        // closure_level(rows, words, successorStart, successors, levelPositions, levelBegin, firstWord)
        assertThat(parameters(ptx, "closure_level")).isEqualTo("u64 u32 u64 u64 u64 u32 u32");
        // insert_edge(rows, words, u, v)
        assertThat(parameters(ptx, "insert_edge")).isEqualTo("u64 u32 u32 u32");
        assertThat(CudaDriver.ptx()).endsWith((byte) 0);
    }

    @Test
    void theShippedPtxWasBuiltFromTheCurrentKernels() throws IOException, NoSuchAlgorithmException {
        // Tests run in the module's folder. The shipped copy, not the classpath one: with nvcc the
        // build compiles a fresh PTX, and a stale shipped one would only reach users without nvcc.
        String shipped = Files.readString(Path.of("src/main/resources/dev/isocheck/gpu/reachability.ptx"), StandardCharsets.UTF_8);
        String source = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(Path.of("src/main/cuda/reachability.cu"))));
        assertThat(shipped.lines().findFirst().orElse(""))
                .as("src/main/cuda/reachability.cu changed since the shipped PTX was built: build with nvcc and copy"
                        + " target/classes/dev/isocheck/gpu/reachability.ptx to src/main/resources/dev/isocheck/gpu/")
                .contains("sha256 " + source);
    }

    private static String resource() throws IOException {
        try (InputStream in = CudaDriver.class.getResourceAsStream(CudaDriver.PTX_RESOURCE)) {
            assertThat(in).as("PTX resource " + CudaDriver.PTX_RESOURCE).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
    }

    /** The parameter types of {@code .entry name(...)}, space-separated. */
    private static String parameters(String ptx, String name) {
        Matcher entry = Pattern.compile("\\.entry " + name + "\\(([^)]*)\\)").matcher(ptx);
        assertThat(entry.find()).as(".entry " + name).isTrue();
        Matcher param = Pattern.compile("\\.param \\.(\\w+) ").matcher(entry.group(1));
        StringBuilder types = new StringBuilder();
        while (param.find()) {
            types.append(types.length() == 0 ? "" : " ").append(param.group(1));
        }
        return types.toString();
    }
}
