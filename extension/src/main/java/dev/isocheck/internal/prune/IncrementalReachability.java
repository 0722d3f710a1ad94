package dev.isocheck.internal.prune;

import dev.isocheck.spi.Dag;
import dev.isocheck.spi.Reachability;
import java.util.Arrays;

/**
 * A closure that grows with the graph: chain clocks as in {@link ChainReachability}, kept exact as
 * edges are added with {@link #addEdge}, for a pruner that learns edges one at a time and would
 * otherwise recompute the whole closure after each.
 *
 * <p>The chains are those of the initial {@link Dag} and stay fixed: an added edge does not join
 * chains, but a chain is still a path of the grown graph and the clocks stay exact over all the
 * edges, so queries stay exact; only the clock width no longer adapts. Adding {@code u -> v} makes
 * every ancestor {@code a} of {@code u} (including {@code u}) reach what {@code v} reaches, so its
 * clock becomes {@code min(clock(a), clock(v))}, and nothing else changes. The update walks the
 * predecessors backwards from {@code u} and stops at any node whose clock was already at or below
 * {@code clock(v)}: its own ancestors reach at least what it reaches, so they need nothing either.
 *
 * <p>Cost of one {@code addEdge}: {@code O(chains * (a + e))} where {@code a} is the number of
 * ancestors of {@code u} whose reachability actually grows and {@code e} the edges into them
 * (each visited node is visited once per call); {@code O(1)} when {@code u} already reached
 * {@code v}. Worst case {@code O(chains * (n + edges))}, the cost of recomputing. Memory: the
 * clocks ({@code 4 * n * chains} bytes), the predecessor lists ({@code 4 * (n + edges)} bytes, plus
 * 8 per added edge) and two {@code int[n]} work arrays.
 *
 * <p>Queries are safe from several threads only while no edge is being added.
 */
public final class IncrementalReachability implements Reachability {

    private static final int NONE = -1;

    private final ChainDecomposition chains;
    private final int width;
    private final int[] clocks;
    private final int[] predecessorStart;
    private final int[] predecessors;
    private final int[] addedHead;
    private int[] addedFrom = new int[16];
    private int[] addedNext = new int[16];
    private int added;
    private final int[] visitedIn;
    private int visit;
    private final int[] queue;

    private IncrementalReachability(Dag dag, ChainDecomposition chains) {
        this.chains = chains;
        this.width = chains.count();
        this.clocks = ChainReachability.clocks(dag, chains);
        int n = dag.nodeCount();
        predecessorStart = new int[n + 1];
        for (int u = 0; u < n; u++) {
            for (int i = 0; i < dag.successorCount(u); i++) {
                predecessorStart[dag.successor(u, i) + 1]++;
            }
        }
        for (int u = 0; u < n; u++) {
            predecessorStart[u + 1] += predecessorStart[u];
        }
        predecessors = new int[dag.edgeCount()];
        int[] fill = Arrays.copyOf(predecessorStart, n);
        for (int u = 0; u < n; u++) {
            for (int i = 0; i < dag.successorCount(u); i++) {
                predecessors[fill[dag.successor(u, i)]++] = u;
            }
        }
        addedHead = new int[n];
        Arrays.fill(addedHead, NONE);
        visitedIn = new int[n];
        queue = new int[n];
    }

    /**
     * The closure of {@code dag}, ready to grow.
     *
     * @throws IllegalArgumentException when the clocks would not fit in one Java array
     */
    public static IncrementalReachability of(Dag dag) {
        return new IncrementalReachability(dag, ChainDecomposition.of(dag));
    }

    /**
     * Adds the edge {@code from -> to} and updates the closure.
     *
     * @return whether reachability changed: {@code false} when {@code from} already reached {@code to}
     *         (the edge is then implied and not stored)
     * @throws IllegalArgumentException for a node out of range, or when {@code to} reaches
     *                                  {@code from} (a self-loop or a cycle, which would leave the
     *                                  chain clocks meaningless)
     */
    public boolean addEdge(int from, int to) {
        checkNode(from);
        checkNode(to);
        if (reaches(to, from)) {
            throw new IllegalArgumentException("edge " + from + " -> " + to + " closes a cycle: " + to + " reaches " + from);
        }
        if (reaches(from, to)) {
            return false;
        }
        storePredecessor(to, from);
        lowerAncestors(from, to * width);
        return true;
    }

    @Override
    public boolean reaches(int from, int to) {
        return clocks[from * width + chains.chainOf(to)] <= chains.indexOf(to);
    }

    @Override
    public int nodeCount() {
        return chains.nodeCount();
    }

    @Override
    public long memoryBytes() {
        long words = clocks.length + predecessorStart.length + predecessors.length + addedHead.length
                + addedFrom.length + addedNext.length + visitedIn.length + queue.length;
        return words * Integer.BYTES + chains.memoryBytes();
    }

    /** How many chains the nodes of the initial graph were split into: the length of each clock. */
    public int chainCount() {
        return width;
    }

    private void checkNode(int node) {
        if (node < 0 || node >= nodeCount()) {
            throw new IllegalArgumentException("node " + node + " is out of range 0.." + (nodeCount() - 1));
        }
    }

    private void storePredecessor(int node, int predecessor) {
        if (added == addedFrom.length) {
            addedFrom = Arrays.copyOf(addedFrom, added * 2);
            addedNext = Arrays.copyOf(addedNext, added * 2);
        }
        addedFrom[added] = predecessor;
        addedNext[added] = addedHead[node];
        addedHead[node] = added++;
    }

    /** Breadth-first over predecessors from {@code start}, lowering clocks to the one at {@code source}. */
    private void lowerAncestors(int start, int source) {
        int stamp = nextVisit();
        int head = 0;
        int tail = 0;
        queue[tail++] = start;
        visitedIn[start] = stamp;
        while (head < tail) {
            int node = queue[head++];
            if (!lower(node * width, source)) {
                continue;
            }
            for (int i = predecessorStart[node]; i < predecessorStart[node + 1]; i++) {
                tail = enqueue(predecessors[i], stamp, tail);
            }
            for (int e = addedHead[node]; e != NONE; e = addedNext[e]) {
                tail = enqueue(addedFrom[e], stamp, tail);
            }
        }
    }

    private int enqueue(int node, int stamp, int tail) {
        if (visitedIn[node] == stamp) {
            return tail;
        }
        visitedIn[node] = stamp;
        queue[tail] = node;
        return tail + 1;
    }

    /** Lowers the clock at {@code target} to the one at {@code source}; whether anything changed. */
    private boolean lower(int target, int source) {
        boolean changed = false;
        for (int c = 0; c < width; c++) {
            if (clocks[source + c] < clocks[target + c]) {
                clocks[target + c] = clocks[source + c];
                changed = true;
            }
        }
        return changed;
    }

    /** A stamp no node carries yet, so that the visited marks need no clearing between calls. */
    private int nextVisit() {
        if (++visit == 0) {
            Arrays.fill(visitedIn, 0);
            visit = 1;
        }
        return visit;
    }
}
