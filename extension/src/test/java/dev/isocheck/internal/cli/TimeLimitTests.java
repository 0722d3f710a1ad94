package dev.isocheck.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.isocheck.CheckOptions;
import dev.isocheck.RewrittenKeys;
import dev.isocheck.format.JsonlHistoryWriter;
import dev.isocheck.internal.engine.Checker;
import dev.isocheck.internal.reference.ReferenceChecker;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("--timeout covers a history from reading to verdict (issue 30)")
class TimeLimitTests {

    private static final String SERIAL = """
            {"init": {"x": 0}, "complete": true}
            {"id": "T1", "session": "a", "ops": [{"op": "read", "key": "x", "value": 0}, {"op": "write", "key": "x", "value": 1}]}
            """;

    @TempDir
    Path dir;

    /** Holds back what never ends until the test is over, so that the abandoned threads end then. */
    private final CountDownLatch over = new CountDownLatch(1);

    @AfterEach
    void release() {
        over.countDown();
    }

    /** Standard input left open: some lines of a history, then nothing, until the test is over. */
    private final class OpenInput extends InputStream {

        private final InputStream first = new ByteArrayInputStream(SERIAL.getBytes(StandardCharsets.UTF_8));

        @Override
        public int read() throws IOException {
            int b = first.read();
            if (b >= 0) {
                return b;
            }
            try {
                over.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return -1;
        }
    }

    @Test
    void aReadThatNeverEndsIsGivenUpAtTheDeadlineNamingTheStageAndTheNextHistoryIsChecked() throws IOException {
        Path serial = Files.writeString(dir.resolve("serial.jsonl"), SERIAL);
        long started = System.nanoTime();

        CommandRun run = CommandRun.withInput(new OpenInput(), "check", "--timeout", "1s", "-", serial.toString());

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(20));
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.out()).isEqualTo("<stdin>: UNKNOWN the time limit of 1s was exceeded while reading the history\n"
                + "  not decided: whether the history is serializable (UNKNOWN is not a pass)\n"
                + serial + ": OK\n");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void inJsonAHistoryGivenUpWhileReadingIsUnknownWithoutCounts() throws IOException {
        CommandRun run = CommandRun.withInput(new OpenInput(), "check", "--json", "--timeout", "500ms", "-");

        assertThat(run.status()).isEqualTo(2);
        JsonNode json = new ObjectMapper().readTree(run.out());
        assertThat(json.get("file").asText()).isEqualTo("<stdin>");
        assertThat(json.get("verdict").asText()).isEqualTo("unknown");
        assertThat(json.get("ok").isNull()).isTrue();
        assertThat(json.get("unknown").asText()).isEqualTo("the time limit of 500ms was exceeded while reading the history");
        assertThat(json.get("transactions").isNull()).isTrue();
        assertThat(json.get("loadMillis").isNull()).isTrue();
        assertThat(json.get("millis").asLong()).isGreaterThanOrEqualTo(500);
    }

    @Test
    void aCheckThatDoesNotStopAtItsLimitIsGivenUpTooAndTheNextHistoryIsChecked() throws IOException {
        Path first = Files.writeString(dir.resolve("a-first.jsonl"), SERIAL);
        Path second = Files.writeString(dir.resolve("b-second.jsonl"), SERIAL);
        // Deaf to its time limit on the first history (as a parse that backtracks for hours would be).
        Checker stuck = (history, level) -> {
            if (stuckOnce()) {
                try {
                    over.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return new ReferenceChecker().check(history, level);
        };
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CheckCommand command = new CheckCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), CheckOptions.defaults().withExplainTimeLimit(Duration.ZERO),
                stuck);
        long started = System.nanoTime();

        int status = command.run(new String[] {"--timeout", "1s", first.toString(), second.toString()});

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(20));
        assertThat(status).isEqualTo(2);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(first + ": UNKNOWN the time limit of 1s was exceeded"
                + " while checking serializable (the check did not stop at the limit)\n"
                + "  not decided: whether the history is serializable (UNKNOWN is not a pass)\n"
                + second + ": OK\n");
    }

    private boolean stuck;

    private synchronized boolean stuckOnce() {
        boolean first = !stuck;
        stuck = true;
        return first;
    }

    /**
     * The engine stops itself at what reading left of the limit, and says so in its own words, but
     * naming the limit the user gave: a slow read of a hard history is UNKNOWN "the time limit of
     * 1s was exceeded while …", whichever stage the time ran out in, never "of 700ms".
     */
    @Test
    void theEngineIsGivenWhatReadingLeftAndTheLimitNamedIsTimeout() throws IOException {
        ByteArrayOutputStream hard = new ByteArrayOutputStream();
        new JsonlHistoryWriter().write(RewrittenKeys.history(500, RewrittenKeys.SESSIONS, RewrittenKeys.KEYS,
                RewrittenKeys.VALUES, 14, RewrittenKeys.Layout.SESSION_BY_SESSION), hard);
        InputStream slow = new ByteArrayInputStream(hard.toByteArray()) {
            private boolean waited;

            @Override
            public synchronized int read(byte[] b, int off, int len) {
                if (!waited) {
                    waited = true;
                    try {
                        Thread.sleep(300);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return super.read(b, off, len);
            }
        };

        CommandRun run = CommandRun.withInput(slow, "check", "--timeout", "1s", "-");

        assertThat(run.status()).isEqualTo(2);
        assertThat(run.out()).startsWith("<stdin>: UNKNOWN the time limit of 1s was exceeded while ")
                .contains("\n  not decided: whether the history is serializable (UNKNOWN is not a pass)\n");
    }
}
