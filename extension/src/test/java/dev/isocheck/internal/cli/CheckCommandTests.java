package dev.isocheck.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.isocheck.CheckOptions;
import dev.isocheck.RewrittenKeys;
import dev.isocheck.format.JsonlHistoryWriter;
import dev.isocheck.format.SampleHistories;
import dev.isocheck.internal.engine.CheckPipeline;
import dev.isocheck.internal.engine.Checker;
import dev.isocheck.internal.solve.SatChecker;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("check command")
class CheckCommandTests {

    private static final String LOST_UPDATE = """
            {"init": {"x": 0}, "complete": true}
            {"id": "T1", "ops": [{"op": "read", "key": "x", "value": 0}, {"op": "write", "key": "x", "value": 1}]}
            {"id": "T2", "ops": [{"op": "read", "key": "x", "value": 0}, {"op": "write", "key": "x", "value": 2}]}
            """;
    private static final String SERIAL = """
            {"init": {"x": 0}, "complete": true}
            {"id": "T1", "session": "a", "ops": [{"op": "read", "key": "x", "value": 0}, {"op": "write", "key": "x", "value": 1}]}
            {"id": "T2", "session": "a", "ops": [{"op": "read", "key": "x", "value": 1}, {"op": "write", "key": "x", "value": 2}]}
            """;

    /** T2 sees T1's write of x but not its write of y: read committed allows it, read atomic does not. */
    private static final String FRACTURED = """
            {"init": {"x": 0, "y": 0}, "complete": true}
            {"id": "T1", "ops": [{"op": "write", "key": "x", "value": 1}, {"op": "write", "key": "y", "value": 1}]}
            {"id": "T2", "ops": [{"op": "read", "key": "y", "value": 0}, {"op": "read", "key": "x", "value": 1}]}
            """;
    /** T3 sees T2, which saw T1, but misses T1's write of x: read atomic allows it, causal consistency does not. */
    private static final String NOT_CAUSAL = """
            {"init": {"x": 0, "y": 0}, "complete": true}
            {"id": "T1", "ops": [{"op": "write", "key": "x", "value": 1}]}
            {"id": "T2", "ops": [{"op": "read", "key": "x", "value": 1}, {"op": "write", "key": "y", "value": 1}]}
            {"id": "T3", "ops": [{"op": "read", "key": "y", "value": 1}, {"op": "read", "key": "x", "value": 0}]}
            """;
    /** Two readers saw two independent writes in opposite orders: causal, not prefix-consistent. */
    private static final String LONG_FORK = """
            {"init": {"x": 0, "y": 0}, "complete": true}
            {"id": "T1", "ops": [{"op": "write", "key": "x", "value": 1}]}
            {"id": "T2", "ops": [{"op": "write", "key": "y", "value": 1}]}
            {"id": "T3", "ops": [{"op": "read", "key": "x", "value": 1}, {"op": "read", "key": "y", "value": 0}]}
            {"id": "T4", "ops": [{"op": "read", "key": "x", "value": 0}, {"op": "read", "key": "y", "value": 1}]}
            """;

    @TempDir
    Path dir;

    @Test
    void theWeakLevelsAreCheckedAndExplainedByTheAxiomTheyBreak() throws IOException {
        Path fractured = file("fractured.jsonl", FRACTURED);
        assertThat(check("--level", "read-committed", fractured.toString())).isEqualTo(0);
        assertThat(out()).isEqualTo(fractured + ": OK\n");
        out.reset();
        assertThat(check("--level", "read-atomic", fractured.toString())).as(err()).isEqualTo(1);
        assertThat(out()).startsWith(fractured + ": VIOLATION").contains("Read Atomic", "the read: T2 operation 0, read y = 0",
                "involved: T2 operation 1, read x = 1");
        out.reset();
        Path notCausal = file("not-causal.jsonl", NOT_CAUSAL);
        assertThat(check("--level", "read-atomic", notCausal.toString())).isEqualTo(0);
        out.reset();
        assertThat(check("--level=causal", notCausal.toString())).isEqualTo(1);
        assertThat(out().replaceAll("\\s+", " ")).contains("Causal", "T1 precedes T3 causally",
                "T3 read x = 0 from the initial state");
    }

