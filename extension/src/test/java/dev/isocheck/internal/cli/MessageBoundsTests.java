package dev.isocheck.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("a message quotes at most a bounded part of the input (issue 30)")
class MessageBoundsTests {

    private static final String HUGE = "x".repeat(1_000_000);

    @TempDir
    Path dir;

    @Test
    void anArgumentIsQuotedBounded() {
        for (String option : new String[] {"--level", "--format", "--timeout"}) {
            CommandRun run = CommandRun.of("check", option, HUGE, "x.jsonl");

            assertThat(run.status()).isEqualTo(2);
            String line = run.err().lines().findFirst().orElseThrow();
            assertThat(line).as(option).hasSizeLessThan(600).contains("x".repeat(200) + "… (999,800 more characters)");
        }
        CommandRun unknown = CommandRun.of("check", "--" + HUGE, "x.jsonl");
        assertThat(unknown.err().lines().findFirst().orElseThrow()).hasSizeLessThan(700).contains("more characters)");
    }

    @Test
    void aReadersProblemIsQuotedBounded() throws IOException {
        Path history = Files.writeString(dir.resolve("huge.jsonl"), "{\"id\": \"T1\", \"ops\": [{\"op\": \"" + HUGE
                + "\", \"key\": \"x\", \"value\": 1}]}\n");

        CommandRun run = CommandRun.of("check", history.toString());

        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).hasLineCount(1).startsWith("isocheck: " + history + ":1: ").contains("more characters)");
        assertThat(run.err().length()).isLessThan(history.toString().length() + 400);

        CommandRun json = CommandRun.of("check", "--json", history.toString());
        assertThat(json.out().length()).isLessThan(2 * history.toString().length() + 500);
    }
}
