package dev.isocheck.internal.solve;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
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
            SplittableRandom random = new SplittableRandom(seed);
            int nodes = 2 + random.nextInt(7);
            int variables = 1 + random.nextInt(10);
            List<int[]> edges = new ArrayList<>();
            int count = random.nextInt(4 * nodes);
            for (int i = 0; i < count; i++) {
                int u = random.nextInt(nodes);
                int v = random.nextInt(nodes);
                int a = random.nextInt(5) == 0 ? 0 : literal(random, variables);
                int b = random.nextInt(3) == 0 ? literal(random, variables) : 0;
                if (a == 0 && b == 0 && u >= v) {
                    continue; // certain edges go forward in node order, so they are acyclic
                }
                if (u == v && random.nextBoolean()) {
                    continue;
                }
                edges.add(new int[] {u, v, a, b});
            }
            List<int[]> clauses = new ArrayList<>();
            int clauseCount = random.nextInt(variables + 1);
            for (int i = 0; i < clauseCount; i++) {
                int width = 1 + random.nextInt(3);
                int[] clause = new int[width];
                for (int j = 0; j < width; j++) {
                    clause[j] = literal(random, variables);
                }
                clauses.add(clause);
            }
            boolean expected = bruteForce(nodes, variables, edges, clauses);
            AcyclicityTheory theory = AcyclicityTheory.over(nodes, variables, edges.toArray(int[][]::new));
            Solver<?> solver = (Solver<?>) SolverFactory.newDefault();
            solver.newVar(variables);
            theory.attachTo(solver);
            boolean actual;
            try {
                for (int[] clause : clauses) {
                    solver.addClause(new VecInt(clause));
                }
                actual = solver.isSatisfiable();
            } catch (ContradictionException e) {
                actual = false;
            }
            assertThat(actual).as("seed %d: %d nodes, %d variables, edges %s, clauses %s", seed, nodes, variables,
                    show(edges), show(clauses)).isEqualTo(expected);
            if (actual) {
                satisfiable++;
                boolean[] model = new boolean[variables + 1];
                for (int literal : solver.model()) {
                    if (literal > 0) {
                        model[literal] = true;
                    }
                }
                assertThat(acyclic(nodes, edges, model) && satisfies(clauses, model))
                        .as("seed %d: the model %s leaves a cycle or breaks a clause", seed, show(List.of(solver.model())))
                        .isTrue();
            }
            conflicts += theory.conflicts();
        }
        // Both answers, and real work for the theory, or the test proves little.
        assertThat(satisfiable).isBetween(CASES / 10, CASES - CASES / 10);
        assertThat(conflicts).isGreaterThan(CASES / 4);
    }

    private static int literal(SplittableRandom random, int variables) {
        int v = 1 + random.nextInt(variables);
        return random.nextBoolean() ? v : -v;
    }

    private static boolean bruteForce(int nodes, int variables, List<int[]> edges, List<int[]> clauses) {
        for (int bits = 0; bits < 1 << variables; bits++) {
            boolean[] model = new boolean[variables + 1];
            for (int v = 1; v <= variables; v++) {
                model[v] = (bits >> (v - 1) & 1) == 1;
            }
            if (satisfies(clauses, model) && acyclic(nodes, edges, model)) {
                return true;
            }
        }
        return false;
    }

    private static boolean holds(int literal, boolean[] model) {
        return literal == 0 || (literal > 0 ? model[literal] : !model[-literal]);
    }

    private static boolean satisfies(List<int[]> clauses, boolean[] model) {
        for (int[] clause : clauses) {
            boolean any = false;
            for (int literal : clause) {
                any |= holds(literal, model);
            }
            if (!any) {
                return false;
            }
        }
        return true;
    }

    /** Kahn's algorithm over the edges whose literals hold. */
    private static boolean acyclic(int nodes, List<int[]> edges, boolean[] model) {
        int[] indegree = new int[nodes];
        List<int[]> present = new ArrayList<>();
        for (int[] e : edges) {
            if (holds(e[2], model) && holds(e[3], model)) {
                present.add(e);
                indegree[e[1]]++;
            }
        }
        boolean[] done = new boolean[nodes];
        for (int round = 0; round < nodes; round++) {
            int next = -1;
            for (int n = 0; n < nodes && next < 0; n++) {
                if (!done[n] && indegree[n] == 0) {
                    next = n;
                }
            }
            if (next < 0) {
                return false;
            }
            done[next] = true;
            for (int[] e : present) {
                if (e[0] == next) {
                    indegree[e[1]]--;
                }
            }
        }
        return true;
    }

    private static String show(List<int[]> rows) {
        StringBuilder out = new StringBuilder("[");
        for (int[] row : rows) {
            out.append(java.util.Arrays.toString(row));
        }
        return out.append(']').toString();
    }
}