    @Test
    void classifyNamesTheWeakestLevelViolated() throws IOException {
        Path serial = file("a-serial.jsonl", SERIAL);
        Path fractured = file("b-fractured.jsonl", FRACTURED);
        Path notCausal = file("c-not-causal.jsonl", NOT_CAUSAL);
        Path lostUpdate = file("d-lost-update.jsonl", LOST_UPDATE);
        Path longFork = file("e-long-fork.jsonl", LONG_FORK);
        assertThat(check("--classify", "--json", dir.toString())).isEqualTo(1);
        List<JsonNode> nodes = new ArrayList<>();
        for (String line : out().lines().toList()) {
            nodes.add(new ObjectMapper().readTree(line));
        }
        assertThat(nodes).extracting(n -> n.get("file").asText()).containsExactly(serial.toString(), fractured.toString(),
                notCausal.toString(), lostUpdate.toString(), longFork.toString());
        assertThat(nodes).allSatisfy(n -> assertThat(n.has("weakest_violated")).isTrue());
        assertThat(nodes).extracting(n -> n.get("weakest_violated").isNull() ? null : n.get("weakest_violated").asText())
                .containsExactly(null, "read-atomic", "causal", "snapshot-isolation", "prefix");
        assertThat(nodes).extracting(n -> n.get("level").asText())
                .containsExactly("serializable", "read-atomic", "causal", "snapshot-isolation", "prefix");
        out.reset();
        assertThat(check("--classify", fractured.toString())).isEqualTo(1);
        assertThat(out()).contains("weakest level violated: read-atomic (satisfies read-committed)");
        out.reset();
        assertThat(check("--classify", longFork.toString())).isEqualTo(1);
        assertThat(out()).contains("weakest level violated: prefix (satisfies read-committed, read-atomic, causal)", "T3 (snapshot)", "T4 (snapshot)",
                "T1 (commit)", "T2 (commit)");
        out.reset();
        assertThat(check("--classify", serial.toString())).isEqualTo(0);
        assertThat(out()).isEqualTo(serial + ": OK\n  weakest level violated: none (serializable)\n");
        out.reset();
        assertThat(check("--classify", "--level", "causal", serial.toString())).isEqualTo(2);
        assertThat(err()).startsWith("isocheck: --classify checks every level; it takes no --level");
    }

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int check(String... args) {
        return new CheckCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)).run(args);
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private Path file(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content);
    }

    @Test
    void anInternalErrorIsOneLineAndExitTwoNeverAVerdict() throws IOException {
        Path serial = file("serial.jsonl", SERIAL);
        Path other = file("other.jsonl", SERIAL);
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        dev.isocheck.internal.engine.Checker broken = (history, level) -> {
            throw new IllegalStateException("boom\nsecond line");
        };
        assertThat(new CheckCommand(o, e, broken).run(new String[] {serial.toString(), other.toString()})).isEqualTo(2);
        assertThat(out()).isEmpty();
        assertThat(err().lines()).containsExactly(
                "isocheck: " + serial + ": internal error: java.lang.IllegalStateException: boom second line (please report)",
                "isocheck: " + other + ": internal error: java.lang.IllegalStateException: boom second line (please report)");

        out.reset();
        err.reset();
        dev.isocheck.internal.engine.Checker deep = (history, level) -> {
            throw new StackOverflowError();
        };
        assertThat(new CheckCommand(o, e, deep).run(new String[] {"--json", serial.toString()})).isEqualTo(2);
        assertThat(err()).isEqualTo("isocheck: " + serial + ": internal error: java.lang.StackOverflowError (please report)\n");
        assertThat(out()).contains("\"ok\":null").contains("internal error").doesNotContain("\"ok\":true");
    }

    /** Issue 14's toggle as a recorder writes it, without an init line. */
    private static final String TOGGLE = """
            {"id": "T1", "ops": [{"op": "read", "key": "flag", "value": false}, {"op": "write", "key": "flag", "value": true}]}
            {"id": "T2", "ops": [{"op": "read", "key": "flag", "value": true}, {"op": "write", "key": "flag", "value": false}]}
            """;

    @Test
    void aToggleWithoutAnInitLineIsAViolationThatSaysWhatItRestsOnAndIsOkWithUnknownAny() throws IOException {
        Path unwritten = file("toggle.jsonl", TOGGLE);
        assertThat(check(unwritten.toString())).isEqualTo(1);
        assertThat(out()).startsWith(unwritten + ": VIOLATION G1c\n").contains(String.join("\n",
                "    This rests on flag's unknown initial value being one no transaction writes:",
                "      T1 read flag = false, taken not to be flag's initial value because T2 writes flag = false",
                "      T2 read flag = true, taken not to be flag's initial value because T1 writes flag = true",
                "    By default (\"unknown\": \"unwritten\") an initial value the history does not list is one no",
                "    transaction writes. If the database may have held such a value before the history began (rows",
                "    that existed already, a flag set and cleared again), state the initial state instead: list the",
                "    initial values in the init line ({\"init\": {\"flag\": ...}}), or declare that unlisted ones may be",
                "    any value ({\"init\": {}, \"unknown\": \"any\"}).", ""));
        assertThat(err()).isEmpty();

        out.reset();
        Path any = file("toggle-any.jsonl", "{\"init\": {}, \"unknown\": \"any\"}\n" + TOGGLE);
        assertThat(check("--level", "serializable", any.toString())).isZero();
        assertThat(out()).isEqualTo(any + ": OK\n");
        out.reset();
        assertThat(check("--level", "strict-serializable", any.toString())).isZero();
        out.reset();
        assertThat(check("--level", "snapshot-isolation", any.toString())).isZero();

        out.reset();
        assertThat(check("--json", unwritten.toString())).isEqualTo(1);
        JsonNode json = new ObjectMapper().readTree(out());
        assertThat(json.get("ok").asBoolean()).isFalse();
        assertThat(json.get("evidence").get("premises")).hasSize(2);
        assertThat(json.get("evidence").get("premises").get(0).get("kind").asText()).isEqualTo("unwritten-initial-value");

        out.reset();
        Path bad = file("toggle-bad.jsonl", "{\"init\": {}, \"unknown\": \"all\"}\n" + TOGGLE);
        assertThat(check(bad.toString())).isEqualTo(2);
        assertThat(err()).isEqualTo("isocheck: " + bad + ":1: \"unknown\" must be \"unwritten\" or \"any\", not a string (\"all\")\n");
    }

    @Test
    void satisfiedHistoryPrintsOkAndExitsZero() throws IOException {
        Path serial = file("serial.jsonl", SERIAL);
        assertThat(check(serial.toString())).isZero();
        assertThat(out()).isEqualTo(serial + ": OK\n");
        assertThat(err()).isEmpty();
    }

    @Test
    void violationPrintsTheAnomalyAndExitsOne() throws IOException {
        Path lost = file("lost.jsonl", LOST_UPDATE);
        assertThat(check("--level", "snapshot-isolation", lost.toString())).isEqualTo(1);
        assertThat(out()).startsWith(lost + ": VIOLATION ");
    }

    @Test
    void malformedFileIsOneLineNamingFileAndLineWithExitTwo() throws IOException {
        Path bad = file("bad.jsonl", SERIAL + "{\"id\": \"T3\", \"ops\": [{\"op\": \"raed\", \"key\": \"x\", \"value\": 1}]}\n");
        assertThat(check(bad.toString())).isEqualTo(2);
        assertThat(out()).isEmpty();
        assertThat(err().lines()).hasSize(1);
        assertThat(err()).startsWith("isocheck: " + bad + ":4: ").contains("raed").doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void aDirectoryIsCheckedHistoryByHistoryInPathOrder() throws IOException {
        Path lost = file("b-lost.jsonl", LOST_UPDATE);
        Path serial = file("a-serial.jsonl", SERIAL);
        file("notes.txt", "not a history");
        assertThat(check(dir.toString())).isEqualTo(1);
        var verdicts = out().lines().filter(l -> l.startsWith(dir.toString())).toList();
        assertThat(verdicts).hasSize(2);
        assertThat(verdicts.get(0)).isEqualTo(serial + ": OK");
        assertThat(verdicts.get(1)).startsWith(lost + ": VIOLATION ");
    }

    @Test
    void invalidInputOutranksAViolationInTheExitStatus() throws IOException {
        Path lost = file("lost.jsonl", LOST_UPDATE);
        Path bad = file("bad.jsonl", "{\"id\": 1, \"ops\": [}\n");
        assertThat(check(lost.toString(), bad.toString())).isEqualTo(2);
        assertThat(out()).startsWith(lost + ": VIOLATION");
        assertThat(err()).startsWith("isocheck: " + bad + ":1: ");
    }

    @Test
    void jsonGivesOneObjectPerHistoryWithTheContractFields() throws IOException {
        Path lost = file("lost.jsonl", LOST_UPDATE);
        Path serial = file("serial.jsonl", SERIAL);
        assertThat(check("--json", serial.toString(), lost.toString())).isEqualTo(1);
        ObjectMapper json = new ObjectMapper();
        var lines = out().lines().toList();
        assertThat(lines).hasSize(2);
        JsonNode ok = json.readTree(lines.get(0));
        assertThat(ok.get("file").asText()).isEqualTo(serial.toString());
        assertThat(ok.get("level").asText()).isEqualTo("serializable");
        assertThat(ok.get("ok").asBoolean()).isTrue();
        assertThat(ok.get("anomaly").isNull()).isTrue();
        assertThat(ok.get("millis").isIntegralNumber()).isTrue();
        JsonNode violation = json.readTree(lines.get(1));
        assertThat(violation.get("ok").asBoolean()).isFalse();
        assertThat(violation.get("anomaly").asText()).isEqualTo("G2-item");
        assertThat(violation.get("familiar").asText()).isEqualTo("lost update");
        assertThat(violation.get("cycle")).extracting(JsonNode::asText).containsExactly("T1", "T2");
        assertThat(violation.get("edges")).extracting(e -> e.get("from").asText() + " -" + e.get("type").asText() + " "
                + e.get("key").asText() + "-> " + e.get("to").asText()).containsExactly("T1 -rw x-> T2", "T2 -rw x-> T1");
        assertThat(violation.get("evidence").get("kind").asText()).isEqualTo("cycles");
        assertThat(violation.get("explainMillis").isIntegralNumber()).isTrue();
    }

    @Test
    void historiesBeyondTheReferenceCheckerAreDecidedByTheEngine() throws IOException {
        StringBuilder big = new StringBuilder("{\"init\": {\"x\": 0}, \"complete\": true}\n");
        for (int i = 1; i <= 12; i++) {
            big.append("{\"id\": ").append(i).append(", \"session\": \"s\", \"ops\": [{\"op\": \"read\", \"key\": \"x\", \"value\": ")
                    .append(i - 1).append("}, {\"op\": \"write\", \"key\": \"x\", \"value\": ").append(i).append("}]}\n");
        }
        Path large = file("large.jsonl", big.toString());
        assertThat(check(large.toString())).isEqualTo(0);
        assertThat(out()).isEqualTo(large + ": OK\n");
        // The same chain with one lost update: T13 also read 5, the version T6 overwrote.
        big.append("{\"id\": 13, \"ops\": [{\"op\": \"read\", \"key\": \"x\", \"value\": 5}, "
                + "{\"op\": \"write\", \"key\": \"x\", \"value\": 13}]}\n");
        Path lost = file("lost.jsonl", big.toString());
        out.reset();
        assertThat(check(lost.toString())).isEqualTo(1);
        assertThat(out()).startsWith(lost + ": VIOLATION G2-item (lost update)\n").contains("-rw x-> 13 -rw x->");
    }

    @Test
    void screeningFindsAbortedReadsInHistoriesOfAnySize() throws IOException {
        StringBuilder big = new StringBuilder("{\"init\": {\"x\": 0}, \"complete\": true}\n");
        for (int i = 1; i <= 12; i++) {
            big.append("{\"id\": ").append(i).append(", \"ops\": [{\"op\": \"write\", \"key\": \"y").append(i).append("\", \"value\": 1}]}\n");
        }
        big.append("{\"id\": 13, \"status\": \"aborted\", \"ops\": [{\"op\": \"write\", \"key\": \"x\", \"value\": 7}]}\n");
        big.append("{\"id\": 14, \"ops\": [{\"op\": \"read\", \"key\": \"x\", \"value\": 7}]}\n");
        Path large = file("g1a.jsonl", big.toString());
        assertThat(check(large.toString())).isEqualTo(1);
        assertThat(out()).startsWith(large + ": VIOLATION G1a\n");
    }

    @Test
    void commandLineMistakesAreNamedWithExitTwo() throws IOException {
        Path serial = file("serial.jsonl", SERIAL);
        assertThat(check("--level", "serialisable", serial.toString())).isEqualTo(2);
        assertThat(err()).contains("unknown isolation level 'serialisable'").contains("snapshot-isolation");
        err.reset();
        assertThat(check("--frobnicate", serial.toString())).isEqualTo(2);
        assertThat(err()).startsWith("isocheck: unknown option: '--frobnicate'\n");
        err.reset();
        assertThat(check()).isEqualTo(2);
        assertThat(err()).contains("no history file or directory given");
        err.reset();
        assertThat(check(dir.resolve("missing.jsonl").toString())).isEqualTo(2);
        assertThat(err()).contains("missing.jsonl: no such file or directory");
        err.reset();
        assertThat(check(file("history.txt", SERIAL).toString())).isEqualTo(2);
        assertThat(err()).contains("unknown history format");
        assertThat(out()).isEmpty();
    }

    @Test
    void theFormatCanBeForcedForAFileWithAnotherName() throws IOException {
        Path odd = file("history.txt", SERIAL);
        assertThat(check("--format", "jsonl", odd.toString())).isZero();
        assertThat(out()).isEqualTo(odd + ": OK\n");
    }

    @Test
    void theVeristrongDbcopSampleIsReadAsABinaryHistory() {
        Path sample = SampleHistories.veristrong("fig11/ser/dbcop/chengRW-1000/history.bincode");
        int status = check("--json", sample.toString());
        assertThat(err()).isEmpty();
        // VeriStrong's artifact history of a serializable database: the engine finds an order, replayed.
        assertThat(status).isZero();
        assertThat(out()).contains("\"transactions\":").contains("\"ok\":true");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            bad JSON         | {"id": "T1", "ops": [{"op": "read", "key": "x" "value": 1}]}                       | 2 | bad JSON
            unknown op       | {"id": "T1", "ops": [{"op": "scan", "key": "x", "value": 1}]}                      | 2 | unknown op "scan"
            missing key      | {"id": "T1", "ops": [{"op": "read", "value": 1}]}                                  | 2 | key
            missing value    | {"id": "T1", "ops": [{"op": "write", "key": "x"}]}                                 | 2 | value
            duplicate id     | {"id": "T0", "ops": []}                                                            | 2 | duplicate
            init too late    | {"init": {"x": 1}}                                                                 | 2 | init
            """)
    void malformedJsonlIsAnsweredWithOneLineAndExitTwo(String name, String badLine, int lineNumber, String problem)
            throws IOException {
        Path bad = file("bad.jsonl", "{\"id\": \"T0\", \"ops\": [{\"op\": \"write\", \"key\": \"x\", \"value\": 1}]}\n" + badLine + "\n");
        assertThat(check(bad.toString())).isEqualTo(2);
        assertThat(out()).isEmpty();
        assertThat(err().lines()).hasSize(1);
        assertThat(err()).startsWith("isocheck: " + bad + ":" + lineNumber + ": ").contains(problem)
                .doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void truncatedBincodeIsAnsweredWithOneLineNamingTheByteAndExitTwo() throws IOException {
        byte[] sample = Files.readAllBytes(SampleHistories.veristrong("fig11/ser/dbcop/chengRW-1000/history.bincode"));
        for (int cut : new int[] {7, 60, sample.length / 2, sample.length - 1}) {
            out.reset();
            err.reset();
            Path truncated = Files.write(dir.resolve("cut-" + cut + ".bincode"), java.util.Arrays.copyOf(sample, cut));
            assertThat(check(truncated.toString())).as("cut at %d", cut).isEqualTo(2);
            assertThat(out()).isEmpty();
            assertThat(err().lines()).hasSize(1);
            assertThat(err()).startsWith("isocheck: " + truncated + ":byte ").doesNotContain("Exception");
        }
    }

    @Test
    void aReadOfAKeyWrittenOnlyByAnAbortedTransactionIsAnAbortedReadNotAnInputError() throws IOException {
        Path g1a = file("g1a.jsonl", """
                {"init": {"x": 0}, "complete": true}
                {"id": "T1", "status": "aborted", "ops": [{"op": "write", "key": "x", "value": 1}]}
                {"id": "T2", "ops": [{"op": "read", "key": "x", "value": 1}]}
                """);
        assertThat(check(g1a.toString())).isEqualTo(1);
        assertThat(out()).isEqualTo(g1a + ": VIOLATION G1a\n" + """
                  G1a (dirty read, aborted read) at serializable
                    T2 read x = 1, but only T1 wrote x = 1, and T1 aborted

                    the read: T2 operation 0, read x = 1
                    a write of a transaction that aborted: T1 operation 0, write x = 1

                    Transactions:
                      T1  aborted
                          0  write x = 1
                      T2
                          0  read x = 1
                """);
        assertThat(err()).isEmpty();
    }

    @Test
    void reportWritesAnHtmlExplanationOfEachViolation() throws IOException {
        Path lost = file("lost-update.jsonl", LOST_UPDATE);
        Path serial = file("serial.jsonl", SERIAL);
        Path reports = dir.resolve("reports");
        assertThat(check("--report", reports.toString(), lost.toString(), serial.toString())).isEqualTo(1);
        Path page = reports.resolve(ReportPages.name(lost));
        assertThat(out()).startsWith(lost + ": VIOLATION ").contains("\n  report: " + page + "\n" + serial + ": OK\n");
        try (var pages = Files.list(reports)) {
            assertThat(pages).containsExactly(page);
        }
        assertThat(Files.readString(page)).startsWith("<!DOCTYPE html>").contains("<svg ", "G2-item (lost update) at serializable",
                "T1 -rw x-&gt; T2", "History: <code>" + lost + "</code>").doesNotContain("<script");
        assertThat(err()).isEmpty();
    }

    @Test
    void reportIsNamedInJson() throws IOException {
        Path lost = file("lost-update.jsonl", LOST_UPDATE);
        Path reports = dir.resolve("r");
        assertThat(check("--json", "--report=" + reports, "--level", "snapshot-isolation", lost.toString())).isEqualTo(1);
        JsonNode json = new ObjectMapper().readTree(out());
        assertThat(json.get("report").asText()).endsWith(".html");
        assertThat(Files.readString(Path.of(json.get("report").asText())))
                .contains("Whichever of T1 and T2 installed x first, a cycle forms:");
    }

    @Test
    void reportNeedsADirectory() throws IOException {
        Path lost = file("lost-update.jsonl", LOST_UPDATE);
        Path notADirectory = file("plain.txt", "");
        // A usage error, before anything is checked: no verdict, and the usage after the line.
        assertThat(check("--report", notADirectory.toString(), lost.toString())).isEqualTo(2);
        assertThat(out()).isEmpty();
        assertThat(err()).startsWith("isocheck: --report " + notADirectory
                + " is a file; --report names a directory for the pages (created if needed)\nUsage: isocheck check ");
        assertThat(notADirectory).isEmptyFile();
        err.reset();
        assertThat(check(lost.toString(), "--report")).isEqualTo(2);
        assertThat(out()).isEmpty();
        assertThat(err()).startsWith("isocheck: missing required parameter for option '--report' (DIR)\nUsage: isocheck check ");
    }

    private int check(CheckOptions options, String... args) {
        return new CheckCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), options).run(args);
    }

    private List<JsonNode> jsonLines() throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> nodes = new ArrayList<>();
        for (String line : out().lines().toList()) {
            nodes.add(json.readTree(line));
        }
        return nodes;
    }

    @Nested
    @DisplayName("issue 14: never a lost verdict, never a silent pass")
    class NeverALostVerdict {

        /**
         * The directory: its 5,000-transaction history (here without times and out of
         * serial order, so that no recorded order decides it) and a small one after it. Over the
         * memory budget, the first is UNKNOWN with the reason, and the second is checked.
         */
        @Test
        void aHistoryOverTheMemoryBudgetIsUnknownAndTheNextIsChecked() throws IOException {
            Path big = dir.resolve("a-rewritten-keys.jsonl");
            new JsonlHistoryWriter().write(RewrittenKeys.history(RewrittenKeys.TRANSACTIONS, RewrittenKeys.SESSIONS,
                    RewrittenKeys.KEYS, RewrittenKeys.VALUES, 14, RewrittenKeys.Layout.SESSION_BY_SESSION), big);
            Path serial = file("b-serial.jsonl", SERIAL);
            CheckOptions small = CheckOptions.defaults().withMemoryBudget(256L << 20);

            assertThat(check(small, dir.toString())).isEqualTo(2);

            List<String> lines = out().lines().toList();
            assertThat(lines).hasSize(3);
            assertThat(lines.get(0)).startsWith(big + ": UNKNOWN the SAT encoding (")
                    .contains("more than the memory budget of 256 MiB (as set) allows, so it was not built");
            assertThat(lines.get(1)).isEqualTo("  not decided: whether the history is serializable (UNKNOWN is not a pass)");
            assertThat(lines.get(2)).isEqualTo(serial + ": OK");
            assertThat(err()).isEmpty();

            out.reset();
            assertThat(check(small, "--json", dir.toString())).isEqualTo(2);
            List<JsonNode> json = jsonLines();
            assertThat(json).hasSize(2);
            assertThat(json.get(0).get("file").asText()).isEqualTo(big.toString());
            assertThat(json.get(0).get("verdict").asText()).isEqualTo("unknown");
            assertThat(json.get(0).get("ok").isNull()).isTrue();
            assertThat(json.get(0).get("unknown").asText()).contains("memory budget of 256 MiB");
            assertThat(json.get(0).get("transactions").asInt()).isEqualTo(5_000);
            assertThat(json.get(1).get("verdict").asText()).isEqualTo("ok");
            assertThat(json.get(1).get("ok").asBoolean()).isTrue();
            assertThat(json.get(1).get("caveats")).isEmpty();
        }

        @Test
        void aHistoryPastTheTimeoutIsUnknownAndTheNextIsChecked() throws IOException {
            Path hard = dir.resolve("a-hard.jsonl");
            new JsonlHistoryWriter().write(RewrittenKeys.history(500, RewrittenKeys.SESSIONS, RewrittenKeys.KEYS,
                    RewrittenKeys.VALUES, 14, RewrittenKeys.Layout.SESSION_BY_SESSION), hard);
            Path serial = file("b-serial.jsonl", SERIAL);

            long started = System.nanoTime();
            assertThat(check("--timeout", "1s", hard.toString(), serial.toString())).isEqualTo(2);

            assertThat((System.nanoTime() - started) / 1_000_000_000).isLessThan(30);
            assertThat(out()).startsWith(hard + ": UNKNOWN the time limit of 1s was exceeded while ")
                    .contains("\n  not decided: whether the history is serializable (UNKNOWN is not a pass)\n")
                    .endsWith(serial + ": OK\n");
            assertThat(err()).isEmpty();
        }

        @Test
        void aHeapExhaustedInOneHistoryIsUnknownWithoutAStackTraceAndTheNextIsChecked() throws IOException {
            Path first = file("a-first.jsonl", LOST_UPDATE);
            Path second = file("b-second.jsonl", SERIAL);
            // The standard pipeline around a search that exhausts the heap on the first history.
            Checker search = (history, level) -> {
                if (history.sessions().size() == 1) { // the serial history, not the lost update
                    return new SatChecker().check(history, level);
                }
                throw new OutOfMemoryError("Java heap space");
            };
            PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
            PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);

            int status = new CheckCommand(o, e, new CheckPipeline(search)).run(new String[] {first.toString(), second.toString()});

            assertThat(status).isEqualTo(2);
            assertThat(out()).startsWith(first + ": UNKNOWN the check ran out of memory while searching for an order")
                    .contains("(the maximum heap is ").endsWith(second + ": OK\n").doesNotContain("\tat ");
            assertThat(err()).isEmpty();
        }

        @ParameterizedTest
        @CsvSource(delimiter = '|', textBlock = """
                soon   | --timeout must be a positive duration such as 30s, 30 s, 500ms, 5m, 1h or 1m30s (units ns, μs, ms, s, m, h, d; a bare number is seconds); got 'soon'
                0      | --timeout must be a positive duration such as 30s, 30 s, 500ms, 5m, 1h or 1m30s (units ns, μs, ms, s, m, h, d; a bare number is seconds); got '0'
                0s     | --timeout must be a positive duration such as 30s, 30 s, 500ms, 5m, 1h or 1m30s (units ns, μs, ms, s, m, h, d; a bare number is seconds); got '0s'
                1.5s   | --timeout must be a positive duration such as 30s, 30 s, 500ms, 5m, 1h or 1m30s (units ns, μs, ms, s, m, h, d; a bare number is seconds); got '1.5s'
                5m30   | --timeout must be a positive duration such as 30s, 30 s, 500ms, 5m, 1h or 1m30s (units ns, μs, ms, s, m, h, d; a bare number is seconds); got '5m30'
                """)
        void aBadTimeoutIsNamedWithTheUsageAndExitTwo(String value, String message) throws IOException {
            Path serial = file("serial.jsonl", SERIAL);

            assertThat(check("--timeout", value, serial.toString())).isEqualTo(2);

            assertThat(out()).isEmpty();
            assertThat(err()).startsWith("isocheck: " + message + "\n" + "Usage: isocheck check ").contains("--timeout");
        }

        @ParameterizedTest
        @CsvSource({"30s", "5m", "1h", "500ms", "1m30s", "90", "--timeout=2m", "10 s", "1h 30m", "500 ms"})
        void goodTimeoutsAreTaken(String value) throws IOException {
            Path serial = file("serial.jsonl", SERIAL);
            String[] args = value.startsWith("--") ? new String[] {value, serial.toString()}
                    : new String[] {"--timeout", value, serial.toString()};

            assertThat(check(args)).isZero();
            assertThat(out()).isEqualTo(serial + ": OK\n");
        }

        @Test
        void aPassThatCheckedLessSaysWhatInTextAndJson() throws IOException {
            Path untimed = file("untimed.jsonl", SERIAL);

            assertThat(check("--level", "strict-serializable", untimed.toString())).isZero();

            assertThat(out()).isEqualTo(untimed + ": OK (with caveats)\n"
                    + "  not checked: real-time order: no transaction has a start or end time, so real-time order is"
                    + " unknown and only serializability was checked\n");
            out.reset();
            assertThat(check("--json", "--level", "strict-serializable", untimed.toString())).isZero();
            JsonNode json = jsonLines().get(0);
            assertThat(json.get("ok").asBoolean()).isTrue();
            assertThat(json.get("caveats")).extracting(JsonNode::asText).singleElement().asString()
                    .startsWith("real-time order: no transaction has a start or end time");
        }

        @Test
        void inJsonEveryArgumentWithoutAHistoryHasItsOwnObjectWithError() throws IOException {
            Path missing = dir.resolve("missing.jsonl");
            Path serial = file("serial.jsonl", SERIAL);
            Path notes = file("notes.txt", "not a history");
            Path emptyDir = Files.createDirectory(dir.resolve("nothing-here"));

            assertThat(check("--json", missing.toString(), serial.toString(), notes.toString(), emptyDir.toString())).isEqualTo(2);

            List<JsonNode> json = jsonLines();
            assertThat(json).extracting(j -> j.get("file").asText())
                    .containsExactly(missing.toString(), serial.toString(), notes.toString(), emptyDir.toString());
            assertThat(json).extracting(j -> j.get("verdict").asText()).containsExactly("error", "ok", "error", "error");
            assertThat(json.get(0).get("ok").isNull()).isTrue();
            assertThat(json.get(0).get("error").asText()).isEqualTo(missing + ": no such file or directory");
            assertThat(json.get(0).get("level").asText()).isEqualTo("serializable");
            assertThat(json.get(2).get("error").asText()).contains("unknown history format");
            assertThat(json.get(3).get("error").asText()).contains("no histories found");
            // The same lines on standard error as without --json.
            assertThat(err().lines()).hasSize(3).first().isEqualTo("isocheck: " + missing + ": no such file or directory");
        }

        @Test
        void reportsOfTwoHistoriesNeverShareAName() throws IOException {
            Path first = Files.createDirectories(dir.resolve("a")).resolve("b_c.jsonl");
            Path second = Files.createDirectories(dir.resolve("a_b")).resolve("c.jsonl");
            Files.writeString(first, LOST_UPDATE);
            Files.writeString(second, LOST_UPDATE);
            Path reports = dir.resolve("reports");

            assertThat(check("--report", reports.toString(), dir.toString())).isEqualTo(1);

            Path one = reports.resolve(ReportPages.name(first));
            Path other = reports.resolve(ReportPages.name(second));
            assertThat(one).isNotEqualTo(other);
            try (var pages = Files.list(reports)) {
                assertThat(pages).containsExactlyInAnyOrder(one, other);
            }
            assertThat(Files.readString(one)).contains("History: <code>" + first + "</code>");
            assertThat(Files.readString(other)).contains("History: <code>" + second + "</code>");
            assertThat(out()).contains("  report: " + one + "\n").contains("  report: " + other + "\n");
        }

        @Test
        void reportNamesEncodeThePathOneToOne() {
            assertThat(ReportPages.name(Path.of("a/b_c.jsonl"))).isEqualTo("a__b_005fc.jsonl.html");
            assertThat(ReportPages.name(Path.of("a_b/c.jsonl"))).isEqualTo("a_005fb__c.jsonl.html");
            assertThat(ReportPages.name(Path.of("/tmp/x y/é.jsonl"))).isEqualTo("__tmp__x_0020y___00e9.jsonl.html");
            assertThat(ReportPages.name(Path.of("./d/../h.jsonl"))).isEqualTo("h.jsonl.html");
            String deep = "d/".repeat(150) + "h.jsonl";
            String name = ReportPages.name(Path.of(deep));
            assertThat(name).hasSizeLessThanOrEqualTo(ReportPages.MAX_NAME).endsWith("__d__d__h.jsonl.html")
                    .isNotEqualTo(ReportPages.name(Path.of("e/" + deep)));
        }
    }
}
