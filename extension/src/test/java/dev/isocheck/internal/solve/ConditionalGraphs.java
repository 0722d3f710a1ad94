package dev.isocheck.internal.solve;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Random problems for the acyclicity searches: a graph whose edges rest on zero, one or two
 * literals, beside random clauses; and what holds of an assignment, checked directly (clauses
 * satisfied, present edges acyclic) and by brute force over every assignment.
 *
 * @param nodes     graph nodes
 * @param variables variables {@code 1..variables}
 * @param edges     {@code {from, to, literalA, literalB}}, DIMACS literals, 0 for none
 * @param clauses   DIMACS clauses
 */
record ConditionalGraphs(int nodes, int variables, List<int[]> edges, List<int[]> clauses) {

    /**
     * A problem of up to {@code maxNodes} nodes and {@code maxVariables} variables; certain edges
     * go forward in node order (so they alone are acyclic), up to four edges a node, and clauses are one to
     * {@code maxWidth} literals wide, about {@code clausesPerVariable} per variable.
     */
    static ConditionalGraphs random(SplittableRandom random, int maxNodes, int maxVariables, int maxWidth,
            double clausesPerVariable) {
        return random(random, maxNodes, maxVariables, maxWidth, clausesPerVariable, 4);
    }

    /** As {@link #random(SplittableRandom, int, int, int, double)}, with up to {@code edgesPerNode} edges a node. */
    static ConditionalGraphs random(SplittableRandom random, int maxNodes, int maxVariables, int maxWidth,
            double clausesPerVariable, int edgesPerNode) {
        int nodes = 2 + random.nextInt(maxNodes - 1);
        int variables = 1 + random.nextInt(maxVariables);
        List<int[]> edges = new ArrayList<>();
        int count = random.nextInt(edgesPerNode * nodes);
        for (int i = 0; i < count; i++) {
            int u = random.nextInt(nodes);
            int v = random.nextInt(nodes);
            int a = random.nextInt(5) == 0 ? 0 : literal(random, variables);
            int b = random.nextInt(3) == 0 ? literal(random, variables) : 0;
            if (a == 0 && b == 0 && u >= v) {
                continue;
            }
            if (u == v && random.nextBoolean()) {
                continue;
            }
            edges.add(new int[] {u, v, a, b});
        }
        List<int[]> clauses = new ArrayList<>();
        int clauseCount = random.nextInt((int) Math.ceil(clausesPerVariable * variables) + 1);
        for (int i = 0; i < clauseCount; i++) {
            int[] clause = new int[1 + random.nextInt(maxWidth)];
            for (int j = 0; j < clause.length; j++) {
                clause[j] = literal(random, variables);
            }
            clauses.add(clause);
        }
        return new ConditionalGraphs(nodes, variables, edges, clauses);
    }

    /**
     * A harder problem of exactly these sizes: {@code edges} edges, each on one or two literals,
     * and {@code clauseCount} clauses of three distinct variables (random 3-SAT near its
     * threshold of about 4.26 clauses a variable is hard; the edges make it harder).
     */
    static ConditionalGraphs hard(SplittableRandom random, int nodes, int variables, int edgeCount, int clauseCount) {
        List<int[]> edges = new ArrayList<>();
        for (int i = 0; i < edgeCount; i++) {
            int u = random.nextInt(nodes);
            int v = random.nextInt(nodes);
            if (u == v) {
                continue;
            }
            edges.add(new int[] {u, v, literal(random, variables), random.nextInt(3) == 0 ? literal(random, variables) : 0});
        }
        List<int[]> clauses = new ArrayList<>();
        for (int i = 0; i < clauseCount; i++) {
            int a = 1 + random.nextInt(variables);
            int b;
            int c;
            do {
                b = 1 + random.nextInt(variables);
            } while (b == a);
            do {
                c = 1 + random.nextInt(variables);
            } while (c == a || c == b);
            clauses.add(new int[] {random.nextBoolean() ? a : -a, random.nextBoolean() ? b : -b, random.nextBoolean() ? c : -c});
        }
        return new ConditionalGraphs(nodes, variables, edges, clauses);
    }

    private static int literal(SplittableRandom random, int variables) {
        int v = 1 + random.nextInt(variables);
        return random.nextBoolean() ? v : -v;
    }

    /** The acyclicity theory over this graph, its topological order seeded with node order. */
    AcyclicityTheory theory() {
        return AcyclicityTheory.over(nodes, variables, edges.toArray(int[][]::new));
    }

    /** Whether some assignment satisfies the clauses and leaves the present edges acyclic (up to about 16 variables). */
    boolean bruteForce() {
        for (int bits = 0; bits < 1 << variables; bits++) {
            boolean[] model = new boolean[variables + 1];
            for (int v = 1; v <= variables; v++) {
                model[v] = (bits >> (v - 1) & 1) == 1;
            }
            if (accepts(model)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code model} (by variable) satisfies every clause and leaves the present edges acyclic. */
    boolean accepts(boolean[] model) {
        return satisfies(model) && acyclic(model);
    }

    private static boolean holds(int literal, boolean[] model) {
        return literal == 0 || (literal > 0 ? model[literal] : !model[-literal]);
    }

    private boolean satisfies(boolean[] model) {
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
    private boolean acyclic(boolean[] model) {
        int[] indegree = new int[nodes];
        List<int[]> present = new ArrayList<>();
        for (int[] e : edges) {
            if (holds(e[2], model) && holds(e[3], model)) {
                present.add(e);
                indegree[e[1]]++;
            }
        }
        int[] ready = new int[nodes];
        int readyCount = 0;
        for (int n = 0; n < nodes; n++) {
            if (indegree[n] == 0) {
                ready[readyCount++] = n;
            }
        }
        int placed = 0;
        while (readyCount > 0) {
            int next = ready[--readyCount];
            placed++;
            for (int[] e : present) {
                if (e[0] == next && --indegree[e[1]] == 0) {
                    ready[readyCount++] = e[1];
                }
            }
        }
        return placed == nodes;
    }

    @Override
    public String toString() {
        return nodes + " nodes, " + variables + " variables, edges " + show(edges) + ", clauses " + show(clauses);
    }

    private static String show(List<int[]> rows) {
        StringBuilder out = new StringBuilder("[");
        for (int[] row : rows) {
            out.append(Arrays.toString(row));
        }
        return out.append(']').toString();
    }
}
