package dev.isocheck.format;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.file.Path;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A history file that could not be read: the message is one line naming the file, the place (a
 * line, or a byte offset for binary formats) and the problem, for example
 * {@code histories/a.jsonl:12: ops[2]: unknown op "raed" (expected read, write or predicate)}.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class HistoryFormatException extends Exception {

    private final Path file;
    private final String place;
    private final String problem;

    /**
     * @param file    the file (or directory) being read
     * @param place   where in it, e.g. {@code "12"} for line 12 or {@code "byte 4096"}; empty for the whole file
     * @param problem what is wrong, in words
     */
    public HistoryFormatException(Path file, String place, String problem) {
        super(file + (place.isEmpty() ? "" : ":" + place) + ": " + problem);
        this.file = Objects.requireNonNull(file, "file is null");
        this.place = Objects.requireNonNull(place, "place is null");
        this.problem = Objects.requireNonNull(problem, "problem is null");
    }

    /** The file being read. */
    public Path file() {
        return file;
    }

    /** Where in the file, or empty. */
    public String place() {
        return place;
    }

    /** What is wrong. */
    public String problem() {
        return problem;
    }
}
