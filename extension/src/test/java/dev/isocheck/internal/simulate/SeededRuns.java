package dev.isocheck.internal.simulate;

import java.util.function.Consumer;

/**
 * Runs a property over many seeds and, when it fails, says which seed (and, for generated
 * histories, the history) so that the failure can be replayed with that one seed.
 */
public final class SeededRuns {

    private SeededRuns() {
    }

    /** A check of one seed. */
    @FunctionalInterface
    public interface SeededCheck {
        /** Checks the property for {@code seed}; fails with an {@link AssertionError}. */
        void check(long seed) throws Exception;
    }

    /**
     * Runs {@code check} for seeds {@code baseSeed, baseSeed + 1, …} ({@code count} of them).
     *
     * @throws AssertionError "seed N: …" for the first seed that fails, with the failure as cause
     */
    public static void forEachSeed(int count, long baseSeed, SeededCheck check) {
        for (long seed = baseSeed; seed < baseSeed + count; seed++) {
            try {
                check.check(seed);
            } catch (AssertionError | Exception e) {
                throw new AssertionError("seed " + seed + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * Generates one history per seed and runs {@code check} on it.
     *
     * @throws AssertionError "seed N: …" for the first seed that fails, followed by the
     *                        generated history, one transaction a line
     */
    public static void forEachHistory(int count, long baseSeed, HistoryGenerator generator,
            Consumer<GeneratedHistory> check) {
        for (long seed = baseSeed; seed < baseSeed + count; seed++) {
            GeneratedHistory generated = generator.generate(seed);
            try {
                check.accept(generated);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("seed " + seed + " (" + generator.database() + "): " + e.getMessage()
                        + "\ninjected bugs: " + generated.bugs() + "\nhistory:\n" + generated.render(), e);
            }
        }
    }
}
