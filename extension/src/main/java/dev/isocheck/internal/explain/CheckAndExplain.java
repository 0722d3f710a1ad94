package dev.isocheck.internal.explain;

import dev.isocheck.CheckResult;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.explain.Explanation;
import dev.isocheck.history.History;
import dev.isocheck.internal.engine.Checker;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The steps of {@link dev.isocheck.Isocheck#check}, over any checker and explainer: the verdict,
 * then for a violation its explanation, each timed. Here rather than in {@code Isocheck} so that
 * the command line's tests can run the same steps with a checker of their own.
 */
public final class CheckAndExplain {

    private CheckAndExplain() {
    }

    /**
     * Checks {@code history} at {@code level} with {@code checker} and explains a violation with
     * {@code explainer}. Should the explainer fail (an exception, a stack overflow, or no
     * explanation at all, or the heap exhausted), the verdict stands with an
     * {@link Explanation.Unexplained} naming the failure: a bug in explaining must not hide a
     * violation. A check the checker gave up, where real-time order found a cycle, may still be
     * proved violated on a restriction of the history ({@link ProofByRestriction}). A failure of
     * the checker propagates (the {@link dev.isocheck.internal.engine.CheckPipeline
     * pipeline} answers {@link Verdict.Unknown} for its limits and an exhausted heap itself).
     *
     * @return never {@code null}
     */
    public static CheckResult run(History history, IsolationLevel level, Checker checker, Explainer explainer) {
        long checking = System.nanoTime();
        Verdict verdict = checker.check(history, level);
        if (verdict instanceof Verdict.Unknown unknown && ProofByRestriction.applies(unknown)) {
            // Real time found a cycle where the check without it gave up: the transactions on the
            // cycle may prove the violation at the level asked, as a restriction of the history.
            if (checker.check(history, IsolationLevel.STRICT_SERIALIZABLE) instanceof Verdict.Violated strict) {
                Optional<Verdict.Violated> proved = ProofByRestriction.prove(history, level, checker,
                        strict.anomaly().transactions());
                if (proved.isPresent()) {
                    verdict = proved.get();
                }
            }
        }
        Duration checkDuration = Duration.ofNanos(System.nanoTime() - checking);
        if (!(verdict instanceof Verdict.Violated violated)) {
            return new CheckResult(verdict, Optional.empty(), checkDuration, Duration.ZERO);
        }
        long explaining = System.nanoTime();
        Explanation explanation;
        try {
            explanation = Objects.requireNonNull(
                    explainer.explain(history, violated.level(), violated.anomaly().transactions()),
                    "the explainer returned null");
        } catch (OutOfMemoryError e) {
            explanation = new Explanation.Unexplained(violated.level(), "the explainer ran out of memory (the maximum heap"
                    + " is " + dev.isocheck.internal.limit.Limits.bytes(Runtime.getRuntime().maxMemory()) + ")");
        } catch (RuntimeException | StackOverflowError e) {
            explanation = new Explanation.Unexplained(violated.level(), "the explainer failed: " + e.getClass().getName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()) + " (please report)");
        }
        return new CheckResult(verdict, Optional.of(explanation), checkDuration,
                Duration.ofNanos(System.nanoTime() - explaining));
    }
}
