package dev.isocheck.spi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A closure stored as one bit row per node over topological positions: the layout every bit-row
 * engine produces (the CPU one here, the CUDA kernels of {@code gpu-kernels}), so that their results
 * can be compared bit for bit.
 *
 * <p>Layout: {@code words = ceil(n / 64)}; the row of the node at topological position {@code p}
 * is {@code rows[p * words .. (p + 1) * words)}; bit {@code q} of it (word {@code q >>> 6}, bit
 * {@code q & 63}) is set when that node reaches the node at position {@code q}. Every node reaches
 * itself; only positions {@code q >= p} can be set. Memory: {@code n * n / 8} bytes, 1.25 GB at
 * 100k nodes, so engines choose it only where it fits.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class BitRowReachability implements Reachability {

    private final Dag dag;
    private final int words;
    private final long[] rows;

    /**
     * Wraps {@code rows} (not copied) computed for {@code dag} in the layout above.
     *
     * @throws IllegalArgumentException when the array has the wrong length
     */
    public BitRowReachability(Dag dag, long[] rows) {
        this.dag = Objects.requireNonNull(dag, "dag is null");
        this.words = wordsPerRow(dag.nodeCount());
        if (rows.length != (long) words * dag.nodeCount()) {
            throw new IllegalArgumentException("expected " + (long) words * dag.nodeCount() + " words, got " + rows.length);
        }
        this.rows = rows;
    }

    /** The words of one row for a graph of {@code nodes} nodes. */
    public static int wordsPerRow(int nodes) {
        return (nodes + 63) >>> 6;
    }

    /** The words of all rows for a graph of {@code nodes} nodes: {@code nodes * wordsPerRow(nodes)}. */
    public static long wordCount(int nodes) {
        return (long) wordsPerRow(nodes) * nodes;
    }

    /**
     * The closure of {@code dag} computed on this CPU: rows in reverse topological order, each the
     * OR of its successors' rows (successors come later, so their rows are final), plus its own bit.
     * Cost: {@code O(edges * n / 64)} word operations.
     *
     * @throws IllegalArgumentException when the rows would not fit in one Java array
     */
    public static BitRowReachability compute(Dag dag) {
        int n = dag.nodeCount();
        int words = wordsPerRow(n);
        long size = wordCount(n);
        if (!JavaArrays.fits(size)) {
            throw new IllegalArgumentException(n + " nodes need " + size + " words of bit rows, more than one array holds");
        }
        long[] rows = new long[(int) size];
        for (int p = n - 1; p >= 0; p--) {
            int u = dag.nodeAt(p);
            int base = p * words;
            rows[base + (p >>> 6)] |= 1L << (p & 63);
            for (int i = 0; i < dag.successorCount(u); i++) {
                int q = dag.positionOf(dag.successor(u, i));
                int other = q * words;
                // Words below q's own are zero in q's row: skip them.
                for (int w = q >>> 6; w < words; w++) {
                    rows[base + w] |= rows[other + w];
                }
            }
        }
        return new BitRowReachability(dag, rows);
    }

    @Override
    public boolean reaches(int from, int to) {
        int p = dag.positionOf(from);
        int q = dag.positionOf(to);
        return q >= p && (rows[p * words + (q >>> 6)] & (1L << (q & 63))) != 0;
    }

    @Override
    public int nodeCount() {
        return dag.nodeCount();
    }

    @Override
    public long memoryBytes() {
        return (long) rows.length * Long.BYTES;
    }

    /** The rows in the layout above (a copy), for bit-for-bit comparison between engines. */
    public long[] rows() {
        return rows.clone();
    }
}
