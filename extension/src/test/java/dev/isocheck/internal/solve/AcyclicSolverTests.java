package dev.isocheck.internal.solve;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.sat4j.core.VecInt;
import org.sat4j.minisat.SolverFactory;
import org.sat4j.minisat.core.Solver;
import org.sat4j.specs.ContradictionException;
import org.sat4j.specs.TimeoutException;

/**
 * isocheck's own CDCL search with the acyclicity theory against brute force on small random
 * problems, and against sat4j with the same theory on larger ones, with its backtracking,
 * restarts and clause deletion tuned so that small problems take every path: chronological
 * backtracking on every jump (and on jumps of more than one level), restarts every few conflicts,
 * learnt clauses halved from a handful on. A wrong "unsatisfiable" (a learnt clause that is not
 * implied, a missed implication taken for a conflict) or a bad model (a missed propagation, a
 * cycle the theory lost on an out-of-order undo) shows as a disagreement, with its seed.
 */
class AcyclicSolverTests {

    /** Chronological jump threshold, restart unit, first reduction. */
    static Stream<Arguments> tunings() {
        return Stream.of(
                Arguments.of("always chronological, restarts every 2 conflicts, reductions from 4 learnt clauses", 0, 2, 4),
                Arguments.of("chronological past one level, restarts every 8 conflicts, reductions from 16", 1, 8, 16),
                Arguments.of("as shipped", AcyclicSolver.CHRONO_JUMP, 512, 4_000));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tunings")
    void agreesWithBruteForceOnSmallProblems(String name, int chronoJump, int restartUnit, int firstReduce) {
        int cases = 10_000;
        int satisfiable = 0;
        long conflicts = 0;
        long chronological = 0;
        for (int seed = 1; seed <= cases; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            ConditionalGraphs problem = seed % 2 == 0 ? ConditionalGraphs.random(random, 8, 12, 3, 1)
                    : ConditionalGraphs.hard(random, 3 + random.nextInt(6), 12, 3 + random.nextInt(20), 20 + random.nextInt(35));
            AcyclicSolver solver = solve(problem, chronoJump, restartUnit, firstReduce);
            AcyclicSolver.Result result = solver.solve(Long.MAX_VALUE / 2 + System.nanoTime());
            assertThat(result == AcyclicSolver.Result.SATISFIABLE).as("seed %d: %s", seed, problem)
                    .isEqualTo(problem.bruteForce());
            if (result == AcyclicSolver.Result.SATISFIABLE) {
                satisfiable++;
                assertThat(problem.accepts(solver.model())).as("seed %d: the model breaks a clause or has a cycle: %s", seed,
                        problem).isTrue();
            }
            conflicts += solver.conflicts();
            chronological += solver.chronologicalBacktracks();
        }
        System.out.printf("%s: %d satisfiable, %d conflicts, %d chronological%n", name, satisfiable, conflicts, chronological);
        assertThat(satisfiable).isBetween(cases / 10, cases - cases / 10);
        assertThat(conflicts).isGreaterThan(cases / 2);
        if (chronoJump <= 1) {
            assertThat(chronological).as("chronological backtracks").isGreaterThan(cases / 20);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tunings")
    void agreesWithSat4jOnLargerProblems(String name, int chronoJump, int restartUnit, int firstReduce)
            throws TimeoutException {
        int cases = 1_500;
        int satisfiable = 0;
        long conflicts = 0;
        long restarts = 0;
        long reductions = 0;
        for (int seed = 1; seed <= cases; seed++) {
            SplittableRandom random = new SplittableRandom(1_000_000L + seed);
            int variables = 30 + random.nextInt(50);
            ConditionalGraphs problem = ConditionalGraphs.hard(random, 10 + random.nextInt(30), variables, variables * (1 + random.nextInt(3)),
                    (int) (variables * (2.0 + 2.5 * random.nextDouble())));
            AcyclicSolver solver = solve(problem, chronoJump, restartUnit, firstReduce);
            AcyclicSolver.Result result = solver.solve(Long.MAX_VALUE / 2 + System.nanoTime());
            boolean expected = sat4j(problem);
            assertThat(result == AcyclicSolver.Result.SATISFIABLE).as("seed %d: %s", 1_000_000L + seed, problem)
                    .isEqualTo(expected);
            if (expected) {
                satisfiable++;
                assertThat(problem.accepts(solver.model())).as("seed %d: the model breaks a clause or has a cycle", seed)
                        .isTrue();
            }
            conflicts += solver.conflicts();
            restarts += solver.restarts();
            reductions += solver.reductions();
        }
        System.out.printf("%s: %d satisfiable, %d conflicts, %d restarts, %d reductions%n", name, satisfiable, conflicts, restarts, reductions);
        assertThat(satisfiable).isBetween(cases / 10, cases - cases / 10);
        assertThat(conflicts).isGreaterThan(cases);
        if (restartUnit <= 8) {
            assertThat(restarts).as("restarts").isGreaterThan(cases / 10);
            assertThat(reductions).as("learnt-clause reductions").isGreaterThan(cases / 20);
        }
    }

    /** Clauses added again after a first answer (as the checker adds a cycle found in a model) keep it right. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("tunings")
    void staysRightWhenClausesArriveBetweenSearches(String name, int chronoJump, int restartUnit, int firstReduce) {
        for (int seed = 1; seed <= 3_000; seed++) {
            ConditionalGraphs problem = ConditionalGraphs.hard(new SplittableRandom(2_000_000L + seed), 3 + seed % 6, 12, 3 + seed % 20, 20 + seed % 35);
            int half = problem.clauses().size() / 2;
            ConditionalGraphs first = new ConditionalGraphs(problem.nodes(), problem.variables(), problem.edges(),
                    problem.clauses().subList(0, half));
            AcyclicSolver solver = solve(first, chronoJump, restartUnit, firstReduce);
            solver.solve(Long.MAX_VALUE / 2 + System.nanoTime());
            for (int[] clause : problem.clauses().subList(half, problem.clauses().size())) {
                solver.addClause(clause);
            }
            AcyclicSolver.Result result = solver.solve(Long.MAX_VALUE / 2 + System.nanoTime());
            assertThat(result == AcyclicSolver.Result.SATISFIABLE).as("seed %d: %s", 2_000_000L + seed, problem)
                    .isEqualTo(problem.bruteForce());
            if (result == AcyclicSolver.Result.SATISFIABLE) {
                assertThat(problem.accepts(solver.model())).isTrue();
            }
        }
    }

    private static AcyclicSolver solve(ConditionalGraphs problem, int chronoJump, int restartUnit, int firstReduce) {
        boolean[] phases = new boolean[problem.variables() + 1];
        SplittableRandom random = new SplittableRandom(problem.variables() * 31L + problem.edges().size());
        for (int v = 1; v <= problem.variables(); v++) {
            phases[v] = random.nextBoolean();
        }
        AcyclicSolver solver = new AcyclicSolver(problem.variables(), problem.theory(), phases, chronoJump, restartUnit,
                firstReduce);
        for (int[] clause : problem.clauses()) {
            solver.addClause(clause);
        }
        return solver;
    }

    private static boolean sat4j(ConditionalGraphs problem) throws TimeoutException {
        Solver<?> solver = (Solver<?>) SolverFactory.newDefault();
        solver.newVar(problem.variables());
        problem.theory().attachTo(solver);
        try {
            for (int[] clause : problem.clauses()) {
                solver.addClause(new VecInt(clause));
            }
            return solver.isSatisfiable();
        } catch (ContradictionException e) {
            return false;
        }
    }
}
