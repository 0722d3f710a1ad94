package dev.isocheck.internal.recording;

import dev.isocheck.history.History;
import java.util.List;
import java.util.Objects;

/**
 * What one recording produced: the history to check, and what was left out of it because it could
 * not be modelled (each entry names the table or statement and why), so that a report can say what
 * the verdict does not cover; and how the writes were recorded ({@code writesFrom}: a line per
 * database whose writes came from its own log, or that could keep none and why).
 */
public record RecordedHistory(History history, List<NotModelled> notModelled, List<String> writesFrom) {

    /** Validates and copies. */
    public RecordedHistory {
        Objects.requireNonNull(history, "history is null");
        notModelled = List.copyOf(notModelled);
        writesFrom = List.copyOf(writesFrom);
    }

    /** A history whose writes came from the statements. */
    public RecordedHistory(History history, List<NotModelled> notModelled) {
        this(history, notModelled, List.of());
    }
}
