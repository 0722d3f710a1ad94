package dev.isocheck.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Arrays;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A directed acyclic graph over nodes {@code 0..n-1} in compressed sparse rows, with one of its
 * topological orders: the input of every {@link ReachabilityEngine}.
 *
 * <p>Plain arrays on purpose: a GPU engine copies them to device memory as they are, and a CPU
 * engine walks them without boxing. The arrays are owned by the {@code Dag} and never changed.
 * Parallel edges are allowed; self-loops and cycles are not (the factory rejects them).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class Dag {

    private final int nodes;
    private final int[] successorStart;
    private final int[] successors;
    private final int[] order;
    private final int[] position;

    private Dag(int nodes, int[] successorStart, int[] successors, int[] order, int[] position) {
        this.nodes = nodes;
        this.successorStart = successorStart;
        this.successors = successors;
        this.order = order;
        this.position = position;
    }

    /**
     * The graph with edges {@code from[i] -> to[i]} for {@code i < edges}.
     *
     * @return the graph, or {@code null} when the edges form a cycle (the caller owns that verdict)
     * @throws IllegalArgumentException for a node out of range or a self-loop
     */
    public static Dag of(int nodes, int[] from, int[] to, int edges) {
        Objects.requireNonNull(from, "from is null");
        Objects.requireNonNull(to, "to is null");
        if (nodes < 0 || edges < 0 || edges > from.length || edges > to.length) {
            throw new IllegalArgumentException("bad sizes: " + nodes + " nodes, " + edges + " edges");
        }
        int[] start = new int[nodes + 1];
        for (int e = 0; e < edges; e++) {
            if (from[e] < 0 || from[e] >= nodes || to[e] < 0 || to[e] >= nodes) {
                throw new IllegalArgumentException("edge " + from[e] + " -> " + to[e] + " is out of range 0.." + (nodes - 1));
            }
            if (from[e] == to[e]) {
                throw new IllegalArgumentException("self-loop on node " + from[e]);
            }
            start[from[e] + 1]++;
        }
        for (int n = 0; n < nodes; n++) {
            start[n + 1] += start[n];
        }
        int[] succ = new int[edges];
        int[] fill = Arrays.copyOf(start, nodes);
        for (int e = 0; e < edges; e++) {
            succ[fill[from[e]]++] = to[e];
        }
        // Kahn's algorithm, lowest node first among ready ones in FIFO order: deterministic.
        int[] indegree = new int[nodes];
        for (int e = 0; e < edges; e++) {
            indegree[to[e]]++;
        }
        int[] order = new int[nodes];
        int head = 0;
        int tail = 0;
        for (int n = 0; n < nodes; n++) {
            if (indegree[n] == 0) {
                order[tail++] = n;
            }
        }
        while (head < tail) {
            int u = order[head++];
            for (int i = start[u]; i < start[u + 1]; i++) {
                if (--indegree[succ[i]] == 0) {
                    order[tail++] = succ[i];
                }
            }
        }
        if (tail != nodes) {
            return null;
        }
        int[] position = new int[nodes];
        for (int p = 0; p < nodes; p++) {
            position[order[p]] = p;
        }
        return new Dag(nodes, start, succ, order, position);
    }

    /** How many nodes. */
    public int nodeCount() {
        return nodes;
    }

    /** How many edges. */
    public int edgeCount() {
        return successors.length;
    }

    /** How many edges leave {@code node}. */
    public int successorCount(int node) {
        return successorStart[node + 1] - successorStart[node];
    }

    /** The {@code i}-th successor of {@code node}. */
    public int successor(int node, int i) {
        return successors[successorStart[node] + i];
    }

    /** The node at position {@code p} of the topological order (every edge goes to a later position). */
    public int nodeAt(int p) {
        return order[p];
    }

    /** The position of {@code node} in the topological order. */
    public int positionOf(int node) {
        return position[node];
    }

    /**
     * The CSR offsets: the successors of {@code n} are {@code successors()[start[n] .. start[n+1])}.
     * A copy, for engines that move the graph elsewhere (device memory).
     */
    public int[] successorStarts() {
        return successorStart.clone();
    }

    /** The CSR successor array (a copy), indexed by {@link #successorStarts()}. */
    public int[] successors() {
        return successors.clone();
    }

    /** The topological order (a copy). */
    public int[] topologicalOrder() {
        return order.clone();
    }
}
