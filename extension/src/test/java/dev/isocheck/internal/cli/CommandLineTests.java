package dev.isocheck.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("the command line (issue 30): picocli's usage, help, version, completion and exit statuses")
class CommandLineTests {

    /** The whole help of check: a change to an option's text must be a deliberate one, made here too. */
    static final String CHECK_HELP = """
            Usage: isocheck check [-hV] [--level=LEVEL | --classify] [--format=FORMAT]
                                  [--timeout=DURATION] [--json] [--report=DIR]
                                  [--rounds [--round-size=N]
                                  [--follow [--follow-idle=DURATION]]] [--] FILE_OR_DIR...
            Checks each history at an isolation level and prints one result per history:
            OK, VIOLATION with its explanation, or UNKNOWN with the reason.
                  FILE_OR_DIR...            A history file (*.jsonl, *.bincode, either
                                              possibly gzipped: *.gz), a directory to
                                              search for histories (or a Cobra directory of
                                              *.log), or - for standard input.
                  --level=LEVEL             The level to check: serializable (default),
                                              strict-serializable, snapshot-isolation,
                                              prefix, causal, read-atomic, read-committed.
                  --classify[=true|false]   Name the weakest level each history violates
                                              (of read-committed, read-atomic, causal,
                                              prefix, snapshot-isolation, serializable),
                                              explained at that level. Takes no --level.
                  --format=FORMAT           The histories' format: jsonl, dbcop, cobra (a
                                              directory of *.log, read as the logs
                                              declare), cobra-unique or cobra-duplicates
                                              (force a reading). By default *.jsonl is
                                              jsonl and *.bincode dbcop, gzipped (*.gz) or
                                              not, and - is told by its content.
                  --timeout=DURATION        Give up on a history DURATION after starting to
                                              read it (500ms, 30s, 5m, 1h, 1m30s; default
                                              10m): it is UNKNOWN, and the next history is
                                              checked.
                  --json[=true|false]       Print one JSON object per history instead of
                                              text.
                  --report=DIR              Write an HTML page explaining each violation
                                              into DIR (created if needed).
                  --rounds[=true|false]     Check each history in rounds as it is read, in
                                              memory bounded by what later rounds can need
                                              (JSON Lines, every transaction timed, in the
                                              order they ended): strict serializability
                                              decided exactly; a weaker level satisfied
                                              when it holds, violated where a violation's
                                              own transactions show it. --timeout limits
                                              each round.
                  --round-size=N            With --rounds: transactions read per round
                                              (default 100000).
                  --follow[=true|false]     With --rounds: read a file still being written
                                              as it grows, until it stops growing for
                                              --follow-idle.
                  --follow-idle=DURATION    With --follow: how long a file may stop growing
                                              before its end is its end (default 10s).
              -h, --help                    Show this help message and exit.
              -V, --version                 Print version information and exit.
              --                            This option can be used to separate
                                              command-line options from the list of
                                              positional parameters.

            Exit status:
              0   Every history satisfies the level (with or without caveats).
              1   A history violates it.
              2   The command line or an input is invalid, a history has nothing to check,
                    or one was not decided (UNKNOWN).

            Verdicts go to standard output; errors, and warnings of what a reader did not
            understand, to standard error. The history format and the output:
            docs/history-format.md.
            """;

    static final String ISOCHECK_HELP = """
            Usage: isocheck [-hV] COMMAND
            Checks recorded database histories at an isolation level.
              -h, --help      Show this help message and exit.
              -V, --version   Print version information and exit.

            Commands:
              check                Checks each history at an isolation level and prints one
                                     result per history: OK, VIOLATION with its
                                     explanation, or UNKNOWN with the reason.
              help                 Display help information about the specified command.
              generate-completion  Generate bash/zsh completion script for isocheck.

            Run 'isocheck help COMMAND' or 'isocheck COMMAND --help' for a command's
            options.
            """;

    private static final String SERIAL = """
            {"init": {"x": 0}, "complete": true}
            {"id": "T1", "session": "a", "ops": [{"op": "read", "key": "x", "value": 0}, {"op": "write", "key": "x", "value": 1}]}
            """;

    @TempDir
    Path dir;

    @Test
    void helpIsTheWholeUsageOnStandardOutputAndExitZero() {
        for (String[] args : new String[][] {{"check", "--help"}, {"check", "-h"}, {"help", "check"}}) {
            CommandRun run = CommandRun.of(args);
            assertThat(run.status()).as(String.join(" ", args)).isZero();
            assertThat(run.out()).isEqualTo(CHECK_HELP);
            assertThat(run.err()).isEmpty();
        }
        CommandRun top = CommandRun.of("--help");
        assertThat(top.status()).isZero();
        assertThat(top.out()).isEqualTo(ISOCHECK_HELP);
        assertThat(CommandRun.of("help").out()).isEqualTo(ISOCHECK_HELP);
    }

