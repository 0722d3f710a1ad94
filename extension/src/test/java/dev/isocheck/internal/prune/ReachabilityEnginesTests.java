package dev.isocheck.internal.prune;

import dev.isocheck.GpuMode;
import dev.isocheck.internal.cli.SystemProperties;
import dev.isocheck.spi.BitRowReachability;
import dev.isocheck.spi.Dag;
import dev.isocheck.spi.Reachability;
import dev.isocheck.spi.ReachabilityEngine;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.isocheck.internal.prune.RandomDags.Graph;
import dev.isocheck.internal.prune.ReachabilityEngines.Selection;
import java.lang.System.Logger;
import java.text.MessageFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.ResourceBundle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class ReachabilityEnginesTests {

    private static final Graph GRAPH = RandomDags.sessions(new Random(1), 10, 2, 1, 3);
    /** 200 nodes in two sessions: chain clocks (1,600 bytes for two chains) smaller than bit rows (6,400 bytes). */
    private static final Graph SESSIONS = RandomDags.sessions(new Random(1), 200, 2, 1, 3);
    /** Ten nodes, no edges: ten chains, whose clocks (400 bytes) are larger than bit rows (80). */
    private static final Graph WIDE = new Graph(10, new int[0], new int[0], "10 nodes, no edges");
    private static final ReachabilityEngine CPU = ReachabilityEngines.cpu();

    @ParameterizedTest
    @ValueSource(strings = {"off", "OFF", " off "})
    void offMeansTheCpuEvenWhenAnEngineIsAvailable(String value) {
        Selection selection = ReachabilityEngines.select(100, 10, List.of(FakeEngine.available()), mode(value));
        assertThat(selection.engine()).isSameAs(CPU);
        assertThat(selection.fallbackReason()).isEmpty();
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"auto", "Auto", "on"})
    void autoAndOnPreferAnAvailableEngine(String value) {
        FakeEngine engine = FakeEngine.available();
        Selection selection = ReachabilityEngines.select(100, 10, List.of(engine), mode(value));
        assertThat(selection.engine()).isSameAs(engine);
        assertThat(selection.fallbackReason()).isEmpty();
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"auto", "on"})
    void anUnavailableEngineLeavesTheCpuWithAReason(String value) {
        Selection selection = ReachabilityEngines.select(100, 10, List.of(FakeEngine.unavailable("no CUDA device")), mode(value));
        assertThat(selection.engine()).isSameAs(CPU);
        assertThat(selection.fallbackReason()).hasValue("reachability engine fake is unavailable for 100 nodes and 10"
                + " edges (no CUDA device); computing reachability on the CPU");
    }

    @Test
    void theFirstAvailableEngineIsChosen() {
        FakeEngine second = FakeEngine.available();
        Selection selection = ReachabilityEngines.select(100, 10, List.of(FakeEngine.unavailable("too small"), second), mode(null));
        assertThat(selection.engine()).isSameAs(second);
        assertThat(selection.fallbackReason()).isEmpty();
    }

    @Test
    void withoutEnginesAutoUsesTheCpuQuietlyAndOnSaysWhy() {
        assertThat(ReachabilityEngines.select(100, 10, List.of(), mode("auto"))).isEqualTo(new Selection(CPU, Optional.empty()));
        Selection on = ReachabilityEngines.select(100, 10, List.of(), mode("on"));
        assertThat(on.engine()).isSameAs(CPU);
        assertThat(on.fallbackReason()).hasValue("isocheck.gpu=on but no reachability engine was found on the class path"
                + " (module gpu-kernels registers one); computing reachability on the CPU");
    }

    @ParameterizedTest
    @ValueSource(strings = {"yes", "", "true", "gpu"})
    void anInvalidValueNamesThePropertyAndTheAllowedValues(String value) {
        assertThatThrownBy(() -> ReachabilityEngines.select(100, 10, List.of(), mode(value)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("system property isocheck.gpu must be one of auto, on, off; got \"" + value + "\"");
    }

    @Test
    void aWorkingEngineComputesTheClosure() {
        FakeEngine engine = FakeEngine.available();
        RecordingLogger logger = new RecordingLogger();
        Reachability closure = ReachabilityEngines.closureOf(GRAPH.dag(), List.of(engine), mode("on"), new OnceLog(logger));
        assertThat(closure).isSameAs(engine.lastResult);
        assertThat(logger.messages).isEmpty();
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"on"})
    void anEngineThatThrowsIsReplacedByTheCpuAndLogged(String value) {
        FakeEngine engine = FakeEngine.failing("device lost");
        RecordingLogger logger = new RecordingLogger();
        Reachability closure = ReachabilityEngines.closureOf(WIDE.dag(), List.of(engine), mode(value), new OnceLog(logger));
        assertThat(engine.calls).isEqualTo(1);
        BreadthFirstClosure.of(WIDE).assertSameAs(closure, () -> "the CPU's closure");
        assertThat(logger.messages).containsExactly("INFO reachability engine fake failed on 10 nodes and "
                + "0 edges (device lost); computing reachability on the CPU");
    }

    @Test
    void autoKeepsAGraphWhoseChainClocksAreSmallerOnTheCpuWithoutAskingTheEngines() {
        FakeEngine engine = FakeEngine.available();
        RecordingLogger logger = new RecordingLogger();
        Reachability closure = ReachabilityEngines.closureOf(SESSIONS.dag(), List.of(engine), mode("auto"), new OnceLog(logger));
        assertThat(engine.asked).isZero();
        assertThat(engine.calls).isZero();
        BreadthFirstClosure.of(SESSIONS).assertSameAs(closure, () -> "the CPU's closure");
        assertThat(logger.messages).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"auto", "on"})
    void aGraphWhoseBitRowsAreSmallerGoesToTheEngine(String value) {
        FakeEngine engine = FakeEngine.available();
        Reachability closure = ReachabilityEngines.closureOf(WIDE.dag(), List.of(engine), mode(value), new OnceLog(new RecordingLogger()));
        assertThat(engine.calls).isEqualTo(1);
        assertThat(closure).isSameAs(engine.lastResult);
    }

    /**
     * The selection's own path to the CPU (the chain decomposition it made for the rule, handed to
     * the CPU engine) gives the exact closure, whichever layout the graph gets, in every mode.
     */
    @ParameterizedTest
    @ValueSource(strings = {"auto", "on", "off"})
    void theSelectionsCpuPathGivesTheExactClosure(String value) {
        Random random = new Random(7);
        for (int round = 0; round < 60; round++) {
            int nodes = 1 + random.nextInt(300);
            Graph graph = switch (round % 3) {
                case 0 -> RandomDags.sessions(random, nodes, 1 + random.nextInt(8), random.nextDouble() * 2, 1 + random.nextInt(20));
                case 1 -> RandomDags.random(random, nodes, random.nextDouble() * 3);
                default -> RandomDags.dense(random, Math.min(nodes, 80), random.nextDouble());
            };
            Reachability closure = ReachabilityEngines.closureOf(graph.dag(), List.of(), mode(value), new OnceLog(new RecordingLogger()));
            BreadthFirstClosure.of(graph).assertSameAs(closure, () -> value + ", " + graph.description());
        }
    }

    @Test
    void onSendsEvenAGraphWhoseChainClocksAreSmallerToTheEngine() {
        FakeEngine engine = FakeEngine.available();
        ReachabilityEngines.closureOf(SESSIONS.dag(), List.of(engine), mode("on"), new OnceLog(new RecordingLogger()));
        assertThat(engine.calls).isEqualTo(1);
    }

    @Test
    void theReasonIsLoggedOnlyOnce() {
        RecordingLogger logger = new RecordingLogger();
        OnceLog log = new OnceLog(logger);
        List<FakeEngine> engines = List.of(FakeEngine.unavailable("no device"));
        for (int round = 0; round < 3; round++) {
            ReachabilityEngines.closureOf(GRAPH.dag(), engines, mode("on"), log);
        }
        ReachabilityEngines.closureOf(GRAPH.dag(), List.of(FakeEngine.failing("device lost")), mode("on"), log);
        assertThat(logger.messages).hasSize(1);
        assertThat(logger.messages.get(0)).startsWith("INFO reachability engine fake is unavailable");
    }

    @Test
    void offNeverAsksTheEngines() {
        FakeEngine engine = FakeEngine.available();
        ReachabilityEngines.closureOf(GRAPH.dag(), List.of(engine), mode("off"), new OnceLog(new RecordingLogger()));
        assertThat(engine.calls).isZero();
        assertThat(engine.asked).isZero();
    }

    @Test
    void thePublicEntryPointsTakeTheModeTheEdgeReadFromTheSystemProperty() {
        String saved = System.getProperty(SystemProperties.GPU);
        try {
            System.clearProperty(SystemProperties.GPU);
            // The extension registers no engine of its own: without gpu-kernels, the CPU.
            assertThat(ReachabilityEngines.select(10, 20, gpuModeFromTheSystemProperty())).isSameAs(CPU);
            BreadthFirstClosure.of(GRAPH).assertSameAs(ReachabilityEngines.closureOf(GRAPH.dag(),
                    gpuModeFromTheSystemProperty()), () -> "auto");
            System.setProperty(SystemProperties.GPU, "off");
            BreadthFirstClosure.of(GRAPH).assertSameAs(ReachabilityEngines.closureOf(GRAPH.dag(),
                    gpuModeFromTheSystemProperty()), () -> "off");
            System.setProperty(SystemProperties.GPU, "maybe");
            assertThatThrownBy(() -> ReachabilityEngines.closureOf(GRAPH.dag(), gpuModeFromTheSystemProperty()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("isocheck.gpu");
        } finally {
            if (saved == null) {
                System.clearProperty(SystemProperties.GPU);
            } else {
                System.setProperty(SystemProperties.GPU, saved);
            }
        }
    }

    /** The mode a value of the system property names, as the command line reads it. */
    private static GpuMode mode(String value) {
        return SystemProperties.gpuMode(value);
    }

    /** The mode as the command line and the benchmarks read it when they start. */
    private static GpuMode gpuModeFromTheSystemProperty() {
        return SystemProperties.checkOptions().gpuMode();
    }

    /** An engine that is available or not, and works or throws, as told. */
    private static final class FakeEngine implements ReachabilityEngine {

        private final Optional<String> unavailable;
        private final String failure;
        private int asked;
        private int calls;
        private Reachability lastResult;

        private FakeEngine(Optional<String> unavailable, String failure) {
            this.unavailable = unavailable;
            this.failure = failure;
        }

        static FakeEngine available() {
            return new FakeEngine(Optional.empty(), null);
        }

        static FakeEngine unavailable(String reason) {
            return new FakeEngine(Optional.of(reason), null);
        }

        static FakeEngine failing(String failure) {
            return new FakeEngine(Optional.empty(), failure);
        }

        @Override
        public String name() {
            return "fake";
        }

        @Override
        public Optional<String> unavailableReason(int nodes, long edges) {
            asked++;
            return unavailable;
        }

        @Override
        public Reachability closureOf(Dag dag) {
            calls++;
            if (failure != null) {
                throw new IllegalStateException(failure);
            }
            lastResult = BitRowReachability.compute(dag);
            return lastResult;
        }
    }

    /** Keeps what is logged as "LEVEL message". */
    private static final class RecordingLogger implements Logger {

        private final List<String> messages = new ArrayList<>();

        @Override
        public String getName() {
            return "recording";
        }

        @Override
        public boolean isLoggable(Level level) {
            return true;
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String message, Throwable thrown) {
            messages.add(level + " " + message);
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            messages.add(level + " " + (params == null || params.length == 0 ? format : MessageFormat.format(format, params)));
        }
    }
}
