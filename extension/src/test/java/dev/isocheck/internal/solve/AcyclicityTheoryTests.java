package dev.isocheck.internal.solve;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.sat4j.core.VecInt;
import org.sat4j.minisat.SolverFactory;
import org.sat4j.minisat.core.Solver;
import org.sat4j.specs.ContradictionException;
import org.sat4j.specs.TimeoutException;

/**
 * The acyclicity theory inside sat4j against brute force: on thousands of seeded random graphs
 * whose edges rest on random literals, with random clauses beside them (so that the search
 * backtracks, learns and restarts), the solver with the theory finds a model exactly when some
 * assignment satisfies the clauses and leaves the present edges acyclic, and the model it finds
 * is such an assignment. Any wrong conflict, missed cycle or bad undo shows up as a disagreement.
 */
class AcyclicityTheoryTests {

    private static final int CASES = 10_000;

    @Test
    void agreesWithBruteForceOnRandomConditionalGraphs() throws TimeoutException {
        int satisfiable = 0;
        int conflicts = 0;
        for (int seed = 1; seed <= CASES; seed++) {
            ConditionalGraphs problem = ConditionalGraphs.random(new SplittableRandom(seed), 8, 10, 3, 1);
            boolean expected = problem.bruteForce();
            AcyclicityTheory theory = problem.theory();
            Solver<?> solver = (Solver<?>) SolverFactory.newDefault();
            solver.newVar(problem.variables());
            theory.attachTo(solver);
            boolean actual;
            try {
                for (int[] clause : problem.clauses()) {
                    solver.addClause(new VecInt(clause));
                }
                actual = solver.isSatisfiable();
            } catch (ContradictionException e) {
                actual = false;
            }
            assertThat(actual).as("seed %d: %s", seed, problem).isEqualTo(expected);
            if (actual) {
                satisfiable++;
                boolean[] model = new boolean[problem.variables() + 1];
                for (int literal : solver.model()) {
                    if (literal > 0) {
                        model[literal] = true;
                    }
                }
                assertThat(problem.accepts(model))
                        .as("seed %d: the model %s leaves a cycle or breaks a clause", seed, java.util.Arrays.toString(solver.model()))
                        .isTrue();
            }
            conflicts += theory.conflicts();
        }
        // Both answers, and real work for the theory, or the test proves little.
        assertThat(satisfiable).isBetween(CASES / 10, CASES - CASES / 10);
        assertThat(conflicts).isGreaterThan(CASES / 4);
    }
}
