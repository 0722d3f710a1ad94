package dev.isocheck.format;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.isocheck.internal.text.Excerpt;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.apiguardian.api.API;

/**
 * A history file that could not be read: the message is one line naming the file, the place (a
 * line, or a byte offset for binary formats) and the problem, for example
 * {@code histories/a.jsonl:12: ops[2]: unknown op "raed" (expected read, write or predicate)}.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class HistoryFormatException extends Exception {

    /**
     * The longest problem kept whole. Readers quote at most a few hundred characters of their input
     * ({@link Excerpt}); this is the last bound, so that no message echoes megabytes of a history.
     */
    static final int MAX_PROBLEM = 2_000;

    private final Path file;
    private final String place;
    private final String problem;

    /**
     * @param file    the file (or directory) being read
     * @param place   where in it, e.g. {@code "12"} for line 12 or {@code "byte 4096"}; empty for the whole file
     * @param problem what is wrong, in words; cut after {@value #MAX_PROBLEM} characters, the rest counted
     */
    public HistoryFormatException(Path file, String place, String problem) {
        super(file + (place.isEmpty() ? "" : ":" + place) + ": " + bounded(problem));
        this.file = Objects.requireNonNull(file, "file is null");
        this.place = Objects.requireNonNull(place, "place is null");
        this.problem = bounded(problem);
    }

    private static String bounded(String problem) {
        return Excerpt.of(Objects.requireNonNull(problem, "problem is null"), MAX_PROBLEM, UnaryOperator.identity());
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
