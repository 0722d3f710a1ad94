package dev.isocheck.internal.cli;

import dev.isocheck.CheckResult;
import dev.isocheck.IsolationLevel;
import dev.isocheck.history.History;

/** What became of one history: checked, or why not. */
sealed interface Outcome {

    /**
     * Read and checked.
     *
     * @param classification with {@code --classify}, what it found ({@code result} is its result); else {@code null}
     * @param loadMillis     how long reading took
     */
    record Checked(History history, CheckResult result, Classifier.Classification classification, long loadMillis)
            implements Outcome {
    }

    /** Could not be read: {@code message} names the history, the place and the problem. */
    record Unreadable(String message) implements Outcome {
    }

    /** Read, and holds no committed transaction: nothing was checked, which is no pass. */
    record NothingToCheck(String message) implements Outcome {
    }

    /**
     * Given up at the time limit: the work went on past it (a read, a parse, a check that did not
     * stop) and was abandoned.
     *
     * @param level      the level being checked
     * @param reason     the limit and the stage
     * @param history    what was read, or {@code null} when the time ran out reading it
     * @param loadMillis how long reading took, or {@code -1} when it did not end
     * @param millis     how long the history had, from the start of reading
     */
    record Abandoned(IsolationLevel level, String reason, History history, long loadMillis, long millis) implements Outcome {
    }

    /** Failed: the heap ran out, or a bug. */
    record Failed(Throwable error) implements Outcome {
    }
}
