package dev.isocheck.gpu;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * What looking for a usable device found: an {@link Accelerator}, or why there is none. Computed once
 * per process for the real driver (loading natives and creating a context is slow and its answer
 * does not change), so that every later question costs nothing.
 */
final class Probe {

    private final Accelerator accelerator;
    private final String reason;

    private Probe(Accelerator accelerator, String reason) {
        this.accelerator = accelerator;
        this.reason = reason;
    }

    static Probe ready(Accelerator accelerator) {
        return new Probe(Objects.requireNonNull(accelerator, "accelerator is null"), null);
    }

    static Probe missing(String reason) {
        return new Probe(null, Objects.requireNonNull(reason, "reason is null"));
    }

    /** The device, or {@code null} when missing. */
    Accelerator accelerator() {
        return accelerator;
    }

    /** Why there is no device, or {@code null} when ready. */
    String reason() {
        return reason;
    }

    /**
     * One line for a {@link Throwable} met while probing: its type and the first line of its message.
     * JCuda's loader puts every attempt's stack trace into one message; of those, the last
     * {@code UnsatisfiedLinkError} line is the one that says what is missing (typically
     * {@code libcuda.so.1}, that is, no driver), so it is kept in parentheses.
     */
    static String describe(Throwable t) {
        String message = t.getMessage();
        if (message == null || message.isBlank()) {
            return t.getClass().getName();
        }
        List<String> lines = message.strip().lines().collect(Collectors.toList());
        String described = t.getClass().getSimpleName() + ": " + shorten(lines.get(0));
        String marker = "UnsatisfiedLinkError: ";
        for (int i = lines.size() - 1; i > 0; i--) {
            int at = lines.get(i).indexOf(marker);
            if (at >= 0) {
                return described + " (" + shorten(lines.get(i).substring(at + marker.length())) + ")";
            }
        }
        return described;
    }

    private static String shorten(String line) {
        return line.length() > 300 ? line.substring(0, 300) + "..." : line;
    }
}
