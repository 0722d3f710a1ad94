package dev.isocheck.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.internal.cli.FuzzInput.Kind;
import dev.isocheck.internal.cli.HistoryMutator.Mutated;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A seeded fuzz test of the three readers through the {@code check} command's real entry point,
 * {@link Main#run}: valid seed histories ({@code src/test/resources/fuzz/seeds/}) broken by
 * {@link HistoryMutator}, each checked with {@code --timeout 5s}. Bad input must never crash,
 * hang or go unlocated: each input ends within a hard wall-clock bound, exits 0, 1 or 2, prints no
 * stack trace, and every line on stderr names the file and a line or byte offset.
 *
 * <p>The default build runs {@value #DEFAULT_INPUTS} inputs from a fixed seed. A longer run, and
 * the replay of one input, are system properties ({@code docs/history-format.md}):
 * <pre>
 * mvn -B -o test -pl extension -Dtest=ReaderFuzzTests -Dfuzz.inputs=100000 -Dfuzz.seed=12345
 * mvn -B -o test -pl extension -Dtest=ReaderFuzzTests -Dfuzz.seed=12345 -Dfuzz.first=4711 -Dfuzz.inputs=1
 * </pre>
 * Input {@code i} is drawn from its own generator, seeded by the seed and {@code i}, so that it is
 * replayed alone. A failing input is kept under {@code target/fuzz-failures/} and named in the
 * failure with the command that replays it; what the fuzzer found is kept as a regular test with
 * its input in the repository ({@link FuzzFindingsTests}).
 */
@DisplayName("fuzz: malformed histories in the three formats end, located, without stack traces")
class ReaderFuzzTests {

    static final int DEFAULT_INPUTS = 3_000;
    private static final long SEED = Long.getLong("fuzz.seed", 30L);
    private static final int INPUTS = Integer.getInteger("fuzz.inputs", DEFAULT_INPUTS);
    private static final int FIRST = Integer.getInteger("fuzz.first", 0);
    /**
     * The hard bound on one input, reading and explaining included (which {@code --timeout} does
     * not cover). Generous, since this machine may be slow and shared; a hang is minutes.
     */
    private static final int WALL_SECONDS = Integer.getInteger("fuzz.wallSeconds", 60);
    /** Failures reported in detail before the run stops. */
    private static final int MAX_FAILURES = 5;
    private static final String[] LEVELS = {"serializable", "serializable", "serializable", "snapshot-isolation",
        "causal", "read-committed", "strict-serializable"};

    @TempDir
    Path dir;

    private final ExecutorService runner = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "fuzz-check");
        t.setDaemon(true);
        return t;
    });

    @AfterEach
    void stop() {
        runner.shutdownNow();
    }

    @Test
    void malformedHistoriesEndWithALocatedErrorOrAVerdict() throws Exception {
        List<FuzzInput> seeds = FuzzInput.seeds();
        assertThat(seeds).extracting(FuzzInput::kind).contains(Kind.JSONL, Kind.DBCOP, Kind.COBRA);
        List<String> failures = new ArrayList<>();
        int[] statuses = new int[3];
        long started = System.nanoTime();
        for (int i = FIRST; i < FIRST + INPUTS && failures.size() < MAX_FAILURES; i++) {
            Random random = new Random(SEED * 1_000_003L + i);
            FuzzInput seed = seeds.get(random.nextInt(seeds.size()));
            Mutated mutated = HistoryMutator.mutate(seed, random);
            Path inputDir = dir.resolve(Integer.toString(i));
            Path history = mutated.input().writeTo(inputDir);
            List<String> args = arguments(seed.kind(), history, random);
            Optional<String> failure = checkOne(args, history, statuses);
            if (failure.isPresent()) {
                Path kept = keep(history, i);
                failures.add("input " + i + " (seed history " + seed.name() + ": " + mutated.description() + ")\n  "
                        + failure.get().replace("\n", "\n  ") + "\n  kept at " + kept.toAbsolutePath()
                        + "\n  replay: mvn -B -o test -pl extension -Dtest=ReaderFuzzTests -Dfuzz.seed=" + SEED
                        + " -Dfuzz.first=" + i + " -Dfuzz.inputs=1\n  or: java -jar extension/target/isocheck.jar "
                        + String.join(" ", args).replace(history.toString(), kept.toAbsolutePath().toString()));
                if (failure.get().startsWith("did not end")) {
                    // The runner thread is stuck in that input: nothing after it would be measured.
                    break;
                }
            }
            delete(inputDir);
        }
        long seconds = (System.nanoTime() - started) / 1_000_000_000L;
        System.out.printf("fuzz: seed %d, inputs %d from %d, %d s; exit 0: %d, 1: %d, 2: %d%n", SEED, INPUTS, FIRST,
                seconds, statuses[0], statuses[1], statuses[2]);
        assertThat(failures).as("fuzz failures with seed %d (each input kept and replayable)", SEED).isEmpty();
        if (INPUTS >= 200) {
            // Most broken inputs are refused; a fuzzer whose inputs all pass or all fail the same way tests little.
            assertThat(statuses[2]).as("inputs refused").isPositive();
            assertThat(statuses[0] + statuses[1]).as("inputs checked").isPositive();
        }
    }

    /** The command line for one input: {@code check --timeout 5s}, a level, and sometimes a Cobra reading forced. */
    private static List<String> arguments(Kind kind, Path history, Random random) {
        List<String> args = new ArrayList<>(List.of("check", "--timeout", "5s", "--level", LEVELS[random.nextInt(LEVELS.length)]));
        if (kind == Kind.COBRA && random.nextBoolean()) {
            args.add("--format");
            args.add(random.nextBoolean() ? "cobra-unique" : "cobra-duplicates");
        }
        args.add(history.toString());
        return args;
    }

    /** Runs one input; empty when it met every expectation, else what it did wrong and what it printed. */
    private Optional<String> checkOne(List<String> args, Path history, int[] statuses) throws InterruptedException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Future<Integer> run = runner.submit(() -> Main.run(args.toArray(String[]::new), name -> null,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)));
        int status;
        try {
            status = run.get(WALL_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            run.cancel(true);
            return Optional.of("did not end within " + WALL_SECONDS + " s");
        } catch (ExecutionException e) {
            return Optional.of("threw " + e.getCause());
        }
        String stdout = out.toString(StandardCharsets.UTF_8);
        String stderr = err.toString(StandardCharsets.UTF_8);
        Optional<String> wrong = OutputRules.violation(status, stdout, stderr, history);
        if (wrong.isPresent()) {
            return Optional.of(wrong.get() + "\n  exit status " + status + "\n  stderr: " + OutputRules.excerpt(stderr)
                    + "\n  stdout: " + OutputRules.excerpt(stdout));
        }
        statuses[status]++;
        return Optional.empty();
    }

    /** Copies a failing input where it outlives the test. */
    private static Path keep(Path history, int input) throws IOException {
        Path target = Path.of("target", "fuzz-failures", "seed-" + SEED, "input-" + input).resolve(history.getFileName());
        delete(target);
        Files.createDirectories(target.getParent());
        if (Files.isDirectory(history)) {
            Files.createDirectories(target);
            try (Stream<Path> logs = Files.list(history)) {
                for (Path log : logs.toList()) {
                    Files.copy(log, target.resolve(log.getFileName()));
                }
            }
        } else {
            Files.copy(history, target);
        }
        return target;
    }

    private static void delete(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> all = Files.walk(path)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** Guards against a rule that cannot fail: a stack trace and an unlocated error are caught. */
    @Test
    void theRulesCatchStackTracesUnlocatedErrorsAndOddStatuses() {
        Path h = Path.of("dir", "h.jsonl");
        assertThat(OutputRules.violation(2, "", "isocheck: dir/h.jsonl:3: bad JSON at column 1: x\n", h)).isEmpty();
        assertThat(OutputRules.violation(2, "", "isocheck: dir/h.jsonl:byte 17: truncated\n", h)).isEmpty();
        assertThat(OutputRules.violation(0, "", "isocheck: warning: dir/h.jsonl:2: unknown field \"a\" in a read, ignored\n", h)).isEmpty();
        assertThat(OutputRules.violation(2, "", "isocheck: dir/h.jsonl: internal error: java.lang.NullPointerException\n", h)).isPresent();
        assertThat(OutputRules.violation(2, "", "isocheck: other.jsonl:3: bad JSON\n", h)).isPresent();
        assertThat(OutputRules.violation(1, "h: VIOLATION\n\tat dev.isocheck.X.y(X.java:1)\n", "", h)).isPresent();
        assertThat(OutputRules.violation(2, "", "Exception in thread \"main\" java.lang.Error\n", h)).isPresent();
        assertThat(OutputRules.violation(3, "", "", h)).isPresent();
        assertThat(OutputRules.violation(2, "", "isocheck: dir/h.jsonl:1: " + "a".repeat(OutputRules.MAX_ERROR_LINE) + "\n", h))
                .isPresent();
        Path cobra = Path.of("dir", "c");
        assertThat(OutputRules.violation(2, "", "isocheck: dir/c/T1.log:byte 9: unknown record type 0x58\n", cobra)).isEmpty();
    }

    /** What the command may print for a malformed input. */
    static final class OutputRules {

        /**
         * The longest line allowed on stderr: a file name, a place and a problem that quotes at
         * most a few hundred characters of the input ({@code Excerpt}), never the whole of it.
         */
        static final int MAX_ERROR_LINE = 4_000;

        /** A line or byte and the problem there; or, for a history as a whole, that it had nothing to check. */
        private static final Pattern PLACE = Pattern.compile("(/[^/:]+)?(:(\\d+|byte \\d+): \\S.*|: nothing to check: .*)");

        private OutputRules() {
        }

        /** What is wrong with this run of {@code check} on {@code history}; empty when nothing is. */
        static Optional<String> violation(int status, String stdout, String stderr, Path history) {
            if (status < 0 || status > 2) {
                return Optional.of("exit status " + status + ", not 0, 1 or 2");
            }
            for (String text : List.of(stdout, stderr)) {
                if (text.contains("\tat ") || text.contains("Exception in thread")) {
                    return Optional.of("a stack trace was printed");
                }
            }
            for (String line : stderr.split("\n")) {
                if (line.isEmpty()) {
                    continue;
                }
                if (line.length() > MAX_ERROR_LINE) {
                    return Optional.of("a line of " + line.length() + " characters on stderr (the input echoed whole?)");
                }
                String message = line.startsWith("isocheck: warning: ") ? line.substring("isocheck: warning: ".length())
                        : line.startsWith("isocheck: ") ? line.substring("isocheck: ".length()) : null;
                String prefix = history.toString();
                if (message == null || !message.startsWith(prefix)
                        || !PLACE.matcher(message.substring(prefix.length())).matches()) {
                    return Optional.of("a line on stderr that does not name the file and a line or byte: " + excerpt(line));
                }
            }
            return Optional.empty();
        }

        static String excerpt(String text) {
            return text.length() <= 1_000 ? text : text.substring(0, 1_000) + "… (" + (text.length() - 1_000) + " more)";
        }
    }
}
