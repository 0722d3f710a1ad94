package dev.isocheck.internal.cli;

import dev.isocheck.format.HistoryFormat;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What one argument of the command names: the histories to check, in path order, and what was
 * named but cannot be checked, each with why. Every argument yields something, so that nothing
 * named is passed over in silence.
 *
 * <ul>
 *   <li>{@code -}: standard input;</li>
 *   <li>a file: itself, in the format {@code --format} names or its name says
 *       ({@link HistoryFormat#detect}, which looks through {@code .gz});</li>
 *   <li>a directory given with a Cobra format: itself, one Cobra history;</li>
 *   <li>any other directory: searched, subdirectories included, for history files and Cobra
 *       directories (those holding {@code *.log} files and no other history). A directory holding
 *       logs beside other histories is a problem of its own: its histories are checked, its logs
 *       are not, and that is said (exit status 2), never a silent pass.</li>
 * </ul>
 */
final class Inputs {

    /** Something an argument named. */
    sealed interface Entry {
    }

    /** A history to check. */
    record Found(HistorySource source) implements Entry {
    }

    /** Something named that will not be checked: {@code name} as the output names it, and why (a line naming it). */
    record Problem(String name, String message) implements Entry {
    }

    private final Optional<HistoryFormat> format;
    private final InputStream standardInput;

    /**
     * @param format        the format {@code --format} names, or empty to go by the names
     * @param standardInput what {@code -} reads
     */
    Inputs(Optional<HistoryFormat> format, InputStream standardInput) {
        this.format = format;
        this.standardInput = standardInput;
    }

    /** What {@code argument} names, in the order they are to be checked. */
    List<Entry> of(String argument) {
        if (argument.equals("-")) {
            return List.of(new Found(new HistorySource.StandardInput(standardInput, format)));
        }
        Path path;
        try {
            path = Path.of(argument);
        } catch (InvalidPathException e) {
            return List.of(new Problem(argument, argument + ": not a valid path (" + e.getReason() + ")"));
        }
        if (!Files.exists(path)) {
            return List.of(new Problem(argument, path + ": no such file or directory"));
        }
        if (!Files.isDirectory(path)) {
            return List.of(file(path));
        }
        if (format.filter(Inputs::isCobra).isPresent()) {
            return List.of(new Found(new HistorySource.Plain(path, format.get())));
        }
        return search(path);
    }

    /** A file named on the command line. */
    private Entry file(Path path) {
        Optional<HistoryFormat> chosen = format.or(() -> HistoryFormat.detect(path));
        if (chosen.isPresent()) {
            return new Found(source(path, chosen.get()));
        }
        if (HistoryFormat.isCompressed(path)) {
            String inner = path.getFileName().toString().replaceFirst("\\.gz$", "");
            return new Problem(path.toString(), path + ": unknown history format: a gzip file whose name without .gz, "
                    + inner + ", is neither *.jsonl nor *.bincode; name the format with --format (jsonl or dbcop)");
        }
        return new Problem(path.toString(), path + ": unknown history format (expected *.jsonl or *.bincode, either"
                + " possibly gzipped as *.gz; or name one with --format)");
    }

    private static HistorySource source(Path path, HistoryFormat format) {
        return HistoryFormat.isCompressed(path) && !isCobra(format) ? new HistorySource.Compressed(path, format)
                : new HistorySource.Plain(path, format);
    }

    /** The histories under {@code directory}, and the directories whose logs are left unchecked. */
    private List<Entry> search(Path directory) {
        List<Entry> found = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(directory)) {
            walk.sorted().forEach(p -> {
                if (Files.isDirectory(p)) {
                    directory(p).ifPresent(found::add);
                } else {
                    Optional<HistoryFormat> detected = HistoryFormat.detect(p);
                    if (detected.isPresent() && (format.isEmpty() || format.get() == detected.get())) {
                        found.add(new Found(source(p, detected.get())));
                    }
                }
            });
        } catch (IOException | UncheckedIOException e) {
            return List.of(new Problem(directory.toString(), directory + ": cannot be listed: " + HistorySource.describe(e)));
        }
        if (found.isEmpty()) {
            return List.of(new Problem(directory.toString(), directory
                    + ": no histories found (*.jsonl, *.bincode, either possibly gzipped as *.gz, or directories of Cobra *.log files)"));
        }
        return found;
    }

    /** A directory met in a search: a Cobra history, logs that will not be checked, or nothing of its own. */
    private Optional<Entry> directory(Path dir) {
        if (format.isPresent()) {
            // A format named: only what is in it counts, and a directory only for a Cobra format.
            return isCobra(format.get()) && hasLogs(dir) ? Optional.of(new Found(new HistorySource.Plain(dir, format.get())))
                    : Optional.empty();
        }
        if (HistoryFormat.detect(dir).isPresent()) {
            return Optional.of(new Found(new HistorySource.Plain(dir, HistoryFormat.COBRA)));
        }
        if (hasLogs(dir)) {
            return Optional.of(new Problem(dir.toString(), dir + ": holds Cobra logs (*.log) beside JSON Lines or dbcop"
                    + " histories, so it is not one Cobra history: the other histories are checked, the logs are not;"
                    + " move the logs into a directory of their own (or check this one with --format cobra)"));
        }
        return Optional.empty();
    }

    private static boolean hasLogs(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.anyMatch(p -> p.getFileName().toString().endsWith(".log") && !Files.isDirectory(p));
        } catch (IOException | UncheckedIOException e) {
            return false;
        }
    }

    static boolean isCobra(HistoryFormat format) {
        return format == HistoryFormat.COBRA || format == HistoryFormat.COBRA_UNIQUE || format == HistoryFormat.COBRA_DUPLICATES;
    }
}
