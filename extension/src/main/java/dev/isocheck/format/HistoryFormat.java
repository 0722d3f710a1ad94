package dev.isocheck.format;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/** The history file formats isocheck reads. */
@API(status = EXPERIMENTAL, since = "0.1")
public enum HistoryFormat {

    /** isocheck's JSON Lines ({@code *.jsonl}), as in {@code docs/history-format.md}. */
    JSONL("jsonl"),

    /** dbcop's binary history ({@code history.bincode}). */
    DBCOP("dbcop"),

    /**
     * Cobra's per-client logs (a directory of {@code *.log}), read as the logs declare: with
     * duplicate values when they carry Cobra's universal id, unique values otherwise.
     */
    COBRA("cobra"),

    /** Cobra's per-client logs, unique-value reading: a value is the write that wrote it. */
    COBRA_UNIQUE("cobra-unique"),

    /** Cobra's per-client logs, duplicate-value reading: only the written value counts. */
    COBRA_DUPLICATES("cobra-duplicates");

    private final String cliName;

    HistoryFormat(String cliName) {
        this.cliName = cliName;
    }

    /** The format's name on the command line. */
    public String cliName() {
        return cliName;
    }

    /**
     * The format named so on the command line.
     *
     * @throws IllegalArgumentException naming the formats there are, if none is called so
     */
    public static HistoryFormat fromName(String name) {
        String normal = name.trim().toLowerCase(Locale.ROOT);
        for (HistoryFormat f : values()) {
            if (f.cliName.equals(normal)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown format '" + name + "'; the formats are "
                + Arrays.stream(values()).map(HistoryFormat::cliName).collect(Collectors.joining(", ")));
    }

    /**
     * The format a path is in, judged by its name: {@code *.jsonl} files, {@code *.bincode} files,
     * either also gzip-compressed ({@code x.jsonl.gz}, {@code history.bincode.gz}: the format of what
     * the file holds once decompressed, which {@link #isCompressed} tells; the readers read
     * uncompressed files, the {@code check} command decompresses), and directories holding
     * {@code *.log} files and no history of another format (Cobra, read as the logs declare);
     * empty when none fits.
     *
     * <p>A directory holding {@code *.log} files beside {@code *.jsonl} or {@code *.bincode} files is
     * no Cobra history: reading it as one would leave the others unread, and a stray log (an empty
     * one) would stand for the whole directory.
     */
    public static java.util.Optional<HistoryFormat> detect(Path path) {
        if (Files.isDirectory(path)) {
            boolean logs = false;
            try (var files = Files.list(path)) {
                for (Path file : (Iterable<Path>) files::iterator) {
                    if (Files.isDirectory(file)) {
                        continue;
                    }
                    if (isFileOfFormat(file)) {
                        return java.util.Optional.empty();
                    }
                    logs |= file.getFileName().toString().endsWith(".log");
                }
            } catch (java.io.IOException | java.io.UncheckedIOException e) {
                return java.util.Optional.empty();
            }
            return logs ? java.util.Optional.of(COBRA) : java.util.Optional.empty();
        }
        return byName(uncompressedName(path));
    }

    /** Whether {@code path} is named as a gzip file is ({@code *.gz}). */
    public static boolean isCompressed(Path path) {
        return path.getFileName() != null && path.getFileName().toString().endsWith(".gz");
    }

    /** Whether {@code file}, not a directory, has the name of a history file (compressed or not). */
    private static boolean isFileOfFormat(Path file) {
        return byName(uncompressedName(file)).isPresent();
    }

    /** The file name without a {@code .gz} ending. */
    private static String uncompressedName(Path path) {
        String name = path.getFileName() == null ? "" : path.getFileName().toString();
        return isCompressed(path) ? name.substring(0, name.length() - ".gz".length()) : name;
    }

    private static java.util.Optional<HistoryFormat> byName(String name) {
        if (name.endsWith(".jsonl")) {
            return java.util.Optional.of(JSONL);
        }
        if (name.endsWith(".bincode")) {
            return java.util.Optional.of(DBCOP);
        }
        return java.util.Optional.empty();
    }

    @Override
    public String toString() {
        return cliName;
    }
}