    @Test
    void versionIsTheProjectsOnStandardOutput() {
        for (String[] args : new String[][] {{"--version"}, {"-V"}, {"check", "--version"}}) {
            CommandRun run = CommandRun.of(args);
            assertThat(run.status()).as(String.join(" ", args)).isZero();
            // The POM's version, filtered into the resource: a placeholder left unfiltered fails here.
            assertThat(run.out()).matches("isocheck \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\n");
            assertThat(run.err()).isEmpty();
        }
        assertThat(CommandRun.of("--version").out()).isEqualTo("isocheck " + Version.current() + "\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "frobnicate", "check", "check --frobnicate x.jsonl", "check --level", "check --level wrong x.jsonl",
        "check --timeout soon x.jsonl", "check --json=maybe x.jsonl", "check --classify --level causal x.jsonl"})
    void aUsageErrorIsOneLineAndTheUsageOnStandardErrorNothingOnStandardOutputAndExitTwo(String line) {
        String[] args = line.isEmpty() ? new String[0] : line.split(" ");

        CommandRun run = CommandRun.of(args);

        assertThat(run.status()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith("isocheck: ").doesNotContain("Exception");
        String usage = args.length > 0 && args[0].equals("check") ? CHECK_HELP : ISOCHECK_HELP;
        assertThat(run.err().lines().skip(1).toList()).as("the usage after the one line (and suggestions)")
                .containsSubsequence(usage.lines().toList());
    }

    @Test
    void usageErrorsNameWhatIsWrong() {
        assertThat(CommandRun.of().err()).startsWith("isocheck: no command given (check a history with 'isocheck check')\n");
        assertThat(CommandRun.of("frobnicate").err()).startsWith("isocheck: unknown command 'frobnicate'\n");
        assertThat(CommandRun.of("check").err())
                .startsWith("isocheck: no history file or directory given (a file, a directory, or - for standard input)\n");
        assertThat(CommandRun.of("check", "--frobnicate", "x.jsonl").err()).startsWith("isocheck: unknown option: '--frobnicate'\n");
        assertThat(CommandRun.of("check", "--level").err())
                .startsWith("isocheck: missing required parameter for option '--level' (LEVEL)\n");
        assertThat(CommandRun.of("check", "--json=maybe", "x.jsonl").err())
                .startsWith("isocheck: invalid value for option '--json': 'maybe' is not a boolean\n");
        assertThat(CommandRun.of("check", "--format", "csv", "x.jsonl").err())
                .startsWith("isocheck: unknown format 'csv'; the formats are jsonl, dbcop, cobra, cobra-unique, cobra-duplicates\n");
    }

    @Test
    void doubleDashEndsTheOptions() throws IOException {
        Path serial = Files.writeString(dir.resolve("serial.jsonl"), SERIAL);

        CommandRun run = CommandRun.of("check", "--", "--json", serial.toString());

        // "--json" is a file's name here: missing, so exit 2; the history is checked, in text.
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.out()).isEqualTo(serial + ": OK\n");
        assertThat(run.err()).isEqualTo("isocheck: --json: no such file or directory\n");
    }

    @Test
    void booleanOptionsTakeAnOptionalTrueOrFalse() throws IOException {
        Path serial = Files.writeString(dir.resolve("serial.jsonl"), SERIAL);

        assertThat(CommandRun.of("check", "--json=false", serial.toString()).out()).isEqualTo(serial + ": OK\n");
        assertThat(CommandRun.of("check", "--json", "false", serial.toString()).out()).isEqualTo(serial + ": OK\n");
        assertThat(CommandRun.of("check", "--json=true", serial.toString()).out()).startsWith("{\"file\":");
        assertThat(CommandRun.of("check", "--json", serial.toString()).out()).startsWith("{\"file\":");
        // --classify=false is no --classify, so --level is allowed beside it.
        CommandRun notClassifying = CommandRun.of("check", "--classify=false", "--level", "causal", serial.toString());
        assertThat(notClassifying.status()).isZero();
        assertThat(notClassifying.out()).isEqualTo(serial + ": OK\n");
        assertThat(CommandRun.of("check", "--classify=true", serial.toString()).out())
                .isEqualTo(serial + ": OK\n  weakest level violated: none (serializable)\n");
    }

    @Test
    void theLastOfARepeatedOptionWinsAsItAlwaysHas() throws IOException {
        Path serial = Files.writeString(dir.resolve("serial.jsonl"), SERIAL);

        CommandRun run = CommandRun.of("check", "--json", "--level", "causal", "--level", "serializable", serial.toString());

        assertThat(run.status()).isZero();
        assertThat(run.out()).contains("\"level\":\"serializable\"");
    }

    @Test
    void anAtSignBeginsAFileNameNotAFileOfArguments() throws IOException {
        Path at = Files.writeString(dir.resolve("@serial.jsonl"), SERIAL);

        assertThat(CommandRun.of("check", at.toString()).out()).isEqualTo(at + ": OK\n");
    }

    @Test
    void generateCompletionWritesABashScriptThatKnowsTheOptionsAndTheirValues() {
        CommandRun run = CommandRun.of("generate-completion");

        assertThat(run.status()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(run.out()).startsWith("#!/usr/bin/env bash").contains("complete -F _complete_isocheck")
                .contains("--level", "--classify", "--format", "--timeout", "--json", "--report")
                .contains("\"snapshot-isolation\"", "\"read-committed\"", "\"cobra-duplicates\"");
    }
}
