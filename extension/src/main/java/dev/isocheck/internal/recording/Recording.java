package dev.isocheck.internal.recording;

import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.UnknownInitialValues;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The history of one test under construction: every transaction the test's recorded connections
 * ran, from any thread. Thread-safe.
 *
 * <p>Which recording a connection records into is decided by {@link #current()}: the recording
 * {@linkplain #bind() bound} to the calling thread or inherited from the thread that started it;
 * failing that, the only recording in progress (a thread pool created before the test still records
 * into the one test running). With several tests in progress and no binding, nothing is recorded.
 */
public final class Recording {

    private static final InheritableThreadLocal<Recording> BOUND = new InheritableThreadLocal<>();
    private static final Set<Recording> IN_PROGRESS = ConcurrentHashMap.newKeySet();

    private final String name;
    private final List<Consumer<HistoryBuilder>> transactions = new ArrayList<>();
    private final List<NotModelled> notModelled = new ArrayList<>();
    private boolean finished;

    /** A recording in progress, named after its test (for messages). */
    public Recording(String name) {
        this.name = Objects.requireNonNull(name, "name is null");
        IN_PROGRESS.add(this);
    }

    /** The test's name, for messages. */
    public String name() {
        return name;
    }

    /**
     * The recording the calling thread records into.
     *
     * @return empty outside a recorded test, or when several are in progress and none is bound
     */
    public static Optional<Recording> current() {
        Recording bound = BOUND.get();
        if (bound != null && !bound.isFinished()) {
            return Optional.of(bound);
        }
        List<Recording> open = List.copyOf(IN_PROGRESS);
        return open.size() == 1 ? Optional.of(open.get(0)) : Optional.empty();
    }

    /**
     * Makes this the recording of the calling thread and of the threads it starts from now on,
     * until the binding is closed.
     */
    public Binding bind() {
        Recording previous = BOUND.get();
        BOUND.set(this);
        return () -> BOUND.set(previous);
    }

    /**
     * Adds a finished transaction; {@code filler} adds it to the history's builder when the
     * recording is {@linkplain #finish() finished}. Ignored once finished.
     */
    public synchronized void add(Consumer<HistoryBuilder> filler) {
        if (!finished) {
            transactions.add(Objects.requireNonNull(filler, "filler is null"));
        }
    }

    /** Notes something left out of the check. */
    public synchronized void notModelled(NotModelled what) {
        if (!finished) {
            notModelled.add(Objects.requireNonNull(what, "what is null"));
        }
    }

    /** Whether {@link #finish()} was called. */
    public synchronized boolean isFinished() {
        return finished;
    }

    /**
     * Stops recording and builds the history: transactions in the order they were added, the
     * initial state unknown and possibly a value some transaction writes again
     * ({@link UnknownInitialValues#ANY}), since the recorder never saw the tables' rows before the test.
     */
    public synchronized RecordedHistory finish() {
        finished = true;
        IN_PROGRESS.remove(this);
        HistoryBuilder builder = History.builder().unknownInitialValues(UnknownInitialValues.ANY);
        transactions.forEach(t -> t.accept(builder));
        return new RecordedHistory(builder.build(), notModelled);
    }

    /** Undoes a {@link #bind()}: the thread records where it did before. */
    @FunctionalInterface
    public interface Binding extends AutoCloseable {

        @Override
        void close();
    }
}
