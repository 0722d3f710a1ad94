package dev.isocheck.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("check: what a reader warns of is on stderr, the verdict on stdout")
class ReaderWarningsTests {

    @Test
    void misspeltFieldsAreWarnedOfBesideTheVerdict() throws URISyntaxException {
        Path misspelt = Path.of(ReaderWarningsTests.class.getResource("/format/misspelt-fields.jsonl").toURI());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int status = Main.run(new String[] {"check", misspelt.toString()}, name -> null,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

        // The pass is what the misspellings make of a violation: the warnings are what tell the user.
        assertThat(status).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith(misspelt + ": OK");
        assertThat(err.toString(StandardCharsets.UTF_8).lines()).containsExactly(
                "isocheck: warning: " + misspelt + ":2: unknown field \"compelte\" in the initial state, ignored;"
                        + " did you mean \"complete\"?",
                "isocheck: warning: " + misspelt + ":3: unknown field \"sesion\" in a transaction, ignored;"
                        + " did you mean \"session\"? (and 1 more time)",
                "isocheck: warning: " + misspelt + ":3: unknown field \"stauts\" in a transaction, ignored;"
                        + " did you mean \"status\"? (and 1 more time)",
                "isocheck: warning: " + misspelt + ":4: unknown field \"opps\" in a transaction, ignored;"
                        + " did you mean \"ops\"?");
    }
}
