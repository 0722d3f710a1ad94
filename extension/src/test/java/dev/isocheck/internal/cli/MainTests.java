package dev.isocheck.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("main: system properties read once, before the command")
class MainTests {

    private static final String SERIAL = """
            {"init": {"x": 0}, "complete": true}
            {"id": "T1", "session": "a", "ops": [{"op": "read", "key": "x", "value": 0}, {"op": "write", "key": "x", "value": 1}]}
            {"id": "T2", "session": "a", "ops": [{"op": "read", "key": "x", "value": 1}, {"op": "write", "key": "x", "value": 2}]}
            """;

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(Map<String, String> properties, String... args) {
        return Main.run(args, properties::get, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void anInvalidGpuModeIsOneLineAndExitTwoBeforeAnyHistoryIsRead() throws IOException {
        Path serial = Files.writeString(dir.resolve("serial.jsonl"), SERIAL);

        assertThat(run(Map.of("isocheck.gpu", "maybe"), "check", serial.toString())).isEqualTo(2);

        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(err.toString(StandardCharsets.UTF_8))
                .isEqualTo("isocheck: system property isocheck.gpu must be one of auto, on, off; got \"maybe\"\n");
    }

    @Test
    void helpAfterCheckPrintsTheUsageAndSucceeds() {
        assertThat(run(Map.of(), "check", "--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("Usage: isocheck check");
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void aValidGpuModeChecksAsUsual() throws IOException {
        Path serial = Files.writeString(dir.resolve("serial.jsonl"), SERIAL);

        assertThat(run(Map.of("isocheck.gpu", " OFF "), "check", serial.toString())).isZero();
        assertThat(run(Map.of(), "check", serial.toString())).isZero();

        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(serial + ": OK\n" + serial + ": OK\n");
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    }
}
