package dev.isocheck.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.format.JsonlHistoryWriter;
import dev.isocheck.history.History;
import dev.isocheck.internal.simulate.HistoryGenerator;
import dev.isocheck.internal.simulate.SimulatedDatabase;
import dev.isocheck.internal.simulate.Workload;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("check --rounds and --follow (issue 36): a history checked as it is read")
class RoundsCommandTests {

    @TempDir
    Path dir;

    private Path write(History h, String name) throws IOException {
        Path file = dir.resolve(name);
        new JsonlHistoryWriter().write(h, file);
        return file;
    }

    private static History generated(SimulatedDatabase database, long seed) {
        Workload w = Workload.defaults().withSessions(4, 40).withMix(3, 3, 1, 0).withRecordTimes(true);
        return new HistoryGenerator(w, database).generate(seed).history();
    }

    /** In rounds of a few transactions, the command answers what it answers for the whole file. */
    @Test
    void roundsGiveTheWholeFilesExitStatus() throws IOException {
        int violations = 0;
        for (SimulatedDatabase database : List.of(SimulatedDatabase.serial(), SimulatedDatabase.lostUpdate(0.2),
                SimulatedDatabase.staleRead(0.1), SimulatedDatabase.snapshotIsolation())) {
            for (long seed = 1; seed <= 5; seed++) {
                Path file = write(generated(database, seed), database + "-" + seed + ".jsonl");
                CommandRun whole = CommandRun.of("check", "--level=strict-serializable", file.toString());
                CommandRun rounds = CommandRun.of("check", "--level=strict-serializable", "--rounds", "--round-size=12", file.toString());
                assertThat(rounds.status()).as("%s\n%s%s", file, rounds.out(), rounds.err()).isEqualTo(whole.status());
                assertThat(rounds.err()).contains("rounds, 160 transactions, at most ");
                if (whole.status() == CheckCommand.EXIT_VIOLATION) {
                    violations++;
                    assertThat(rounds.out()).contains(": VIOLATION ");
                }
            }
        }
        assertThat(violations).isGreaterThan(5);
    }

    @Test
    void aFileOutOfOrderIsRefusedNamingTheLineAndTheTransaction() throws IOException {
        Path file = dir.resolve("late.jsonl");
        StringBuilder lines = new StringBuilder();
        for (int i = 1; i <= 20; i++) {
            lines.append("{\"id\": \"T").append(i).append("\", \"start\": ").append(10 * i).append(", \"end\": ")
                    .append(10 * i + 5).append(", \"ops\": [{\"op\": \"write\", \"key\": \"x\", \"value\": ").append(i)
                    .append("}]}\n");
        }
        lines.append("{\"id\": \"old\", \"start\": 1, \"end\": 300, \"ops\": []}\n");
        Files.writeString(file, lines);
        CommandRun run = CommandRun.of("check", "--rounds", "--round-size=8", file.toString());
        assertThat(run.status()).isEqualTo(CheckCommand.EXIT_INVALID);
        assertThat(run.err()).contains(file + ":21: transaction old starts at 1, before ");
    }

    @Test
    void aTransactionWithoutTimesIsRefused() throws IOException {
        Path file = dir.resolve("untimed.jsonl");
        Files.writeString(file, "{\"id\": \"T1\", \"ops\": [{\"op\": \"write\", \"key\": \"x\", \"value\": 1}]}\n");
        CommandRun run = CommandRun.of("check", "--rounds", file.toString());
        assertThat(run.status()).isEqualTo(CheckCommand.EXIT_INVALID);
        assertThat(run.err()).contains("transaction T1 has no start time");
    }

    @Test
    void followWithoutRoundsIsAUsageError() {
        CommandRun run = CommandRun.of("check", "--follow", "x.jsonl");
        assertThat(run.status()).isEqualTo(CheckCommand.EXIT_INVALID);
        assertThat(run.err()).contains("--follow reads a history as it grows, which needs --rounds");
    }

