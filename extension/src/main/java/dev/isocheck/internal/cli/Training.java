package dev.isocheck.internal.cli;

import dev.isocheck.internal.warmup.TrainingWorkload;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The training run of the {@code check} command's class-data archive: the {@code isocheck}
 * launcher beside {@code isocheck.jar} runs this once per JVM and jar, with the JVM recording
 * what it loads (and, on JDK 24 and later, how the code ran), and later commands start from that
 * archive instead of loading and linking the same classes from the jar again.
 *
 * <p>It runs the command ({@link Main#run}, its output dropped) as users do: a serializable
 * workload and one with a lost update ({@link TrainingWorkload}), each in the three formats
 * ({@link TrainingFiles}), checked as text and as JSON, at snapshot isolation, classified, and with
 * a report, in a temporary directory it deletes. Nothing here is read by a check; an archive only
 * spares loading what the training loaded, and a class it lacks is loaded from the jar as before.
 *
 * <p>{@code java -cp isocheck.jar dev.isocheck.internal.cli.Training}; exit status 0, or 1 when a
 * verdict was not the one the workloads were built to have.
 */
public final class Training {

    /** Rounds of the plain checks: later rounds run the code the first compiled, as a user's run does. */
    private static final int ROUNDS = 3;

    private Training() {
    }

    /** Runs the training; no arguments. */
    public static void main(String[] args) throws IOException {
        Path directory = Files.createTempDirectory("isocheck-training");
        try {
            System.exit(run(directory) ? 0 : 1);
        } finally {
            delete(directory);
        }
    }

    /** Runs the training in {@code directory}; whether every verdict was the expected one. */
    static boolean run(Path directory) throws IOException {
        List<String> satisfied = names(TrainingFiles.write(TrainingWorkload.generate(1, 8, 60, 80, false), directory, "ok"));
        List<String> violated = names(TrainingFiles.write(TrainingWorkload.generate(2, 8, 30, 80, true), directory, "lost"));
        boolean expected = true;
        for (int round = 0; round < ROUNDS; round++) {
            expected &= command(0, "check", satisfied);
            expected &= command(1, "check", violated);
        }
        expected &= command(1, "check", List.of("--json"), violated);
        expected &= command(1, "check", List.of("--level", "snapshot-isolation"), satisfied, violated);
        expected &= command(1, "check", List.of("--classify"), violated);
        expected &= command(1, "check", List.of("--report", directory.resolve("reports").toString()), violated.subList(0, 1));
        return expected;
    }

    @SafeVarargs
    private static boolean command(int status, String command, List<String>... parts) {
        List<String> args = new ArrayList<>(List.of(command));
        for (List<String> part : parts) {
            args.addAll(part);
        }
        PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream());
        return Main.run(args.toArray(String[]::new), name -> null, InputStream.nullInputStream(), nowhere, nowhere) == status;
    }

    private static List<String> names(List<Path> paths) {
        return paths.stream().map(Path::toString).toList();
    }

    private static void delete(Path directory) throws IOException {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
