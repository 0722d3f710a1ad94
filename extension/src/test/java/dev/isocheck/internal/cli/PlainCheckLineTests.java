package dev.isocheck.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

@DisplayName("a plain check line, read without picocli, reads as picocli reads it")
class PlainCheckLineTests {

    /** Arguments a check line is made of: options, their values good and bad, inputs, and oddities. */
    private static final List<String> TOKENS = List.of("--level", "--level=serializable", "--level=causal", "--level=wrong",
            "--level=", "serializable", "snapshot-isolation", "read-committed", "--classify", "--classify=true",
            "--classify=false", "--classify=maybe", "--json", "--json=true", "--json=FALSE", "--json=", "true", "false",
            "TRUE", "--format", "--format=jsonl", "--format=cobra", "--format=csv", "dbcop", "cobra-duplicates",
            "--timeout", "--timeout=30s", "--timeout=1m30s", "--timeout=soon", "--timeout=0", "5m", "--report",
            "--report=reports", "reports", "--", "-", "--help", "-h", "-V", "--version", "--frobnicate", "-x",
            "a.jsonl", "b.bincode", "logs", "@args", "", " ", "check", "help", "--level=serializable=x");

    @ParameterizedTest
    @ValueSource(strings = {
        "check a.jsonl",
        "check --level serializable a.jsonl b.bincode",
        "check --level=snapshot-isolation --json a.jsonl",
        "check a.jsonl --json=false --classify",
        "check --format cobra --timeout 1m30s --report reports logs",
        "check --json=TRUE --classify=false --level causal -",
        "check -- --json -",
        "check --level causal --level serializable a.jsonl",
        "check @args",
    })
    void plainLinesAreReadAsPicocliReadsThem(String line) {
        String[] args = line.split(" ");
        Optional<CheckCommand.Arguments> plain = PlainCheckLine.parse(args);

        assertThat(plain).as(line).isPresent();
        assertThat(plain.get()).isEqualTo(picocli(args));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "check", "check --help", "check -h", "check --version", "--version", "help check", "generate-completion",
        "check --frobnicate a.jsonl", "check --level wrong a.jsonl", "check --level", "check a.jsonl --level",
        "check --json false a.jsonl", "check --classify TRUE a.jsonl", "check --json=maybe a.jsonl",
        "check --timeout soon a.jsonl", "check --format csv a.jsonl", "check --report --json a.jsonl",
        "check -x a.jsonl", "check --level= a.jsonl", "frobnicate a.jsonl",
    })
    void anyOtherLineIsLeftToPicocli(String line) {
        assertThat(PlainCheckLine.parse(line.split(" "))).as(line).isEmpty();
    }

    /**
     * Random lines of the tokens above: wherever the plain reading accepts one, picocli reads the
     * same options and inputs from it; where picocli refuses one, so does the plain reading.
     */
    @Test
    void randomLinesAreReadAlikeOrLeftToPicocli() {
        SplittableRandom random = new SplittableRandom(35);
        int plain = 0;
        for (int n = 0; n < 20_000; n++) {
            List<String> line = new ArrayList<>(List.of("check"));
            int length = random.nextInt(6);
            for (int i = 0; i < length; i++) {
                line.add(TOKENS.get(random.nextInt(TOKENS.size())));
            }
            String[] args = line.toArray(String[]::new);
            Optional<CheckCommand.Arguments> read = PlainCheckLine.parse(args);
            Optional<CheckCommand.Arguments> picocli = picocliOrEmpty(args);
            if (read.isPresent()) {
                plain++;
                assertThat(picocli).as(String.join(" ", line)).contains(read.get());
            }
        }
        assertThat(plain).as("lines read without picocli").isGreaterThan(1_000);
    }

    @Test
    void aContradictionIsLeftToPicocliWhichWordsTheUsageError() {
        CommandRun run = CommandRun.of("check", "--classify", "--level", "causal", "x.jsonl");

        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).startsWith("isocheck: --classify checks every level; it takes no --level\nUsage: isocheck check");
    }

    private static CheckCommand.Arguments picocli(String[] args) {
        return picocliOrEmpty(args).orElseThrow(() -> new AssertionError("picocli refuses " + String.join(" ", args)));
    }

    /** What picocli sets on a fresh command for {@code args}; empty where it refuses them or runs no check. */
    private static Optional<CheckCommand.Arguments> picocliOrEmpty(String[] args) {
        PrintStream nowhere = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        CheckCommand check = new CheckCommand(nowhere, nowhere, InputStream.nullInputStream(),
                dev.isocheck.CheckOptions::defaults, null);
        try {
            CommandLine.ParseResult parsed = Commands.of(check, nowhere, nowhere).parseArgs(args);
            CommandLine.ParseResult sub = parsed.subcommand();
            if (sub == null || !sub.commandSpec().name().equals("check") || sub.isUsageHelpRequested()
                    || sub.isVersionHelpRequested()) {
                return Optional.empty();
            }
        } catch (CommandLine.ParameterException refused) {
            return Optional.empty();
        }
        return Optional.of(check.arguments());
    }
}
