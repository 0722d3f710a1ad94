package dev.isocheck.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("nothing to check is not a pass (issue 30)")
class NothingToCheckTests {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            only-comments.jsonl | the history has no transactions
            all-aborted.jsonl   | the history's 2 transactions all aborted
            """)
    void aHistoryWithNothingCommittedExitsTwoSayingSoInTextAndJson(String name, String why) throws IOException {
        Path history = CommandRun.resource(name);

        CommandRun text = CommandRun.of("check", "--level", "strict-serializable", history.toString());
        assertThat(text.status()).isEqualTo(2);
        assertThat(text.out()).isEmpty();
        assertThat(text.err()).isEqualTo("isocheck: " + history + ": nothing to check: " + why + "\n");

        CommandRun json = CommandRun.of("check", "--json", history.toString());
        assertThat(json.status()).isEqualTo(2);
        JsonNode node = new ObjectMapper().readTree(json.out());
        assertThat(node.get("file").asText()).isEqualTo(history.toString());
        assertThat(node.get("verdict").asText()).isEqualTo("error");
        assertThat(node.get("ok").isNull()).isTrue();
        assertThat(node.get("error").asText()).isEqualTo(history + ": nothing to check: " + why);
    }

    @Test
    void anEmptyFileAndEmptyStandardInputHaveNothingToCheck() throws IOException {
        Path empty = Files.writeString(dir.resolve("empty.jsonl"), "");

        CommandRun file = CommandRun.of("check", empty.toString());
        assertThat(file.status()).isEqualTo(2);
        assertThat(file.err()).isEqualTo("isocheck: " + empty + ": nothing to check: the history has no transactions\n");

        CommandRun input = CommandRun.withInput(new ByteArrayInputStream(new byte[0]), "check", "-");
        assertThat(input.status()).isEqualTo(2);
        assertThat(input.err()).isEqualTo("isocheck: <stdin>: nothing to check: the history has no transactions\n");
    }

    @Test
    void aCobraDirectoryWithEmptyLogsHasNothingToCheck() throws IOException {
        Path cobra = Files.createDirectory(dir.resolve("cobra"));
        Files.writeString(cobra.resolve("client-0.log"), "");

        CommandRun run = CommandRun.of("check", cobra.toString());

        assertThat(run.status()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo("isocheck: " + cobra + ": nothing to check: the history has no transactions\n");
    }

    /**
     * The directory: an empty Cobra log beside a write skew in JSON Lines. It is no Cobra
     * history; the write skew is checked, and the log, which is not, makes the exit status 2.
     */
    @Test
    void aDirectoryHoldingALogBesideOtherHistoriesIsSearchedAndTheLogIsNamedUnchecked() throws IOException {
        Path mixed = CommandRun.resource("cobra-log-beside-jsonl");

        CommandRun run = CommandRun.of("check", mixed.toString());

        assertThat(run.status()).isEqualTo(2);
        assertThat(run.out()).startsWith(mixed.resolve("write-skew.jsonl") + ": VIOLATION G2-item (write skew)\n");
        assertThat(run.err()).isEqualTo("isocheck: " + mixed + ": holds Cobra logs (*.log) beside JSON Lines or dbcop histories,"
                + " so it is not one Cobra history: the other histories are checked, the logs are not; move the logs into"
                + " a directory of their own (or check this one with --format cobra)\n");

        CommandRun json = CommandRun.of("check", "--json", mixed.toString());
        assertThat(json.status()).isEqualTo(2);
        assertThat(json.out().lines()).hasSize(2);
        assertThat(json.out().lines().toList().get(0)).contains("\"verdict\":\"error\"", "holds Cobra logs");
        assertThat(json.out().lines().toList().get(1)).contains("\"verdict\":\"violation\"", "write-skew.jsonl");

        // Named a Cobra directory, it is one: the empty log has nothing to check, and that is no pass either.
        CommandRun cobra = CommandRun.of("check", "--format", "cobra", mixed.toString());
        assertThat(cobra.status()).isEqualTo(2);
        assertThat(cobra.err()).isEqualTo("isocheck: " + mixed + ": nothing to check: the history has no transactions\n");
    }

    @Test
    void aCobraDirectoryGivenAsAnArgumentIsSearchedBelowToo() throws IOException {
        Path cobra = Files.createDirectory(dir.resolve("cobra"));
        Files.writeString(cobra.resolve("client-0.log"), "");
        Path below = Files.createDirectory(cobra.resolve("more"));
        Path skew = Files.copy(CommandRun.resource("cobra-log-beside-jsonl/write-skew.jsonl"), below.resolve("write-skew.jsonl"));

        CommandRun run = CommandRun.of("check", cobra.toString());

        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains(cobra + ": nothing to check");
        assertThat(run.out()).startsWith(skew + ": VIOLATION G2-item (write skew)\n");
    }
}
