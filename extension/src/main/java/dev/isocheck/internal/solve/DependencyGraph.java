package dev.isocheck.internal.solve;

import dev.isocheck.internal.graph.EdgeKind;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

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

    private static final int BUCKETS = 5;
    /** How many cycles per search get the cheapest closing path; the rest take the stack's path. */
    static final int SHORTEST_CYCLES = 16;

    private static final EdgeKind[] KINDS = EdgeKind.values();

    private final int nodes;
    private int size;
    private int[] from;
    private int[] to;
    private int[] reasonA;
    private int[] reasonB;
    private byte[] kinds;
    private int[] successorStart;
    private int[] successors;

    /**
     * A graph with room for {@code capacity} edges before its arrays grow: graphs of millions of
     * edges otherwise copy five arrays a dozen times each (about a second at 100k transactions,
     * and the garbage with it).
     */
    DependencyGraph(int nodes, int capacity) {
        this.nodes = nodes;
        int room = Math.max(16, capacity);
        from = new int[room];
        to = new int[room];
        reasonA = new int[room];
        reasonB = new int[room];
        kinds = new byte[room];
    }

    /**
     * An empty snapshot-isolation graph over {@code transactions} transactions: the links between
     * the two copies of each, and room for {@code capacity} more edges; add the history's edges
     * with {@link #addToSnapshot}.
     *
     * <p>The snapshot-isolation graph of a dependency graph, {@code (SO ∪ WR ∪ WW) ; RW?}, without
     * composing edges (which multiplies them): node {@code t + n} is a second copy of transaction
     * {@code t}, "entered by a read-write edge". A non-read-write edge {@code u -> v} becomes
     * {@code u -> v} and {@code u+n -> v}; a read-write edge {@code u -> v} becomes
     * {@code u -> v+n}; and {@code t -> t+n} (no reason) keeps the copies in order. A walk never
     * takes two read-write edges in a row, so its cycles are the induced graph's; and ordering
     * transactions by their second copies in a topological order gives a topological order of the
     * induced graph (see {@link #snapshotOrder(int[])}). Real-time edges, where there are any (strong
     * snapshot isolation, tried first by {@link SatChecker}), are base edges like session order.
     */
    static DependencyGraph snapshotOf(int transactions, int capacity) {
        DependencyGraph doubled = new DependencyGraph(2 * transactions, transactions + capacity);
        // Links first: a chain decomposition that follows first successors then threads each
        // session through both copies instead of leaving every second copy a chain of its own.
        for (int t = 0; t < transactions; t++) {
            doubled.add(t, t + transactions, EdgeKind.SESSION, 0, 0);
        }
        return doubled;
    }

    /** Adds edge {@code source -> target} of the history to this snapshot graph, as {@link #snapshotOf} describes. */
    void addToSnapshot(int source, int target, EdgeKind kind, int literalA, int literalB) {
        int transactions = nodes / 2;
        if (kind == EdgeKind.READ_WRITE) {
            add(source, target + transactions, kind, literalA, literalB);
        } else {
            add(source, target, kind, literalA, literalB);
            add(source + transactions, target, kind, literalA, literalB);
        }
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

    /** The graph as a {@link dev.isocheck.spi.Dag} for a reachability engine, or {@code null} when it has a cycle. */
    dev.isocheck.spi.Dag dag() {
        return dev.isocheck.spi.Dag.of(nodes, from, to, size);
    }

    int to(int e) {
        return to[e];
    }

    EdgeKind kind(int e) {
        return KINDS[kinds[e]];
    }

    /** The literals (non-zero ones) that produced edge {@code e}. */
    int reasonA(int e) {
        return reasonA[e];
    }

    int reasonB(int e) {
        return reasonB[e];
    }

    /**
     * The transactions in the order of their second copies in {@code order}, a topological order of
     * a snapshot graph ({@link #snapshotOf}): a commit order. An induced edge {@code a -> b -rw-> c} is the
     * walk {@code a+n -> b -> c+n}, and a base edge {@code a -> c} the walk {@code a+n -> c -> c+n}.
     */
    static int[] snapshotOrder(int[] order) {
        if (order == null) {
            return null;
        }
        int transactions = order.length / 2;
        int[] projected = new int[transactions];
        int placed = 0;
        for (int node : order) {
            if (node >= transactions) {
                projected[placed++] = node - transactions;
            }
        }
        return projected;
    }

    /** Whether edge {@code e} is a snapshot graph's ({@link #snapshotOf}) link between the two copies of a transaction. */
    boolean isCopyLink(int e) {
        return from[e] + nodes / 2 == to[e] && reasonA[e] == 0 && kinds[e] == EdgeKind.SESSION.ordinal() && from[e] < nodes / 2;
    }

    /**
     * Cycles of the graph, each as its edges in order, at most {@code limit} of them. A
     * depth-first search finds the back edges. The first {@link #SHORTEST_CYCLES} are each closed by
     * a path back to its source that uses as few chosen (literal-carrying) edges as possible (a
     * weighted breadth-first search), so that the learnt clause is as short as that back edge
     * allows; the others by the search's own stack path, since a search per cycle over a large
     * graph (induced snapshot graphs have millions of edges) costs more than longer clauses do.
     */
    List<int[]> cycles(int limit) {
        List<int[]> found = new ArrayList<>();
        byte[] color = new byte[nodes];
        int[] cursor = new int[nodes];
        int[] stack = new int[nodes];
        int[] depthOf = new int[nodes];
        int[] parentEdge = new int[nodes];
        ShortestPaths paths = new ShortestPaths();
        for (int root = 0; root < nodes && found.size() < limit; root++) {
            if (color[root] != 0) {
                continue;
            }
            int depth = 0;
            depthOf[root] = depth;
            stack[depth++] = root;
            color[root] = 1;
            cursor[root] = successorStart[root];
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
                    cursor[v] = successorStart[v];
                    depthOf[v] = depth;
                    parentEdge[v] = e;
                    stack[depth++] = v;
                } else if (color[v] == 1) {
                    if (found.size() < SHORTEST_CYCLES) {
                        found.add(paths.cycleThrough(e));
                    } else {
                        // v is on the stack: its tree path down to u, then the back edge.
                        int[] cycle = new int[depth - depthOf[v]];
                        for (int i = depthOf[v] + 1; i < depth; i++) {
                            cycle[i - depthOf[v] - 1] = parentEdge[stack[i]];
                        }
                        cycle[cycle.length - 1] = e;
                        found.add(cycle);
                    }
                }
            }
        }
        return found;
    }

    private int weight(int e) {
        return (reasonA[e] != 0 ? 1 : 0) + (reasonB[e] != 0 ? 1 : 0);
    }

    /** Breadth-first search with buckets (edge weights 0 to 2) with per-search stamps, so that nothing is cleared per cycle. */
    private final class ShortestPaths {
        private final int[] stamp = new int[nodes];
        private final int[] distance = new int[nodes];
        private final int[] via = new int[nodes];
        private int search;

        /** The back edge {@code e} followed by a cheapest path from its target back to its source. */
        int[] cycleThrough(int e) {
            search++;
            int source = to[e];
            int target = from[e];
            // Buckets by distance modulo 5: weights are 0 to 2, below 5.
            ArrayDeque<Integer>[] buckets = bucketsFor();
            stamp[source] = search;
            distance[source] = 0;
            via[source] = -1;
            buckets[0].add(source);
            int current = 0;
            int pending = 1;
            while (pending > 0) {
                ArrayDeque<Integer> bucket = buckets[current % BUCKETS];
                if (bucket.isEmpty()) {
                    current++;
                    continue;
                }
                int u = bucket.poll();
                pending--;
                if (distance[u] != current) {
                    continue;
                }
                if (u == target) {
                    break;
                }
                for (int i = successorStart[u]; i < successorStart[u + 1]; i++) {
                    int f = successors[i];
                    int v = to[f];
                    int d = current + weight(f);
                    if (stamp[v] != search || d < distance[v]) {
                        stamp[v] = search;
                        distance[v] = d;
                        via[v] = f;
                        buckets[d % BUCKETS].add(v);
                        pending++;
                    }
                }
            }
            for (ArrayDeque<Integer> bucket : buckets) {
                bucket.clear();
            }
            ArrayDeque<Integer> path = new ArrayDeque<>();
            path.addFirst(e);
            for (int n = target; n != source; n = from[via[n]]) {
                path.addFirst(via[n]);
            }
            return path.stream().mapToInt(Integer::intValue).toArray();
        }

        private ArrayDeque<Integer>[] buckets;

        @SuppressWarnings("unchecked")
        private ArrayDeque<Integer>[] bucketsFor() {
            if (buckets == null) {
                buckets = new ArrayDeque[BUCKETS];
                for (int b = 0; b < BUCKETS; b++) {
                    buckets[b] = new ArrayDeque<Integer>();
                }
            }
            return buckets;
        }
    }

    /**
     * The nodes in an order where every edge goes forward (Kahn's algorithm, lowest node first
     * among the ready ones), or {@code null} if the graph has a cycle.
     */
    int[] topologicalOrder() {
        return topologicalOrder(null);
    }

    /**
     * As {@link #topologicalOrder()}, taking among the ready nodes the one with the lowest
     * {@code priority} (then the lowest node); {@code null} priorities mean node order.
     */
    int[] topologicalOrder(long[] priority) {
        int[] indegree = new int[nodes];
        for (int e = 0; e < size; e++) {
            indegree[to[e]]++;
        }
        PriorityQueue<Integer> ready = new PriorityQueue<>(priority == null
                ? Comparator.naturalOrder()
                : Comparator.<Integer>comparingLong(n -> priority[n]).thenComparingInt(n -> n));
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
