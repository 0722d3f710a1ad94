package dev.isocheck;

import static org.apiguardian.api.API.Status.STABLE;

import dev.isocheck.explain.Explanation;
import dev.isocheck.explain.TextRenderer;
import dev.isocheck.explain.TransactionSummary;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What {@link Isocheck#check(dev.isocheck.history.History, IsolationLevel) Isocheck.check} found:
 * the {@link Verdict}, the {@link Explanation} of a violation, and how long each took.
 *
 * <pre>{@code
 * CheckResult result = Isocheck.check(history, IsolationLevel.SERIALIZABLE);
 * if (result.isViolated()) {
 *     System.out.println(result.explanationText().orElseThrow());
 * }
 * }</pre>
 *
 * <p>An {@link Verdict.Unknown unknown} verdict is not a pass: {@link #isSatisfied()} is
 * {@code false} for it, and so is {@link #isViolated()}; {@link #unknownReason()} says why. A pass
 * may come with {@link #caveats()}: what was not checked.
 *
 * @param verdict         the answer; never {@code null}
 * @param explanation     present exactly when the verdict is {@link Verdict.Violated}: the cycles or
 *                        the read that prove it, or an {@link Explanation.Unexplained} saying why none
 *                        could be shown (the verdict stands all the same); never {@code null}
 * @param checkDuration   how long the verdict took; never {@code null}, never negative
 * @param explainDuration how long the explanation took; {@link Duration#ZERO} without one; never
 *                        {@code null}, never negative
 */
@API(status = STABLE, since = "0.1")
public record CheckResult(Verdict verdict, Optional<Explanation> explanation, Duration checkDuration,
        Duration explainDuration) {

    /**
     * Validates.
     *
     * @param verdict         the answer
     * @param explanation     present exactly when the verdict is {@link Verdict.Violated}
     * @param checkDuration   how long the verdict took
     * @param explainDuration how long the explanation took; {@link Duration#ZERO} without one
     * @throws NullPointerException     if an argument is {@code null}
     * @throws IllegalArgumentException if the explanation is present and the verdict is not a
     *                                  violation, or the other way round; or a duration is negative
     */
    public CheckResult {
        Objects.requireNonNull(verdict, "verdict is null");
        Objects.requireNonNull(explanation, "explanation is null");
        Objects.requireNonNull(checkDuration, "checkDuration is null");
        Objects.requireNonNull(explainDuration, "explainDuration is null");
        if (explanation.isPresent() != verdict.isViolated()) {
            throw new IllegalArgumentException((verdict.isViolated() ? "a violation needs an explanation"
                    : "only a violation has an explanation") + ": " + verdict);
        }
        if (checkDuration.isNegative() || explainDuration.isNegative()) {
            throw new IllegalArgumentException("durations must not be negative: " + checkDuration + ", " + explainDuration);
        }
    }

    /**
     * The level the history was checked at.
     *
     * @return never {@code null}
     */
    public IsolationLevel level() {
        return verdict.level();
    }

    /**
     * Whether the history was shown to satisfy the level.
     *
     * @return {@code false} for a violation and for an unknown verdict
     */
    public boolean isSatisfied() {
        return verdict.isSatisfied();
    }

    /**
     * Whether the history was shown to violate the level.
     *
     * @return {@code true} exactly when {@link #explanation()} is present
     */
    public boolean isViolated() {
        return verdict.isViolated();
    }

    /**
     * Whether the check could not decide (the reason is in {@link Verdict.Unknown#reason()}).
     *
     * @return {@code true} for a {@link Verdict.Unknown}
     */
    public boolean isUnknown() {
        return verdict instanceof Verdict.Unknown;
    }

    /**
     * What a pass did not check, in words: a predicate read whose {@code where} the engine cannot
     * evaluate, real-time order at strict serializability where transactions have no start or
     * end time, a history without committed transactions. Read them before trusting a pass.
     *
     * @return {@link Verdict.Satisfied#caveats()} for a pass, else empty; never {@code null}
     */
    public List<String> caveats() {
        return verdict instanceof Verdict.Satisfied satisfied ? satisfied.caveats() : List.of();
    }

    /**
     * Why the check could not decide, for an {@link Verdict.Unknown unknown} verdict: a limit
     * exceeded ({@link CheckOptions#withTimeLimit}, {@link CheckOptions#withMemoryBudget}) and in
     * which stage, or what the engine cannot model.
     *
     * @return present exactly when the verdict is unknown; never {@code null}
     */
    public Optional<String> unknownReason() {
        return verdict instanceof Verdict.Unknown unknown ? Optional.of(unknown.reason()) : Optional.empty();
    }

    /**
     * The anomaly of a violation, named as the {@link #explanation()} names it: when the explanation
     * is a cycle (or a case analysis over cycles), its type and transactions, so that code asserting
     * on {@code anomaly().type()} sees the {@code G2-item} the message shows rather than the
     * engine's {@link AnomalyType#NO_VALID_ORDER}; otherwise the anomaly the checking engine reported.
     * The engine's own finding stays in {@link #verdict()}.
     *
     * @return present exactly when the verdict is a violation; never {@code null}
     */
    public Optional<Anomaly> anomaly() {
        if (!(verdict instanceof Verdict.Violated violated)) {
            return Optional.empty();
        }
        if (explanation.orElse(null) instanceof Explanation.Cycles cycles) {
            // The explanation's transactions are the cycles' in the order the story is told.
            List<String> ids = cycles.transactions().stream().map(TransactionSummary::id).toList();
            return Optional.of(new Anomaly(cycles.anomalyType(), ids, firstLine(explanationText().orElseThrow())));
        }
        if (explanation.orElse(null) instanceof Explanation.LikelyCase likely) {
            List<String> ids = likely.transactions().stream().map(TransactionSummary::id).toList();
            return Optional.of(new Anomaly(likely.anomalyType(), ids, firstLine(explanationText().orElseThrow())));
        }
        return Optional.of(violated.anomaly());
    }

    /**
     * The names of every anomaly this result shows, for assertions: the {@link #anomaly()}'s type,
     * the type of each cycle its explanation shows, and each such cycle's familiar name (lost
     * update, write skew, read skew, stale read, long fork) where it has one. Each type appears
     * under its short name and its description ({@code G2-item}, {@code item anti-dependency cycle}).
     *
     * @return empty unless the verdict is a violation
     */
    @API(status = org.apiguardian.api.API.Status.EXPERIMENTAL, since = "0.2")
    public java.util.Set<String> anomaliesShown() {
        java.util.Set<String> names = new java.util.LinkedHashSet<>();
        anomaly().ifPresent(a -> {
            names.add(a.type().shortName());
            names.add(a.type().description());
        });
        List<Explanation.Case> cases = explanation.orElse(null) instanceof Explanation.Cycles cycles ? cycles.cases()
                : explanation.orElse(null) instanceof Explanation.LikelyCase likely ? likely.cases() : List.of();
        for (Explanation.Case c : cases) {
            names.add(c.cycle().type().shortName());
            names.add(c.cycle().type().description());
            c.cycle().familiarName().ifPresent(names::add);
        }
        if (explanation.orElse(null) instanceof Explanation.Screened screened) {
            screened.anomaly().familiarName().ifPresent(names::add);
        }
        if (verdict instanceof Verdict.Violated violated) {
            names.add(violated.anomaly().type().shortName());
            names.add(violated.anomaly().type().description());
        }
        return java.util.Collections.unmodifiableSet(names);
    }

    /**
     * Whether this result shows an anomaly named {@code name}, in any case: a type's short name or
     * description, or a familiar name ({@link #anomaliesShown()}).
     */
    @API(status = org.apiguardian.api.API.Status.EXPERIMENTAL, since = "0.2")
    public boolean showsAnomaly(String name) {
        return anomaliesShown().stream().anyMatch(shown -> shown.equalsIgnoreCase(name.strip()));
    }

    /** Whether this result shows an anomaly of {@code type} ({@link #anomaliesShown()}). */
    @API(status = org.apiguardian.api.API.Status.EXPERIMENTAL, since = "0.2")
    public boolean showsAnomaly(AnomalyType type) {
        return showsAnomaly(type.shortName());
    }

    private static String firstLine(String text) {
        int end = text.indexOf('\n');
        return end < 0 ? text : text.substring(0, end);
    }

    /**
     * The explanation as plain text, as {@link TextRenderer} writes it: lines of at most
     * {@value TextRenderer#WIDTH} characters, each ending with {@code \n}, for consoles and
     * assertion messages.
     *
     * @return present exactly when the verdict is a violation; never {@code null}
     */
    public Optional<String> explanationText() {
        return explanation.map(new TextRenderer()::render);
    }
}
