package dev.isocheck.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.format.SampleHistories;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("standard input (-) and gzip files (*.gz), issue 30")
class StandardInputAndGzipTests {

    private static final String LOST_UPDATE = """
            {"init": {"x": 0}, "complete": true}
            {"id": "T1", "ops": [{"op": "read", "key": "x", "value": 0}, {"op": "write", "key": "x", "value": 1}]}
            {"id": "T2", "ops": [{"op": "read", "key": "x", "value": 0}, {"op": "write", "key": "x", "value": 2}]}
            """;
    private static final String SERIAL = """
            {"init": {"x": 0}, "complete": true}
            {"id": "T1", "session": "a", "ops": [{"op": "read", "key": "x", "value": 0}, {"op": "write", "key": "x", "value": 1}]}
            """;
    private static final Path DBCOP = SampleHistories.veristrong("fig11/ser/dbcop/chengRW-1000/history.bincode");

    @TempDir
    Path dir;

    private static ByteArrayInputStream input(byte[] bytes) {
        return new ByteArrayInputStream(bytes);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] gzip(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    @Test
    void jsonLinesOnStandardInputIsToldByItsContent() {
        CommandRun run = CommandRun.withInput(input(utf8("\n  // recorded by hand\n" + LOST_UPDATE)), "check", "-");

        assertThat(run.status()).isEqualTo(1);
        assertThat(run.out()).startsWith("<stdin>: VIOLATION G2-item (lost update)\n");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void standardInputIsCheckedAmongFilesInArgumentOrderAndNamedSoInJson() throws IOException {
        Path serial = Files.writeString(dir.resolve("serial.jsonl"), SERIAL);

        CommandRun run = CommandRun.withInput(input(utf8(SERIAL)), "check", "--json", serial.toString(), "-");

        assertThat(run.status()).isZero();
        assertThat(run.out().lines()).hasSize(2);
        assertThat(run.out().lines().toList().get(1)).startsWith("{\"file\":\"<stdin>\",\"level\":\"serializable\",\"verdict\":\"ok\"");
    }

    @Test
    void gzipOnStandardInputIsToldByItsMagicBytes() {
        CommandRun run = CommandRun.withInput(input(gzip(utf8(LOST_UPDATE))), "check", "-");

        assertThat(run.status()).isEqualTo(1);
        assertThat(run.out()).startsWith("<stdin>: VIOLATION G2-item (lost update)\n");
    }

    @Test
    void dbcopOnStandardInputIsReadWhenNamedAndNeverGuessed() throws IOException {
        byte[] sample = Files.readAllBytes(DBCOP);

        CommandRun named = CommandRun.withInput(input(sample), "check", "--format", "dbcop", "-");
        assertThat(named.status()).as(named.err()).isZero();
        assertThat(named.out()).isEqualTo("<stdin>: OK\n");

        CommandRun unnamed = CommandRun.withInput(input(sample), "check", "-");
        assertThat(unnamed.status()).isEqualTo(2);
        assertThat(unnamed.out()).isEmpty();
        assertThat(unnamed.err()).isEqualTo("isocheck: <stdin>: cannot tell the history's format from its content: it does"
                + " not begin as JSON Lines does (with '{' or a '//' comment), and dbcop's binary format has nothing to tell"
                + " it by; name the format with --format (jsonl or dbcop)\n");
    }

    @Test
    void aMalformedHistoryOnStandardInputIsNamedSoWithItsLine() {
        CommandRun run = CommandRun.withInput(input(utf8(SERIAL + "{\"id\": \"T9\", \"ops\": [{\"op\": \"raed\"}]}\n")), "check", "-");

        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).startsWith("isocheck: <stdin>:3: ").contains("raed").doesNotContain("isocheck-");
    }

    @Test
    void standardInputIsReadOnceAndIsNoDirectory() {
        CommandRun twice = CommandRun.withInput(input(utf8(SERIAL)), "check", "-", "-");
        assertThat(twice.status()).isEqualTo(2);
        assertThat(twice.out()).isEmpty();
        assertThat(twice.err()).startsWith("isocheck: - (standard input) is named 2 times; it can be read once\nUsage: ");

        CommandRun cobra = CommandRun.withInput(input(utf8(SERIAL)), "check", "--format", "cobra", "-");
        assertThat(cobra.status()).isEqualTo(2);
        assertThat(cobra.err()).startsWith("isocheck: --format cobra reads a directory of logs, which standard input (-) cannot be\n");
    }

    @Test
    void gzipFilesAreReadThroughAndFoundInDirectories() throws IOException {
        Path lost = Files.write(dir.resolve("a-lost-update.jsonl.gz"), gzip(utf8(LOST_UPDATE)));
        Path dbcop = Files.write(Files.createDirectory(dir.resolve("b-dbcop")).resolve("history.bincode.gz"),
                gzip(Files.readAllBytes(DBCOP)));
        Path serial = Files.writeString(dir.resolve("c-serial.jsonl"), SERIAL);

        CommandRun one = CommandRun.of("check", lost.toString());
        assertThat(one.status()).isEqualTo(1);
        assertThat(one.out()).startsWith(lost + ": VIOLATION G2-item (lost update)\n");

        CommandRun all = CommandRun.of("check", "--level", "read-committed", dir.toString());
        assertThat(all.err()).isEmpty();
        assertThat(all.out()).isEqualTo(lost + ": OK\n" + dbcop + ": OK\n" + serial + ": OK\n");
        assertThat(all.status()).isZero();
    }

    @Test
    void aGzipFileWhoseInnerNameSaysNoFormatGetsAHintAndCanBeNamed() throws IOException {
        Path notes = Files.write(dir.resolve("history.gz"), gzip(utf8(LOST_UPDATE)));

        CommandRun unnamed = CommandRun.of("check", notes.toString());
        assertThat(unnamed.status()).isEqualTo(2);
        assertThat(unnamed.err()).isEqualTo("isocheck: " + notes + ": unknown history format: a gzip file whose name without"
                + " .gz, history, is neither *.jsonl nor *.bincode; name the format with --format (jsonl or dbcop)\n");

        CommandRun named = CommandRun.of("check", "--format", "jsonl", notes.toString());
        assertThat(named.status()).isEqualTo(1);
        assertThat(named.out()).startsWith(notes + ": VIOLATION ");
    }

    @Test
    void aBrokenGzipFileIsOneLineNamingIt() throws IOException {
        byte[] whole = gzip(utf8(LOST_UPDATE));
        Path truncated = Files.write(dir.resolve("truncated.jsonl.gz"), Arrays.copyOf(whole, whole.length / 2));
        Path plain = Files.writeString(dir.resolve("plain.jsonl.gz"), LOST_UPDATE);
        Path malformed = Files.write(dir.resolve("malformed.jsonl.gz"), gzip(utf8(SERIAL + "{\"id\": 3, \"ops\": 7}\n")));

        CommandRun run = CommandRun.of("check", truncated.toString(), plain.toString(), malformed.toString());

        assertThat(run.status()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err().lines()).hasSize(3);
        assertThat(run.err().lines().toList().get(0)).isEqualTo("isocheck: " + truncated + ": the gzip data ends early (a truncated file?)");
        assertThat(run.err().lines().toList().get(1)).isEqualTo("isocheck: " + plain
                + ": not gzip data (a *.gz history must be gzip-compressed)");
        // The reader's line, said of the file named, not of the copy decompressed.
        assertThat(run.err().lines().toList().get(2)).startsWith("isocheck: " + malformed + ":3: ").doesNotContain("isocheck-");
    }
}
