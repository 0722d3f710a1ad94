package dev.isocheck.internal.cli;

import dev.isocheck.CheckResult;
import dev.isocheck.IsolationLevel;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

/** {@code --classify}: the weakest level a history violates. */
final class Classifier {

    /**
     * The levels {@code --classify} climbs, weakest first (Biswas and Enea's order): violating one
     * means violating every one after it.
     */
    static final List<IsolationLevel> LADDER = List.of(IsolationLevel.READ_COMMITTED, IsolationLevel.READ_ATOMIC,
            IsolationLevel.CAUSAL, IsolationLevel.PREFIX, IsolationLevel.SNAPSHOT_ISOLATION, IsolationLevel.SERIALIZABLE);

    private Classifier() {
    }

    /**
     * What {@code --classify} found.
     *
     * @param result  the result to print: at the weakest violated level, at serializable when none is,
     *                or at the level left undecided
     * @param weakest the weakest violated level, {@code null} when none is (or undecided)
     * @param decided whether the classification is certain
     */
    record Classification(CheckResult result, IsolationLevel weakest, boolean decided) {

        /** The line under the verdict: {@code weakest level violated: ...}. */
        String line() {
            if (!decided) {
                return "weakest level violated: not decided (" + result.level().cliName() + " was not)";
            }
            return "weakest level violated: " + (weakest == null ? "none (serializable)" : weakest.cliName() + weakerPassed(weakest));
        }
    }

    /**
     * A serializable history violates no level (its result is the serializable check's);
     * otherwise the levels are checked from the weakest, and the first violated one is the answer,
     * with its result. A level left undecided below it makes the answer undecided (that level's
     * result): the weakest violated level is only named when every weaker one passed.
     *
     * @param check checks the history at a level
     */
    static Classification classify(Function<IsolationLevel, CheckResult> check) {
        CheckResult serializable = check.apply(IsolationLevel.SERIALIZABLE);
        if (!serializable.isViolated()) {
            return new Classification(serializable, null, serializable.isSatisfied());
        }
        for (IsolationLevel level : LADDER) {
            CheckResult result = level == IsolationLevel.SERIALIZABLE ? serializable : check.apply(level);
            if (result.isViolated()) {
                return new Classification(result, level, true);
            }
            if (!result.isSatisfied()) {
                return new Classification(result, null, false);
            }
        }
        throw new IllegalStateException("serializable was violated");
    }

    private static String weakerPassed(IsolationLevel weakest) {
        int at = LADDER.indexOf(weakest);
        return at == 0 ? "" : " (satisfies " + LADDER.subList(0, at).stream().map(IsolationLevel::cliName)
                .collect(Collectors.joining(", ")) + ")";
    }
}
