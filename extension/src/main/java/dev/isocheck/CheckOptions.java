package dev.isocheck;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.isocheck.internal.explain.CoreExplainer;
import dev.isocheck.internal.explain.ExhaustiveExplainer;
import java.time.Duration;
import java.util.Objects;
import java.util.OptionalLong;
import org.apiguardian.api.API;

/**
 * How {@link Isocheck#check(dev.isocheck.history.History, IsolationLevel, CheckOptions)} checks and
 * explains: which engine computes reachability, how much time and memory a check may take, and
 * how much the explanation of a violation may cost. None of them changes a verdict that is
 * reached; a check that would go past its time limit or its memory budget answers
 * {@link Verdict.Unknown} with the reason instead (never a pass).
 *
 * <p>Immutable: start from {@link #defaults()} and derive with the {@code with...} methods, each of
 * which returns a copy and leaves the original as it was.
 *
 * <pre>{@code
 * CheckOptions options = CheckOptions.defaults()
 *         .withGpuMode(GpuMode.OFF)
 *         .withTimeLimit(Duration.ofMinutes(2))
 *         .withExplainTimeLimit(Duration.ofSeconds(5));
 * }</pre>
 *
 * <p>Nothing in the library reads system properties: options are what a check is given. (The
 * command line maps {@code -Disocheck.gpu} onto {@link #withGpuMode}.)
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class CheckOptions {

    /** The most transactions {@link #withExplainMaxTransactions} accepts. */
    public static final int MAX_EXPLAIN_TRANSACTIONS = 30;

    /**
     * The time limit of a check unless told otherwise: ten minutes. Generous on purpose: the
     * largest histories of the benchmarks (100,000 transactions, 1.5 million operations) are
     * decided in under ten seconds, so a check that runs for minutes is one whose SAT search has
     * blown up, and a limit this far out stops only those, never a check that was about to end.
     */
    public static final Duration DEFAULT_TIME_LIMIT = Duration.ofMinutes(10);

    /**
     * The share of the maximum heap ({@link Runtime#maxMemory()}) that is the memory budget unless
     * one is set: one half. The other half holds the history, its hyper-polygraph and the pruned
     * constraints, which exist before the budget is weighed, and what the JVM needs beside.
     */
    public static final double DEFAULT_MEMORY_SHARE = 0.5;

    private static final CheckOptions DEFAULTS = new CheckOptions(GpuMode.AUTO, DEFAULT_TIME_LIMIT, 0,
            CoreExplainer.DEFAULT_BUDGET, ExhaustiveExplainer.DEFAULT_MAX_TRANSACTIONS);

    private final GpuMode gpuMode;
    private final Duration timeLimit;
    /** In bytes; 0: {@link #DEFAULT_MEMORY_SHARE} of the maximum heap, taken when a check starts. */
    private final long memoryBudget;
    private final Duration explainTimeLimit;
    private final int explainMaxTransactions;

    private CheckOptions(GpuMode gpuMode, Duration timeLimit, long memoryBudget, Duration explainTimeLimit,
            int explainMaxTransactions) {
        this.gpuMode = gpuMode;
        this.timeLimit = timeLimit;
        this.memoryBudget = memoryBudget;
        this.explainTimeLimit = explainTimeLimit;
        this.explainMaxTransactions = explainMaxTransactions;
    }

    /**
     * The options a check has unless told otherwise: {@link GpuMode#AUTO}, a time limit of
     * {@linkplain #DEFAULT_TIME_LIMIT ten minutes}, a memory budget of
     * {@linkplain #DEFAULT_MEMORY_SHARE half} the maximum heap, an explanation time limit of 30
     * seconds, and at most 10 transactions explained exhaustively.
     *
     * @return the default options; never {@code null}
     */
    public static CheckOptions defaults() {
        return DEFAULTS;
    }

    /**
     * Which reachability engine computes closures: one discovered on the class path (a GPU) or the
     * built-in CPU engine. The default is {@link GpuMode#AUTO}.
     *
     * @return the GPU mode; never {@code null}
     */
    public GpuMode gpuMode() {
        return gpuMode;
    }

    /**
     * How long a check may take before it gives up with {@link Verdict.Unknown}: the screening,
     * building the constraints, pruning them, encoding and solving what is left. The default is
     * {@link #DEFAULT_TIME_LIMIT}.
     *
     * @return the time limit; never {@code null}, always positive
     * @see #withTimeLimit(Duration)
     */
    public Duration timeLimit() {
        return timeLimit;
    }

    /**
     * The memory budget set with {@link #withMemoryBudget(long)}, in bytes; empty for the default,
     * {@linkplain #DEFAULT_MEMORY_SHARE half} of {@link Runtime#maxMemory()} when the check starts.
     *
     * @return the budget set, or empty; never {@code null}
     * @see #withMemoryBudget(long)
     */
    public OptionalLong memoryBudget() {
        return memoryBudget == 0 ? OptionalLong.empty() : OptionalLong.of(memoryBudget);
    }

    /**
     * How long the explainer may search for a small set of transactions that still violates the
     * level, when the transactions the verdict names do not prove the violation by themselves. The
     * default is 30 seconds.
     *
     * @return the time limit; never {@code null}, never negative
     * @see #withExplainTimeLimit(Duration)
     */
    public Duration explainTimeLimit() {
        return explainTimeLimit;
    }

    /**
     * The most committed transactions the explainer reasons about exhaustively (every order of
     * their writes, every choice of what each read saw). The default is 10. A minimal violating set
     * of more is explained by cases, each assuming which write every read several transactions
     * could have satisfied saw, over up to 14 more (at most {@value #MAX_EXPLAIN_TRANSACTIONS}):
     * with those choices made, only the orders of writes are left to enumerate.
     *
     * @return between 1 and {@value #MAX_EXPLAIN_TRANSACTIONS}
     * @see #withExplainMaxTransactions(int)
     */
    public int explainMaxTransactions() {
        return explainMaxTransactions;
    }

    /**
     * These options with another time limit for a check. A check that reaches it answers
     * {@link Verdict.Unknown} saying so and in which stage it was. The stages check the time
     * between units of work (a round of pruning, a million edges of the encoding; the SAT solver
     * checks it itself), so a check ends a little after the limit, not exactly at it. The limit
     * does not cover the explanation of a violation, which has {@link #withExplainTimeLimit its
     * own}.
     *
     * @param timeLimit positive
     * @return a copy with {@code timeLimit}; never {@code null}
     * @throws NullPointerException     if {@code timeLimit} is {@code null}
     * @throws IllegalArgumentException if {@code timeLimit} is zero or negative
     */
    public CheckOptions withTimeLimit(Duration timeLimit) {
        Objects.requireNonNull(timeLimit, "timeLimit is null");
        if (timeLimit.isNegative() || timeLimit.isZero()) {
            throw new IllegalArgumentException("timeLimit must be positive: " + timeLimit);
        }
        return new CheckOptions(gpuMode, timeLimit, memoryBudget, explainTimeLimit, explainMaxTransactions);
    }

    /**
     * These options with a memory budget of {@code bytes}. Before the engine builds its SAT
     * encoding, whose size grows with the choices pruning left open (for each read, every write
     * it may have seen; for each key, every pair of writes whose order is open), it counts the
     * edges and variables it will create and estimates their bytes; above the budget it answers
     * {@link Verdict.Unknown} with the counts, the estimate and the budget instead of building
     * them (first trying the order of the recorded times as a witness, which costs next to
     * nothing). The budget covers that encoding and the search over it, not the history itself
     * and the constraints built before the estimate. Parts of a history checked in parallel
     * share it. The default, {@linkplain #DEFAULT_MEMORY_SHARE half} of the maximum heap, suits
     * a check that has the JVM to itself.
     *
     * @param bytes positive
     * @return a copy with the budget; never {@code null}
     * @throws IllegalArgumentException if {@code bytes} is zero or negative
     */
    public CheckOptions withMemoryBudget(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("the memory budget must be positive: " + bytes);
        }
        return new CheckOptions(gpuMode, timeLimit, bytes, explainTimeLimit, explainMaxTransactions);
    }

    /**
     * These options with another GPU mode.
     *
     * @param gpuMode the mode; {@link GpuMode#fromName} parses one a user typed
     * @return a copy with {@code gpuMode}; never {@code null}
     * @throws NullPointerException if {@code gpuMode} is {@code null}
     */
    public CheckOptions withGpuMode(GpuMode gpuMode) {
        Objects.requireNonNull(gpuMode, "gpuMode is null");
        return new CheckOptions(gpuMode, timeLimit, memoryBudget, explainTimeLimit, explainMaxTransactions);
    }

    /**
     * These options with another limit on the search for a small violating set of transactions.
     * When the limit passes, the violation is still reported, with an
     * {@link dev.isocheck.explain.Explanation.Unexplained} that says so. The limit is checked
     * between checks of candidate sets, so one long check can overrun it; it does not bound the
     * exhaustive reasoning over a small set, which has a bound of its own. {@link Duration#ZERO}
     * tries only the transactions the verdict names.
     *
     * @param explainTimeLimit zero or positive
     * @return a copy with {@code explainTimeLimit}; never {@code null}
     * @throws NullPointerException     if {@code explainTimeLimit} is {@code null}
     * @throws IllegalArgumentException if {@code explainTimeLimit} is negative
     */
    public CheckOptions withExplainTimeLimit(Duration explainTimeLimit) {
        Objects.requireNonNull(explainTimeLimit, "explainTimeLimit is null");
        if (explainTimeLimit.isNegative()) {
            throw new IllegalArgumentException("explainTimeLimit must not be negative: " + explainTimeLimit);
        }
        return new CheckOptions(gpuMode, timeLimit, memoryBudget, explainTimeLimit, explainMaxTransactions);
    }

    /**
     * These options with another bound on the transactions explained exhaustively. A violation
     * that needs more transactions than the bound is still reported, with an
     * {@link dev.isocheck.explain.Explanation.Unexplained} naming some of them. The exhaustive
     * search grows exponentially with the bound.
     *
     * @param explainMaxTransactions between 1 and {@value #MAX_EXPLAIN_TRANSACTIONS}
     * @return a copy with {@code explainMaxTransactions}; never {@code null}
     * @throws IllegalArgumentException if {@code explainMaxTransactions} is out of range
     */
    public CheckOptions withExplainMaxTransactions(int explainMaxTransactions) {
        if (explainMaxTransactions < 1 || explainMaxTransactions > MAX_EXPLAIN_TRANSACTIONS) {
            throw new IllegalArgumentException("explainMaxTransactions must be between 1 and "
                    + MAX_EXPLAIN_TRANSACTIONS + ": " + explainMaxTransactions);
        }
        return new CheckOptions(gpuMode, timeLimit, memoryBudget, explainTimeLimit, explainMaxTransactions);
    }

    /**
     * Whether {@code other} is {@code CheckOptions} with the same values.
     *
     * @return {@code true} when every option is equal
     */
    @Override
    public boolean equals(Object other) {
        return other instanceof CheckOptions o && gpuMode == o.gpuMode && timeLimit.equals(o.timeLimit)
                && memoryBudget == o.memoryBudget && explainTimeLimit.equals(o.explainTimeLimit)
                && explainMaxTransactions == o.explainMaxTransactions;
    }

    /**
     * A hash of the values.
     *
     * @return consistent with {@link #equals}
     */
    @Override
    public int hashCode() {
        return Objects.hash(gpuMode, timeLimit, memoryBudget, explainTimeLimit, explainMaxTransactions);
    }

    /**
     * The values, for logs: {@code CheckOptions[gpuMode=AUTO, timeLimit=PT10M, memoryBudget=default,
     * explainTimeLimit=PT30S, explainMaxTransactions=10]}.
     *
     * @return never {@code null}
     */
    @Override
    public String toString() {
        return "CheckOptions[gpuMode=" + gpuMode + ", timeLimit=" + timeLimit + ", memoryBudget="
                + (memoryBudget == 0 ? "default" : String.valueOf(memoryBudget)) + ", explainTimeLimit="
                + explainTimeLimit + ", explainMaxTransactions=" + explainMaxTransactions + "]";
    }
}
