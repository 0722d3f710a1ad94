package dev.isocheck.gpu;

import dev.isocheck.spi.BitRowReachability;
import dev.isocheck.spi.Dag;
import java.util.Arrays;

/**
 * A {@link Dag} as the kernels read it: everything indexed by topological position, since that is
 * how the rows are laid out ({@link BitRowReachability}), so the device never translates node ids.
 *
 * <ul>
 *   <li>{@link #successorStarts()}: CSR offsets by position, {@code nodes + 1} entries;
 *   <li>{@link #successorPositions()}: the successors' positions, ascending within each row and
 *       without duplicates (parallel edges would only repeat work; ascending order lets the kernel
 *       stop at the first successor whose row starts after its word);
 *   <li>{@link #levels()}: the launch order.
 * </ul>
 */
public final class PackedDag {

    private final int nodes;
    private final int words;
    private final int[] successorStart;
    private final int[] successors;
    private final Levels levels;

    private PackedDag(int nodes, int[] successorStart, int[] successors, Levels levels) {
        this.nodes = nodes;
        this.words = BitRowReachability.wordsPerRow(nodes);
        this.successorStart = successorStart;
        this.successors = successors;
        this.levels = levels;
    }

    /** Packs {@code dag}. Cost: {@code O(nodes + edges log degree)}. */
    public static PackedDag of(Dag dag) {
        int n = dag.nodeCount();
        int[] start = new int[n + 1];
        int[] succ = new int[dag.edgeCount()];
        int fill = 0;
        for (int p = 0; p < n; p++) {
            int u = dag.nodeAt(p);
            int from = fill;
            for (int i = 0; i < dag.successorCount(u); i++) {
                succ[fill++] = dag.positionOf(dag.successor(u, i));
            }
            Arrays.sort(succ, from, fill);
            int kept = from;
            for (int i = from; i < fill; i++) {
                if (i == from || succ[i] != succ[i - 1]) {
                    succ[kept++] = succ[i];
                }
            }
            fill = kept;
            start[p + 1] = fill;
        }
        return new PackedDag(n, start, fill == succ.length ? succ : Arrays.copyOf(succ, fill), Levels.of(dag));
    }

    /** How many nodes (rows). */
    public int nodeCount() {
        return nodes;
    }

    /** How many distinct edges (parallel edges of the {@link Dag} count once). */
    public int edgeCount() {
        return successors.length;
    }

    /** Words per row: {@code ceil(nodes / 64)}. */
    public int words() {
        return words;
    }

    /** The level grouping the launches follow. */
    public Levels levels() {
        return levels;
    }

    /** CSR offsets by position (a copy). */
    public int[] successorStarts() {
        return successorStart.clone();
    }

    /** Successor positions, ascending per row (a copy). */
    public int[] successorPositions() {
        return successors.clone();
    }

    /** How many successors the row at {@code position} has. */
    public int successorCount(int position) {
        return successorStart[position + 1] - successorStart[position];
    }

    /** The {@code i}-th successor position (ascending) of the row at {@code position}. */
    public int successor(int position, int i) {
        return successors[successorStart[position] + i];
    }

    /** Bytes of the rows: {@code nodes * words * 8}, the bulk of the device memory a closure takes. */
    public long rowBytes() {
        return rowBytes(nodes);
    }

    /** Bytes of the rows for a graph of {@code nodes} nodes. */
    public static long rowBytes(int nodes) {
        return (long) nodes * BitRowReachability.wordsPerRow(nodes) * Long.BYTES;
    }

    /** Device bytes a closure of a graph this size takes: rows, CSR and level order. */
    public static long deviceBytes(int nodes, long edges) {
        return rowBytes(nodes) + Integer.BYTES * ((nodes + 1L) + edges + nodes);
    }

    /**
     * Bytes the level-by-level closure moves through device memory at least: zeroing the rows,
     * writing each row from its own word on, and reading, for every edge, the successor's row from
     * its own word on. Dividing by the memory bandwidth gives the bound the benchmark compares with.
     */
    public long bytesMoved() {
        long wordsMoved = (long) nodes * words;
        for (int p = 0; p < nodes; p++) {
            wordsMoved += words - (p >>> 6);
            for (int i = successorStart[p]; i < successorStart[p + 1]; i++) {
                wordsMoved += words - (successors[i] >>> 6);
            }
        }
        return wordsMoved * Long.BYTES;
    }

    int[] successorStartArray() {
        return successorStart;
    }

    int[] successorArray() {
        return successors;
    }
}
