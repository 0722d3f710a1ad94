package dev.isocheck.internal.explain;

import dev.isocheck.explain.Explanation;
import dev.isocheck.internal.engine.Checker;
import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.engine.CheckPipeline;
import dev.isocheck.history.History;
import dev.isocheck.history.Transaction;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Explains violations of histories of any size: first {@link ExhaustiveExplainer} on the
 * transactions the verdict named; when they do not prove it (the engine's cycle may rest on write
 * orders that pruning settled through other transactions, or the verdict names more than the
 * explainer's bound), the history is shrunk to a minimal set of transactions that still violates the
 * level ({@link ViolatingCore}: QuickXplain with the engine deciding each restriction), and that
 * set is explained exhaustively.
 *
 * <p>Why a core of transactions rather than sat4j's unsatisfiable core of clauses: by the time the
 * engine calls the solver, pruning has turned most constraints into edges and dropped them, so the
 * clauses of a core are not the reasons a developer needs; the transactions are, and the exhaustive
 * explainer turns a handful of them into the shortest cycles or a case analysis, with minimality
 * relative to that core's explanations.
 *
 * <p>Sound as its parts are: a core's restriction only drops constraints (see
 * {@link ViolatingCore}), and the exhaustive explainer reports only cycles present in every
 * explanation of its transactions. Immutable and thread-safe.
 */
public final class CoreExplainer implements Explainer {

    /** The default time the search for a core may take. */
    public static final Duration DEFAULT_BUDGET = Duration.ofSeconds(30);
    /**
     * The time after which no more cases over which write a read saw are searched: the explanation
     * comes within about this time unless finding the likeliest case alone takes longer.
     */
    static final long ANSWER_NANOS = 1_600_000_000L;
    /** The time the search for a core without assumptions gets before the case analysis takes over. */
    static final long PLAIN_SHARE_NANOS = 500_000_000L;

    private final ExhaustiveExplainer exhaustive;
    private final Checker checker;
    private final Duration budget;

    /** An explainer with the default bounds, deciding restrictions with {@link CheckPipeline}. */
    public CoreExplainer() {
        this(new ExhaustiveExplainer(), new CheckPipeline(), DEFAULT_BUDGET);
    }

    /**
     * An explainer with these parts.
     *
     * @param exhaustive explains the verdict's transactions, and then the core
     * @param checker    decides whether a restriction of the history is still violated; it must
     *                   never call a satisfied history violated (its "violated" is trusted)
     * @param budget     how long the search for a core may take before giving up
     */
    public CoreExplainer(ExhaustiveExplainer exhaustive, Checker checker, Duration budget) {
        this.exhaustive = Objects.requireNonNull(exhaustive, "exhaustive is null");
        this.checker = Objects.requireNonNull(checker, "checker is null");
        this.budget = Objects.requireNonNull(budget, "budget is null");
    }

    @Override
    public Explanation explain(History history, IsolationLevel level, Collection<String> involved) {
        long started = System.nanoTime();
        Explanation first = exhaustive.explain(history, level, involved);
        if (!(first instanceof Explanation.Unexplained unexplained)) {
            return first;
        }
        int[] named = involved.stream().map(history::transaction).flatMap(Optional::stream).mapToInt(Transaction::index)
                .toArray();
        long deadline = deadline(budget);
        // With duplicate values the plain search may grow a core past the bound slowly; it gets a
        // share of the time, and the case analysis over which write reads saw the rest.
        long plainDeadline = ViolatingCore.earlier(deadline, System.nanoTime() + PLAIN_SHARE_NANOS);
        Optional<ViolatingCore.Result> core = ViolatingCore.find(history, level, checker, named,
                exhaustive.maxTransactions(), plainDeadline);
        if (core.isPresent() && core.get().complete()) {
            List<String> ids = ViolatingCore.ids(history, core.get().transactions());
            Explanation second = exhaustive.explain(history, level, ids);
            if (second instanceof Explanation.Unexplained again) {
                return new Explanation.Unexplained(level, "the transactions " + String.join(", ", ids)
                        + " alone violate the level, but " + again.reason());
            }
            return second;
        }
        if (core.isEmpty() && System.nanoTime() - plainDeadline < 0) {
            return new Explanation.Unexplained(level, unexplained.reason() + "; no smaller set of transactions that still"
                    + " violates the level was found");
        }
        // Typical of duplicate values: a read of a value several transactions wrote constrains
        // nothing until all of them are in, so the proof needs many transactions; one case per
        // write the read may have seen needs only that one.
        ExhaustiveExplainer leaves = new ExhaustiveExplainer(Math.min(30, exhaustive.maxTransactions()
                + SourceCases.LEAF_EXTRA), ExhaustiveExplainer.DEFAULT_BUDGET, ExhaustiveExplainer.DEFAULT_MAX_CASES);
        // The cases get what is left of the time an answer should come in; the likeliest case is
        // shown whenever it is found, which may take longer.
        Explanation cases = SourceCases.explain(history, level, checker, leaves, named, deadline, SourceCases.MAX_CASES,
                OptionalLong.of(ViolatingCore.earlier(deadline, started + ANSWER_NANOS)));
        if (cases instanceof Explanation.Unexplained none) {
            if (System.nanoTime() - deadline >= 0) {
                return new Explanation.Unexplained(level, unexplained.reason() + "; no smaller set of transactions that"
                        + " still violates the level was found within " + budget.toSeconds() + " s");
            }
            String plain = core.isEmpty() ? "no minimal set of transactions that still violates the level was found in "
                    + PLAIN_SHARE_NANOS / 1_000_000 + " ms, the time a search without assumptions gets"
                    : "a minimal set of transactions that still violates the level has more than the "
                    + exhaustive.maxTransactions() + " explained exhaustively (it includes "
                    + String.join(", ", ViolatingCore.ids(history, core.get().transactions())) + ")";
            return new Explanation.Unexplained(level, unexplained.reason() + "; " + plain + "; " + none.reason()
                    + " (within " + budget.toSeconds() + " s)");
        }
        return cases;
    }

    /**
     * {@link System#nanoTime()} plus {@code budget}, saturated at the ends of {@code long}: a budget
     * of centuries (options allow any) means no deadline, not an {@link ArithmeticException} or a
     * deadline in the past.
     */
    private static long deadline(Duration budget) {
        try {
            return Math.addExact(System.nanoTime(), budget.toNanos());
        } catch (ArithmeticException beyondRange) {
            return budget.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }
}
