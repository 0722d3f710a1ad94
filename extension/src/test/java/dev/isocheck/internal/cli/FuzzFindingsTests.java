package dev.isocheck.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@link ReaderFuzzTests} found, kept as regular tests: each input is rebuilt here from a
 * seed history in the repository ({@code src/test/resources/fuzz/seeds/}) by the mutation that
 * broke it, and held to the fuzz test's rules ({@link ReaderFuzzTests.OutputRules}) and to what
 * the fix promises.
 */
@DisplayName("fuzz findings: inputs the fuzz test found, replayed")
class FuzzFindingsTests {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int check(Path history) {
        return Main.run(new String[] {"check", "--timeout", "5s", history.toString()}, name -> null,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    /** A seed history's text, by its file name. */
    private static String seed(String name) {
        return FuzzInput.seeds().stream().filter(s -> s.name().equals(name)).findFirst()
                .map(s -> new String(s.bytes(), StandardCharsets.UTF_8))
                .orElseThrow(() -> new IllegalStateException("no seed history " + name));
    }

    /**
     * Seed 12345, input 4238: lost-update.jsonl with its first transaction id replaced by two
     * million a's (and LF CR line ends). The violation's text cut the id into lines by copying what
     * was left of it once per line, quadratic time: over a minute on a loaded machine, a hang to
     * the user. Cut by offsets, it takes a second or so. Replayed with five million, which the old
     * cutting would take many minutes over on any machine, so that the bound below tells the two
     * apart.
     */
    @Test
    @Timeout(300)
    void aTransactionIdOfMillionsOfCharactersIsExplainedInSeconds() throws IOException {
        String history = seed("lost-update.jsonl").replace("\"T1\"", "\"" + "a".repeat(5_000_000) + "\"")
                .replace("\n", "\n\r");
        Path file = Files.writeString(dir.resolve("lost-update.jsonl"), history);

        long started = System.nanoTime();
        int status = check(file);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        String stdout = out.toString(StandardCharsets.UTF_8);
        assertThat(ReaderFuzzTests.OutputRules.violation(status, stdout, err.toString(StandardCharsets.UTF_8), file)).isEmpty();
        assertThat(status).isEqualTo(1);
        assertThat(stdout).startsWith(file + ": VIOLATION G2-item (lost update)");
        // Linear, about a second; quadratic, minutes. The bound leaves room for a slow, loaded machine.
        assertThat(took).isLessThan(Duration.ofSeconds(20));
    }

    /**
     * The issue's own: a predicate read's {@code where} with unclosed parentheses, on which the
     * SQL parser backtracks for minutes. The parse is given up on at its bound (two seconds), and
     * the clause is one the checker does not evaluate: the history is decided, the read a caveat.
     */
    @Test
    @Timeout(120)
    void aWhereClauseWithUnclosedParenthesesIsDecidedInSeconds() throws IOException {
        String history = seed("bank-transfers.jsonl").replace("\"balance >= 100\"", "\"(((( balance >= 100\"");
        assertThat(history).contains("(((( balance");
        Path file = Files.writeString(dir.resolve("bank-transfers.jsonl"), history);

        long started = System.nanoTime();
        int status = check(file);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        String stdout = out.toString(StandardCharsets.UTF_8);
        assertThat(ReaderFuzzTests.OutputRules.violation(status, stdout, err.toString(StandardCharsets.UTF_8), file)).isEmpty();
        assertThat(status).isIn(0, 1);
        assertThat(stdout).doesNotContain("UNKNOWN");
        assertThat(took).isLessThan(Duration.ofSeconds(30));
    }
}
