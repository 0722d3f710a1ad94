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
     * and directories holding {@code *.log} files (Cobra, read as the logs declare); empty when none fits.
     */
    public static java.util.Optional<HistoryFormat> detect(Path path) {
        String name = path.getFileName() == null ? "" : path.getFileName().toString();
        if (Files.isDirectory(path)) {
            try (var files = Files.list(path)) {
                return files.anyMatch(p -> p.getFileName().toString().endsWith(".log"))
                        ? java.util.Optional.of(COBRA) : java.util.Optional.empty();
            } catch (java.io.IOException e) {
                return java.util.Optional.empty();
            }
        }
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
