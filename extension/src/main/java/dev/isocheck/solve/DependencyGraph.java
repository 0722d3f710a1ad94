package dev.isocheck.solve;

import dev.isocheck.graph.EdgeKind;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One candidate dependency graph: the known edges plus those a solver model chose, each edge with
 * its <em>reason</em>, the (at most two) solver literals whose truth put it there ({@code 0}: none,
 * the edge is known). The acyclicity theory turns a cycle into the clause "not all of these
 * reasons".
 *
 * <p>Edges accumulate in parallel primitive arrays; {@link #seal()} builds the successor lists.
 * Searches are iterative (graphs have 10k+ nodes, far beyond the call stack).
 */
final class DependencyGraph {

    private final int nodes;
    private int size;
    private int[] from = new int[1024];
    private int[] to = new int[1024];
    private int[] reasonA = new int[1024];
    private int[] reasonB = new int[1024];
    private byte[] kinds = new byte[1024];
    private int[] successorStart;
    private int[] successors;

    DependencyGraph(int nodes) {
        this.nodes = nodes;
    }

    void add(int source, int target, EdgeKind kind, int literalA, int literalB) {
        if (size == from.length) {
            int grown = size * 2;
            from = Arrays.copyOf(from, grown);
            to = Arrays.copyOf(to, grown);
            reasonA = Arrays.copyOf(reasonA, grown);
            reasonB = Arrays.copyOf(reasonB, grown);
            kinds = Arrays.copyOf(kinds, grown);
        }
        from[size] = source;
        to[size] = target;
        reasonA[size] = literalA;
        reasonB[size] = literalB;
        kinds[size] = (byte) kind.ordinal();
        size++;
    }

    void seal() {
        successorStart = new int[nodes + 1];
        for (int e = 0; e < size; e++) {
            successorStart[from[e] + 1]++;
        }
        for (int n = 0; n < nodes; n++) {
            successorStart[n + 1] += successorStart[n];
        }
        successors = new int[size];
        int[] fill = Arrays.copyOf(successorStart, nodes);
        for (int e = 0; e < size; e++) {
            successors[fill[from[e]]++] = e;
        }
    }

    int from(int e) {
        return from[e];
    }

    int to(int e) {
        return to[e];
    }

    EdgeKind kind(int e) {
        return EdgeKind.values()[kinds[e]];
    }

    /** The literals (non-zero ones) that produced edge {@code e}. */
    int reasonA(int e) {
        return reasonA[e];
    }

    int reasonB(int e) {
        return reasonB[e];
    }

    /**
     * Cycles of the graph, each as its edges in order, at most {@code limit} of them: one per back
     * edge of a depth-first search, closed along the search path.
     */
    List<int[]> cycles(int limit) {
        List<int[]> found = new ArrayList<>();
        byte[] color = new byte[nodes];
        int[] parentEdge = new int[nodes];
        int[] cursor = new int[nodes];
        int[] stack = new int[nodes];
        for (int root = 0; root < nodes && found.size() < limit; root++) {
            if (color[root] != 0) {
                continue;
            }
            int depth = 0;
            stack[depth++] = root;
            color[root] = 1;
            cursor[root] = successorStart[root];
            parentEdge[root] = -1;
            while (depth > 0 && found.size() < limit) {
                int u = stack[depth - 1];
                if (cursor[u] == successorStart[u + 1]) {
                    color[u] = 2;
                    depth--;
                    continue;
                }
                int e = successors[cursor[u]++];
                int v = to[e];
                if (color[v] == 0) {
                    color[v] = 1;
                    parentEdge[v] = e;
                    cursor[v] = successorStart[v];
                    stack[depth++] = v;
                } else if (color[v] == 1) {
                    found.add(closeCycle(e, v, parentEdge));
                }
            }
        }
        return found;
    }

    private int[] closeCycle(int backEdge, int head, int[] parentEdge) {
        ArrayDeque<Integer> path = new ArrayDeque<>();
        path.addFirst(backEdge);
        for (int n = from[backEdge]; n != head; n = from[parentEdge[n]]) {
            path.addFirst(parentEdge[n]);
        }
        return path.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * The nodes in an order where every edge goes forward (Kahn's algorithm, lowest node first
     * among the ready ones), or {@code null} if the graph has a cycle.
     */
    int[] topologicalOrder() {
        int[] indegree = new int[nodes];
        for (int e = 0; e < size; e++) {
            indegree[to[e]]++;
        }
        java.util.PriorityQueue<Integer> ready = new java.util.PriorityQueue<>();
        for (int n = 0; n < nodes; n++) {
            if (indegree[n] == 0) {
                ready.add(n);
            }
        }
        int[] order = new int[nodes];
        int placed = 0;
        while (!ready.isEmpty()) {
            int u = ready.poll();
            order[placed++] = u;
            for (int i = successorStart[u]; i < successorStart[u + 1]; i++) {
                int v = to[successors[i]];
                if (--indegree[v] == 0) {
                    ready.add(v);
                }
            }
        }
        return placed == nodes ? order : null;
    }
}
