package dev.isocheck.internal.junit;

import dev.isocheck.CheckResult;
import dev.isocheck.Isocheck;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Recording;
import dev.isocheck.history.History;
import dev.isocheck.internal.recording.NotModelled;
import java.util.List;
import java.util.Objects;

/**
 * The {@link Recording} a test takes as a parameter: a view of its {@link TestRecording} that
 * builds the history so far on each question and changes nothing.
 */
public final class RecordingHandle implements Recording {

    private final TestRecording recording;
    private final IsolationLevel level;
    private final Configuration configuration;

    /** A handle on {@code recording}, whose test is checked at {@code level} under {@code configuration}. */
    public RecordingHandle(TestRecording recording, IsolationLevel level, Configuration configuration) {
        this.recording = Objects.requireNonNull(recording, "recording is null");
        this.level = Objects.requireNonNull(level, "level is null");
        this.configuration = Objects.requireNonNull(configuration, "configuration is null");
    }

    @Override
    public String testName() {
        return recording.name();
    }

    @Override
    public IsolationLevel level() {
        return level;
    }

    @Override
    public History history() {
        return recording.soFar(Long.MIN_VALUE).history();
    }

    @Override
    public Mark mark() {
        return new MarkAt(recording, System.nanoTime());
    }

    @Override
    public History since(Mark mark) {
        Objects.requireNonNull(mark, "mark is null");
        if (!(mark instanceof MarkAt at) || at.recording() != recording) {
            throw new IllegalArgumentException("the mark " + mark + " was not made by the recording of " + testName());
        }
        return recording.soFar(at.nanos()).history();
    }

    @Override
    public CheckResult check() {
        return check(level);
    }

    @Override
    public CheckResult check(IsolationLevel level) {
        return Isocheck.check(history(), Objects.requireNonNull(level, "level is null"), configuration.checkOptions());
    }

    @Override
    public List<String> leftOut() {
        return recording.soFar(Long.MIN_VALUE).notModelled().stream().map(NotModelled::toString).toList();
    }

    @Override
    public String toString() {
        return "Recording[" + testName() + "]";
    }

    /** A mark: when it was made ({@link System#nanoTime}), and in which recording. */
    private record MarkAt(TestRecording recording, long nanos) implements Mark {

        @Override
        public String toString() {
            return "Mark[" + recording.name() + "]";
        }
    }
}
