package dev.isocheck.internal.limit;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The limits of one check: a deadline and a memory budget, shared by the stages and by the
 * independent parts of a history searched in parallel.
 *
 * <p><b>Time.</b> The deadline is checked cooperatively: each stage calls {@link #enter} as it
 * starts and {@link #checkTime()} between units of work small enough that the check overruns
 * the limit by little (a round of pruning, a million edges listed, the SAT solver's own timeout).
 *
 * <p><b>Memory.</b> A stage about to build a structure whose size it can count beforehand (the
 * SAT encoding: its edges and variables) {@linkplain #reserve reserves} the bytes it estimates
 * and releases them when done. An estimate above the whole budget fails at once; one that fits
 * the budget but not beside what other parts hold waits until they release theirs, so that
 * parallel parts never hold more than the budget together, and whether a part fits never depends
 * on which finishes first.
 *
 * <p>Thread-safe.
 */
public final class Limits {

    private static final Limits NONE = new Limits(null, 0, Long.MAX_VALUE, "no budget");

    private final Duration timeLimit;
    private final long deadline;
    /** The limits whose memory budget these share, or {@code null} when they hold their own. */
    private final Limits shared;
    private final long memoryBudget;
    private final String budgetOrigin;
    private long reserved;
    private volatile String stage = "starting";

    private Limits(Duration timeLimit, long deadline, long memoryBudget, String budgetOrigin) {
        this(timeLimit, deadline, memoryBudget, budgetOrigin, null);
    }

    private Limits(Duration timeLimit, long deadline, long memoryBudget, String budgetOrigin, Limits shared) {
        this.shared = shared;
        this.timeLimit = timeLimit;
        this.deadline = deadline;
        this.memoryBudget = memoryBudget;
        this.budgetOrigin = budgetOrigin;
    }

    /** No time limit and no memory budget (what the checkers do when called without limits). */
    public static Limits none() {
        return NONE;
    }

    /**
     * Limits starting now: the check must end within {@code timeLimit}, and what the stages
     * reserve must stay within {@code memoryBudget} bytes.
     *
     * @param timeLimit    positive, or {@code null} for none
     * @param memoryBudget positive
     * @param budgetOrigin where the budget comes from, for messages ("half of the 2.0 GiB
     *                     maximum heap", "set in the options")
     */
    public static Limits startingNow(Duration timeLimit, long memoryBudget, String budgetOrigin) {
        if (timeLimit != null && (timeLimit.isNegative() || timeLimit.isZero())) {
            throw new IllegalArgumentException("the time limit must be positive: " + timeLimit);
        }
        if (memoryBudget <= 0) {
            throw new IllegalArgumentException("the memory budget must be positive: " + memoryBudget);
        }
        long now = System.nanoTime();
        long deadline = timeLimit == null ? 0 : now + saturatedNanos(timeLimit);
        return new Limits(timeLimit, deadline, memoryBudget, Objects.requireNonNull(budgetOrigin, "budgetOrigin is null"));
    }

    private static long saturatedNanos(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE / 2;
        }
    }

    /**
     * Limits for an attempt that must leave time for what follows it: the first
     * {@code 1/parts} of the time left (no time limit without one), and this check's memory
     * budget, shared with it (what the attempt reserves counts against the whole check).
     */
    public Limits firstPart(int parts) {
        if (parts < 1) {
            throw new IllegalArgumentException("parts must be positive: " + parts);
        }
        if (timeLimit == null) {
            return this;
        }
        long now = System.nanoTime();
        long part = Math.max(1, (deadline - now) / parts);
        return new Limits(Duration.ofNanos(part), now + part, memoryBudget, budgetOrigin, root());
    }

    /**
     * These limits, ending at {@code deadlineNanos} ({@link System#nanoTime()}) where that comes
     * first: for a check that is one step of a search with a deadline of its own (an explanation's
     * search for a violating core), which must not run past it. The memory budget is shared with
     * these, as for {@link #firstPart}.
     */
    public Limits until(long deadlineNanos) {
        if (timeLimit != null && deadline - deadlineNanos <= 0) {
            return this;
        }
        long now = System.nanoTime();
        long left = Math.max(1, deadlineNanos - now);
        return new Limits(Duration.ofNanos(left), now + left, memoryBudget, budgetOrigin, root());
    }

    private Limits root() {
        return shared == null ? this : shared;
    }

    /** The time limit, or {@code null} without one. */
    public Duration timeLimit() {
        return timeLimit;
    }

    /** The memory budget in bytes ({@link Long#MAX_VALUE} without one). */
    public long memoryBudget() {
        return memoryBudget;
    }

    /** The stage last {@linkplain #enter entered}, for messages ("pruning"). */
    public String stage() {
        return stage;
    }

    /**
     * Records that {@code stage} starts (the messages of later failures name it), then
     * {@linkplain #checkTime() checks the time}.
     *
     * @param stage what the check does now, as a gerund phrase: "pruning", "solving"
     * @throws LimitExceededException when the time limit has passed
     */
    public void enter(String stage) {
        this.stage = Objects.requireNonNull(stage, "stage is null");
        checkTime();
    }

    /**
     * Throws when the time limit has passed.
     *
     * @throws LimitExceededException of kind {@link LimitExceededException.Kind#TIME}
     */
    public void checkTime() {
        if (timeLimit != null && System.nanoTime() - deadline > 0) {
            throw timeExceeded();
        }
    }

    /** The exception {@link #checkTime()} throws, for a stage that found the time gone by its own means. */
    public LimitExceededException timeExceeded() {
        return new LimitExceededException(LimitExceededException.Kind.TIME,
                "the time limit of " + format(timeLimit) + " was exceeded while " + stage);
    }

    /**
     * Nanoseconds left before the deadline (at least 1 while there is time), or
     * {@link Long#MAX_VALUE} without a time limit.
     *
     * @throws LimitExceededException when none are left
     */
    public long remainingNanos() {
        if (timeLimit == null) {
            return Long.MAX_VALUE;
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw timeExceeded();
        }
        return left;
    }

    /**
     * Reserves {@code bytes} of the memory budget for what the current stage is about to build,
     * waiting (until the deadline) while other parts hold too much of it. Release it by closing
     * the reservation.
     *
     * @param bytes the estimate; zero or positive
     * @param what  what needs them, for the message: "the SAT encoding (12,345 edges, ...)"
     * @return the reservation; close it when what it covers is no longer referenced
     * @throws LimitExceededException of kind {@link LimitExceededException.Kind#MEMORY} when
     *                                {@code bytes} exceeds the whole budget; of kind
     *                                {@link LimitExceededException.Kind#TIME} when the deadline
     *                                passes while waiting
     */
    public Reservation reserve(long bytes, Supplier<String> what) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must not be negative: " + bytes);
        }
        if (bytes > memoryBudget) {
            throw new LimitExceededException(LimitExceededException.Kind.MEMORY, what.get() + " would need about "
                    + bytes(bytes) + ", more than the memory budget of " + bytes(memoryBudget) + " (" + budgetOrigin
                    + ") allows, so it was not built");
        }
        Limits owner = root();
        synchronized (owner) {
            while (owner.reserved > memoryBudget - bytes) {
                long left = remainingNanos();
                try {
                    long millis = Math.max(1, Math.min(left / 1_000_000, 1_000));
                    owner.wait(millis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new LimitExceededException(LimitExceededException.Kind.TIME, "interrupted while " + stage);
                }
            }
            owner.reserved += bytes;
        }
        return owner.new Reservation(bytes);
    }

    private synchronized void release(long bytes) {
        reserved -= bytes;
        notifyAll();
    }

    /** Bytes of the budget held until {@link #close()}. */
    public final class Reservation implements AutoCloseable {
        private long bytes;

        private Reservation(long bytes) {
            this.bytes = bytes;
        }

        /** Gives the bytes back; a second call does nothing. */
        @Override
        public void close() {
            long held;
            synchronized (Limits.this) {
                held = bytes;
                bytes = 0;
            }
            if (held > 0) {
                release(held);
            }
        }
    }

    /** {@code 30s}, {@code 5m}, {@code 1m30s}, {@code 1h}, {@code 250ms}: how the command line writes a duration. */
    public static String format(Duration duration) {
        if (duration == null) {
            return "none";
        }
        long millis = duration.toMillis();
        if (millis % 1000 != 0 || millis == 0) {
            return millis + "ms";
        }
        long seconds = millis / 1000;
        StringBuilder out = new StringBuilder();
        if (seconds >= 3600) {
            out.append(seconds / 3600).append('h');
            seconds %= 3600;
        }
        if (seconds >= 60) {
            out.append(seconds / 60).append('m');
            seconds %= 60;
        }
        if (seconds > 0) {
            out.append(seconds).append('s');
        }
        return out.toString();
    }

    /** {@code 1.5 GiB}, {@code 640 MiB}, {@code 12 KiB}, {@code 100 bytes}: a size for messages. */
    public static String bytes(long bytes) {
        if (bytes >= 1L << 30) {
            return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
        }
        if (bytes >= 1L << 20) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= 1L << 10) {
            return (bytes >> 10) + " KiB";
        }
        return bytes + " bytes";
    }
}
