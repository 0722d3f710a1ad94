package dev.isocheck.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("a verdict is never lost in one mode (issue 30)")
class VerdictKeptTests {

    @TempDir
    Path dir;

    @Test
    void aValueNestedAsDeepAsTheReaderAcceptsKeepsItsVerdictInJson() throws IOException {
        Path deep = CommandRun.resource("deep-value.jsonl");

        CommandRun json = CommandRun.of("check", "--json", deep.toString());

        assertThat(json.err()).isEmpty();
        assertThat(json.status()).isEqualTo(1);
        JsonNode node = new ObjectMapper(JsonFactory.builder().streamReadConstraints(StreamReadConstraints.builder()
                .maxNestingDepth(Integer.MAX_VALUE).build()).build()).readTree(json.out());
        assertThat(node.get("verdict").asText()).isEqualTo("violation");
        assertThat(node.get("anomaly").asText()).isEqualTo("G2-item");
        // The text mode agrees.
        CommandRun text = CommandRun.of("check", deep.toString());
        assertThat(text.status()).isEqualTo(1);
        assertThat(text.out()).startsWith(deep + ": VIOLATION G2-item (lost update)\n");
    }

    @Test
    void aReportOnAKeyHoldingHalfASurrogatePairIsWritten() throws IOException {
        Path history = CommandRun.resource("lone-surrogate-key.jsonl");
        Path reports = dir.resolve("reports");

        CommandRun run = CommandRun.of("check", "--report", reports.toString(), history.toString());

        assertThat(run.err()).isEmpty();
        assertThat(run.status()).isEqualTo(1);
        Path page = reports.resolve(ReportPages.name(history));
        assertThat(run.out()).startsWith(history + ": VIOLATION G2-item (lost update)\n")
                .contains("T1 -rw x\\ud800-> T2").endsWith("\n  report: " + page + "\n");
        // The page shows the half escaped, as the text does.
        assertThat(Files.readString(page, StandardCharsets.UTF_8)).startsWith("<!DOCTYPE html>").contains("x\\ud800");
    }

    @Test
    void halfASurrogatePairThatReachesThePageIsWrittenAsAReplacementCharacter() throws IOException {
        Path page = dir.resolve("page.html");

        ReportPages.writeUtf8(page, "<p>x\uD800 and \uDE00y and \uD83D\uDE00</p>");

        assertThat(Files.readString(page, StandardCharsets.UTF_8)).isEqualTo("<p>x\uFFFD and \uFFFDy and \uD83D\uDE00</p>");
    }

    @Test
    void aReportThatCannotBeWrittenStillPrintsTheVerdictThenTheError() throws IOException {
        Path lost = CommandRun.resource("lone-surrogate-key.jsonl");
        Path file = Files.writeString(dir.resolve("a-file"), "");
        Path underAFile = file.resolve("reports");

        CommandRun text = CommandRun.of("check", "--report", underAFile.toString(), lost.toString());

        assertThat(text.status()).isEqualTo(2);
        assertThat(text.out()).startsWith(lost + ": VIOLATION G2-item (lost update)\n").doesNotContain("report:");
        assertThat(text.err()).startsWith("isocheck: " + underAFile + ": cannot write the report on " + lost + ": ")
                .hasLineCount(1);

        CommandRun json = CommandRun.of("check", "--json", "--report", underAFile.toString(), lost.toString());
        assertThat(json.status()).isEqualTo(2);
        JsonNode node = new ObjectMapper().readTree(json.out());
        assertThat(node.get("verdict").asText()).isEqualTo("violation");
        assertThat(node.has("report")).isFalse();
        assertThat(node.get("reportError").asText()).startsWith(underAFile + ": cannot write the report on " + lost + ": ");
    }
}
