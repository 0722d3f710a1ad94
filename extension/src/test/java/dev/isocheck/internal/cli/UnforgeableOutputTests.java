package dev.isocheck.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("text output cannot be forged by the names a history holds (issue 30)")
class UnforgeableOutputTests {

    @TempDir
    Path dir;

    /** Every line is the verdict line, or indented under it, and holds no character a terminal acts on. */
    private static void assertEveryLineIsOneTheCommandWrote(String out, String verdictLine) {
        List<String> lines = out.lines().toList();
        assertThat(lines.get(0)).isEqualTo(verdictLine);
        assertThat(lines.subList(1, lines.size())).allSatisfy(line -> assertThat(line).matches("(  .*)?"));
        assertThat(out.replace("\n", "").codePoints()).allSatisfy(c -> assertThat(c >= 0x20 && c != 0x7f
                && !(c >= 0x80 && c <= 0x9f) && c != 0x202e && c != 0x2066 && c != 0x200f && c != 0x2028)
                .as("U+%04X", c).isTrue());
    }

    @Test
    void idsKeysSessionsThreadsStatementsAndValuesAreEscaped() {
        Path forged = CommandRun.resource("forged-names.jsonl");

        CommandRun run = CommandRun.of("check", forged.toString());

        assertThat(run.status()).isEqualTo(1);
        assertThat(run.err()).isEmpty();
        assertEveryLineIsOneTheCommandWrote(run.out(), forged + ": VIOLATION G2-item (lost update)");
        assertThat(run.out()).doesNotContain("\nnl2.jsonl: OK", "\ngood.jsonl: OK", "\nnl3.jsonl: OK").contains(
                "T1\\nnl2.jsonl: OK",                              // an id holding a newline and a verdict line
                "T2\\u001b[2K\\rgood.jsonl: OK",                   // one that erases the line and starts it again
                "acc\\u202egnp.exe\\u0085",                        // a key reversed by U+202E, with a C1 newline
                "session s\\u001b]0;pwned\\u0007",                 // a session setting the terminal's title
                "thread worker\\u2066\\u202e1",                    // a thread with bidirectional isolates
                "Dao.read\\u200f: SELECT v FROM acc WHERE id = ?\\nnl3.jsonl: OK  [1\\r\\n]", // a statement and its parameter
                "[\\u009b31m, 1]",                                 // a parameter holding the C1 CSI
                "\"one\\u202e\\u2028\"");                          // a value (JSON escapes only C0) with a bidi control
    }

    @Test
    void caveatsAreEscaped() {
        Path forged = CommandRun.resource("forged-caveat.jsonl");

        CommandRun run = CommandRun.of("check", forged.toString());

        assertThat(run.status()).isZero();
        assertEveryLineIsOneTheCommandWrote(run.out(), forged + ": OK (with caveats)");
        assertThat(run.out()).contains("doctors\\u001b[0m where lower(name) = 'x'\\nforged.jsonl: OK");
    }

    @Test
    void fileNamesAreEscapedInVerdictsReportsAndErrors() throws IOException {
        Path forged = Files.copy(CommandRun.resource("forged-names.jsonl"), dir.resolve("a\nb.jsonl: OK\u001b[0m.jsonl"));
        Path missing = dir.resolve("gone\u202eldsj.jsonl");
        Path reports = dir.resolve("reports\r");

        CommandRun run = CommandRun.of("check", "--report", reports.toString(), forged.toString(), missing.toString());

        String escaped = dir + "/a\\nb.jsonl: OK\\u001b[0m.jsonl";
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.out()).startsWith(escaped + ": VIOLATION G2-item (lost update)\n")
                .contains("\n  report: " + dir + "/reports\\r/").doesNotContain("\r", "\u001b");
        assertThat(run.err()).isEqualTo("isocheck: " + dir + "/gone\\u202eldsj.jsonl: no such file or directory\n");
    }

    @Test
    void usageErrorsEscapeWhatTheyQuote() {
        CommandRun run = CommandRun.of("check", "--level", "serializable\nx.jsonl: OK", "x.jsonl");

        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err().lines().findFirst()).contains("isocheck: unknown isolation level 'serializable\\nx.jsonl: OK';"
                + " the levels are strict-serializable, serializable, snapshot-isolation, prefix, causal, read-atomic, read-committed");
    }
}
