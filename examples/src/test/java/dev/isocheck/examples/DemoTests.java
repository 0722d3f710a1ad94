package dev.isocheck.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's first command keeps working: the demo runs, reports, and never fails SERIALIZABLE. */
class DemoTests {

    @TempDir
    Path directory;

    @Test
    void theDemoPrintsAVerdictPerRunAndWritesEveryHistory() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int violations = Demo.run(new PrintStream(bytes, true, StandardCharsets.UTF_8), directory);
        String printed = bytes.toString(StandardCharsets.UTF_8);

        assertThat(printed).contains("starting PostgreSQL", "The bank.", "The on-call rota.");
        // The gate lets the two requests through a statement of each in turn: at READ COMMITTED and
        // REPEATABLE READ both applications' write skew shows on every run, with no latch or delay.
        assertThat(violations).isEqualTo(4);
        assertThat(printed).contains("statements in the order ABAB", "(A = pay-bob, B = pay-carol)", "(A = alice, B = bob)");
        for (String application : new String[] {"bank", "rota"}) {
            for (String level : new String[] {"read-committed", "repeatable-read", "serializable"}) {
                assertThat(directory.resolve(application + "-" + level + ".jsonl")).isRegularFile();
            }
            // PostgreSQL's SERIALIZABLE must pass the check, whatever the timing: a violation there
            // would be a false alarm of the recorder or the checker (or a PostgreSQL bug).
            assertThat(directory.resolve(application + "-serializable.html")).doesNotExist();
        }
        assertThat(printed.lines().filter(l -> l.contains("isocheck: VIOLATION"))).hasSize(violations);
        assertThat(printed.lines().filter(l -> l.contains("isocheck: OK, serializable"))).hasSize(6 - violations);
        if (violations > 0) {
            assertThat(printed).contains("| isocheck: the transactions of the ", "(write skew) at serializable");
        }
    }
}
