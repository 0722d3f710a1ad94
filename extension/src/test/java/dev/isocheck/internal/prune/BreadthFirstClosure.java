package dev.isocheck.internal.prune;

import dev.isocheck.spi.Dag;
import dev.isocheck.spi.Reachability;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The test oracle: reachability by a plain breadth-first search from every node over the raw edge
 * list, sharing no code with the engines (not even {@link Dag}).
 */
final class BreadthFirstClosure {

    private final boolean[][] reaches;

    private BreadthFirstClosure(boolean[][] reaches) {
        this.reaches = reaches;
    }

    /** The closure of the first {@code edges} edges of {@code graph}. */
    static BreadthFirstClosure of(RandomDags.Graph graph, int edges) {
        int n = graph.nodes();
        List<List<Integer>> successors = new ArrayList<>();
        for (int u = 0; u < n; u++) {
            successors.add(new ArrayList<>());
        }
        for (int e = 0; e < edges; e++) {
            successors.get(graph.from()[e]).add(graph.to()[e]);
        }
        boolean[][] reaches = new boolean[n][n];
        int[] queue = new int[n];
        for (int source = 0; source < n; source++) {
            boolean[] seen = reaches[source];
            int head = 0;
            int tail = 0;
            queue[tail++] = source;
            seen[source] = true;
            while (head < tail) {
                for (int next : successors.get(queue[head++])) {
                    if (!seen[next]) {
                        seen[next] = true;
                        queue[tail++] = next;
                    }
                }
            }
        }
        return new BreadthFirstClosure(reaches);
    }

    /** The closure of all of {@code graph}. */
    static BreadthFirstClosure of(RandomDags.Graph graph) {
        return of(graph, graph.edges());
    }

    boolean reaches(int from, int to) {
        return reaches[from][to];
    }

    /**
     * Fails, naming the first pair that differs, unless {@code actual} answers every pair as this
     * closure does. {@code what} is only called on failure: describing a graph costs more than
     * checking it.
     */
    void assertSameAs(Reachability actual, Supplier<String> what) {
        int n = reaches.length;
        if (actual.nodeCount() != n) {
            throw new AssertionError(what.get() + ": " + actual.nodeCount() + " nodes, expected " + n);
        }
        for (int u = 0; u < n; u++) {
            for (int v = 0; v < n; v++) {
                if (actual.reaches(u, v) != reaches[u][v]) {
                    throw new AssertionError(what.get() + ": reaches(" + u + ", " + v + ") is " + actual.reaches(u, v)
                            + ", a breadth-first search says " + reaches[u][v]);
                }
            }
        }
    }
}
