package dev.isocheck;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.isocheck.internal.explain.CoreExplainer;
import dev.isocheck.internal.explain.ExhaustiveExplainer;
import java.time.Duration;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * How {@link Isocheck#check(dev.isocheck.history.History, IsolationLevel, CheckOptions)} checks and
 * explains: which engine computes reachability, and how much the explanation of a violation may
 * cost. None of them changes a verdict.
 *
 * <p>Immutable: start from {@link #defaults()} and derive with the {@code with...} methods, each of
 * which returns a copy and leaves the original as it was.
 *
 * <pre>{@code
 * CheckOptions options = CheckOptions.defaults()
 *         .withGpuMode(GpuMode.OFF)
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

    private static final CheckOptions DEFAULTS = new CheckOptions(GpuMode.AUTO, CoreExplainer.DEFAULT_BUDGET,
            ExhaustiveExplainer.DEFAULT_MAX_TRANSACTIONS);

    private final GpuMode gpuMode;
    private final Duration explainTimeLimit;
    private final int explainMaxTransactions;

    private CheckOptions(GpuMode gpuMode, Duration explainTimeLimit, int explainMaxTransactions) {
        this.gpuMode = gpuMode;
        this.explainTimeLimit = explainTimeLimit;
        this.explainMaxTransactions = explainMaxTransactions;
    }

    /**
     * The options a check has unless told otherwise: {@link GpuMode#AUTO}, an explanation time
     * limit of 30 seconds, and at most 10 transactions explained exhaustively.
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
     * their writes, every choice of what each read saw). The default is 10.
     *
     * @return between 1 and {@value #MAX_EXPLAIN_TRANSACTIONS}
     * @see #withExplainMaxTransactions(int)
     */
    public int explainMaxTransactions() {
        return explainMaxTransactions;
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
        return new CheckOptions(gpuMode, explainTimeLimit, explainMaxTransactions);
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
        return new CheckOptions(gpuMode, explainTimeLimit, explainMaxTransactions);
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
        return new CheckOptions(gpuMode, explainTimeLimit, explainMaxTransactions);
    }

    /**
     * Whether {@code other} is {@code CheckOptions} with the same values.
     *
     * @return {@code true} when every option is equal
     */
    @Override
    public boolean equals(Object other) {
        return other instanceof CheckOptions o && gpuMode == o.gpuMode && explainTimeLimit.equals(o.explainTimeLimit)
                && explainMaxTransactions == o.explainMaxTransactions;
    }

    /**
     * A hash of the values.
     *
     * @return consistent with {@link #equals}
     */
    @Override
    public int hashCode() {
        return Objects.hash(gpuMode, explainTimeLimit, explainMaxTransactions);
    }

    /**
     * The values, for logs: {@code CheckOptions[gpuMode=AUTO, explainTimeLimit=PT30S, explainMaxTransactions=10]}.
     *
     * @return never {@code null}
     */
    @Override
    public String toString() {
        return "CheckOptions[gpuMode=" + gpuMode + ", explainTimeLimit=" + explainTimeLimit + ", explainMaxTransactions="
                + explainMaxTransactions + "]";
    }
}
