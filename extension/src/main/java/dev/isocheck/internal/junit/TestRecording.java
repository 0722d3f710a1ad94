package dev.isocheck.internal.junit;

import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.recording.RecordedHistory;
import dev.isocheck.internal.recording.Recording;
import dev.isocheck.internal.recording.SideSessions;
import dev.isocheck.internal.schedule.Gate;
import dev.isocheck.internal.schedule.Strategy;
import dev.isocheck.internal.schedule.Timing;
import java.util.List;
import java.util.Objects;

/**
 * The recording of one test method, bound to the thread that runs it from before its
 * {@code @BeforeEach} methods until its body has run. Kept in the test's extension store as an
 * {@link AutoCloseable}, so that JUnit ends it even when the test never gets to be checked (a
 * failing {@code @BeforeEach}, an abort): an unfinished recording would otherwise stay "in
 * progress" and catch other tests' unbound connections.
 */
public final class TestRecording implements AutoCloseable {

    private final Recording recording;
    private final Recording.Binding binding;
    private RecordedHistory recorded;
    /** The rounds checking the test while it runs; {@code null} when it is checked whole. */
    private TestRounds rounds;
    private boolean unbound;

    private TestRecording(Recording recording) {
        this.recording = recording;
        this.binding = recording.bind();
    }

    /** Starts recording the test called {@code name} and binds the calling thread (and the threads it starts) to it. */
    public static TestRecording start(String name) {
        return new TestRecording(new Recording(Objects.requireNonNull(name, "name is null")));
    }

    /** Has logs that need a login of their own (MariaDB's binary log) read as {@code account}. */
    public TestRecording withLogAccount(java.util.Optional<Recording.LogAccount> account) {
        account.ifPresent(recording::logAccount);
        return this;
    }

    /** The test's name, as the recording has it. */
    public String name() {
        return recording.name();
    }

    /**
     * Stops recording and unbinds the calling thread (the test's); called again, returns the same
     * history.
     */
    public synchronized RecordedHistory finish() {
        if (rounds != null) {
            throw new IllegalStateException(recording.name() + " is checked in rounds: finish(check, fileName) ends it");
        }
        if (recorded == null) {
            unbind();
            recorded = recording.finish();
        }
        return recorded;
    }

    private void unbind() {
        if (!unbound) {
            unbound = true;
            binding.close();
        }
    }

    /**
     * Checks the test in rounds while it runs, of at most {@code roundSize} transactions each, at
     * {@code level}; with {@code failEarly}, the first violation found stops the test's statements.
     */
    public synchronized TestRecording inRounds(IsolationLevel level, Configuration configuration, int roundSize, boolean failEarly) {
        rounds = TestRounds.start(recording, recording.name(), level, configuration, roundSize, failEarly);
        return this;
    }

    /** Whether the test is checked in rounds. */
    public synchronized boolean checkedInRounds() {
        return rounds != null;
    }

    /** What the rounds of a test checked in rounds did, in a line. */
    public synchronized String roundsSummary() {
        return rounds == null ? "" : rounds.summary();
    }

    /** How the writes of a test checked in rounds were recorded, a line per database (for the report entry). */
    public synchronized List<String> roundsWritesFrom() {
        return rounds == null ? List.of() : rounds.writesFrom();
    }

    /** Stops the rounds of a test checked in rounds, checks what is left, and words the outcome. */
    public synchronized TestCheck.Outcome finishRounds(TestCheck check, String fileName) {
        unbind();
        TestRounds ending = rounds;
        return ending.finish(check, fileName);
    }

    /**
     * The history of the test so far, leaving the recording as it is: see
     * {@link Recording#soFar(long)}. Once finished, the finished history.
     */
    public RecordedHistory soFar(long readsFrom) {
        return recording.soFar(readsFrom);
    }

    /**
     * Holds the test's threads at a gate choosing by {@code strategy} until the gate is closed:
     * the body of one run of an interleaving test.
     */
    public Gate openGate(Strategy strategy, Timing timing, SideSessions sessions) {
        return Gate.open(recording, strategy, timing, sessions);
    }

    /** Finishes the recording if the check never did; what it recorded is dropped. */
    @Override
    public synchronized void close() {
        if (rounds != null) {
            unbind();
            rounds.abandon();
        } else {
            finish();
        }
    }
}