    /** A file written while it is read: the violation in its second half is found once the writer stops. */
    @Test
    void followReadsAFileAsItGrows() throws Exception {
        History h = generated(SimulatedDatabase.lostUpdate(0.3), 3);
        Path all = write(h, "all.jsonl");
        CommandRun whole = CommandRun.of("check", "--level=strict-serializable", all.toString());
        assertThat(whole.status()).isEqualTo(CheckCommand.EXIT_VIOLATION);
        List<String> lines = Files.readAllLines(all);
        Path growing = dir.resolve("growing.jsonl");
        Files.writeString(growing, String.join("\n", lines.subList(0, lines.size() / 2)) + "\n");
        CompletableFuture<CommandRun> run = CompletableFuture.supplyAsync(() -> CommandRun.of("check",
                "--level=strict-serializable", "--rounds", "--round-size=10", "--follow", "--follow-idle=3s", growing.toString()));
        Thread.sleep(300);
        try (OutputStream out = Files.newOutputStream(growing, StandardOpenOption.APPEND)) {
            for (String line : lines.subList(lines.size() / 2, lines.size())) {
                out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        }
        CommandRun followed = run.get();
        assertThat(followed.status()).as(followed.out() + followed.err()).isEqualTo(CheckCommand.EXIT_VIOLATION);
        assertThat(followed.err()).contains(lines.size() - (lines.get(0).startsWith("{\"init\"") ? 1 : 0) + " transactions");
    }

    /**
     * At serializability, rounds say OK where the history is strictly serializable and UNKNOWN,
     * naming the violation, where it is not: a stale read is serializable.
     */
    @Test
    void aWeakerLevelIsSatisfiedWhenStrictlySerializableAndUnknownOtherwise() throws IOException {
        Path serial = write(generated(SimulatedDatabase.serial(), 1), "serial.jsonl");
        CommandRun ok = CommandRun.of("check", "--rounds", "--round-size=20", serial.toString());
        assertThat(ok.status()).as(ok.out() + ok.err()).isEqualTo(CheckCommand.EXIT_OK);
        assertThat(ok.out()).isEqualTo(serial + ": OK\n");
        Path stale = dir.resolve("stale.jsonl");
        Files.writeString(stale, """
                {"init": {"x": 0}, "complete": true}
                {"id": "W", "start": 0, "end": 10, "ops": [{"op": "write", "key": "x", "value": 1}]}
                {"id": "R", "start": 20, "end": 30, "ops": [{"op": "read", "key": "x", "value": 0}]}
                """);
        CommandRun whole = CommandRun.of("check", stale.toString());
        assertThat(whole.status()).isEqualTo(CheckCommand.EXIT_OK);
        CommandRun rounds = CommandRun.of("check", "--rounds", "--round-size=1", stale.toString());
        assertThat(rounds.status()).isEqualTo(CheckCommand.EXIT_INVALID);
        assertThat(rounds.out()).contains(": UNKNOWN not strictly serializable: ").contains("where the history is"
                + " strictly serializable", "none did; a check of the whole history decides serializable");
        CommandRun strict = CommandRun.of("check", "--rounds", "--round-size=1", "--level=strict-serializable", "--json",
                stale.toString());
        assertThat(strict.status()).isEqualTo(CheckCommand.EXIT_VIOLATION);
        assertThat(strict.out()).contains("\"verdict\":\"violation\"").contains("\"transactions\":null")
                .contains("W ended (at 10) before R started (at 20)");
    }

    /**
     * A lost update across rounds violates serializability too: its transactions, with the write
     * both read, show it, and nothing else wrote what they read.
     */
    @Test
    void aViolationOfAWeakerLevelItsTransactionsShowIsOneInRounds() throws IOException {
        Path lost = dir.resolve("lost.jsonl");
        Files.writeString(lost, """
                {"init": {"x": 0}, "complete": true}
                {"id": "T0", "start": 0, "end": 10, "ops": [{"op": "read", "key": "x", "value": 0}, {"op": "write", "key": "x", "value": 1}]}
                {"id": "T1", "start": 20, "end": 40, "ops": [{"op": "read", "key": "x", "value": 1}, {"op": "write", "key": "x", "value": 2}]}
                {"id": "T2", "start": 25, "end": 45, "ops": [{"op": "read", "key": "x", "value": 1}, {"op": "write", "key": "x", "value": 3}]}
                {"id": "T3", "start": 50, "end": 60, "ops": [{"op": "read", "key": "x", "value": 3}, {"op": "write", "key": "x", "value": 4}]}
                """);
        CommandRun rounds = CommandRun.of("check", "--rounds", "--round-size=1", lost.toString());
        assertThat(rounds.status()).as(rounds.out() + rounds.err()).isEqualTo(CheckCommand.EXIT_VIOLATION);
        assertThat(rounds.out()).contains("lost update").contains("at serializable").contains("T1").contains("T2");
    }

    @Test
    void nothingToCheckIsNoPassInRoundsEither() throws IOException {
        Path aborted = dir.resolve("aborted.jsonl");
        Files.writeString(aborted, "{\"id\": \"T1\", \"status\": \"aborted\", \"start\": 1, \"end\": 2, \"ops\": []}\n");
        CommandRun run = CommandRun.of("check", "--rounds", aborted.toString());
        assertThat(run.status()).isEqualTo(CheckCommand.EXIT_INVALID);
        assertThat(run.err()).contains(aborted + ": nothing to check: the history's 1 transaction all aborted");
        Path empty = dir.resolve("empty.jsonl");
        Files.writeString(empty, "");
        CommandRun none = CommandRun.of("check", "--rounds", empty.toString());
        assertThat(none.status()).isEqualTo(CheckCommand.EXIT_INVALID);
        assertThat(none.err()).contains(empty + ": nothing to check: the history has no transactions");
    }
}
