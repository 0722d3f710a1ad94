package dev.isocheck.internal.solve;

/**
 * The bytes the SAT stage will hold, estimated from counts taken before it builds anything:
 * what {@link SatChecker} weighs against the memory budget
 * ({@link dev.isocheck.internal.limit.Limits#reserve}).
 *
 * <p>The constants are what the structures hold per unit, from their layouts, with a margin,
 * checked against measurements ({@code docs/benchmarks.md}, "Memory budget"): on issue 14's
 * histories of 2,000 to 3,000 transactions (6 to 20 million edges) the smallest {@code -Xmx} that
 * lets the check end grows by 62 bytes per edge, and at 5,000 transactions (90 million edges) the
 * live heap is 65 bytes per edge beyond the history and its pruned constraints: the estimate is
 * 20–25% above what the check needs.
 */
final class EncodingSize {

    /**
     * Per edge of the encoding, at the peak of the search: the encoding's own list (17 bytes:
     * two node ints, two literal ints, a kind byte), the acyclicity theory's (16 bytes of nodes
     * and literals, 3 of state, up to 8 of watch lists by literal, 8 of adjacency in and out),
     * and the graph of one model, re-checked from scratch (17 bytes and 4 of adjacency), rounded
     * up for what the garbage collector needs to move them.
     */
    static final long BYTES_PER_EDGE = 80;
    /**
     * Per edge for snapshot isolation: the theory and a model's graph double the edges that are
     * not read-write (about half of them).
     */
    static final long BYTES_PER_SNAPSHOT_EDGE = 110;
    /**
     * Per variable: sat4j's own (the variable's two literals, their watch lists, its level,
     * reason, activity and phase, and the heap that orders decisions), the phases and a model.
     */
    static final long BYTES_PER_VARIABLE = 200;
    /**
     * Per open pair of write chains, in the encoding's tables: the map from the pair to its
     * variable (a hash entry, a boxed key and value) and the pair's key and positions.
     */
    static final long BYTES_PER_OPEN_PAIR = 100;
    /** Per candidate write of a read left more than one: its index and its variable. */
    static final long BYTES_PER_CANDIDATE = 8;

    private EncodingSize() {
    }

    /** What the encoding's constructor holds. */
    static long tableBytes(long openPairs, long candidates) {
        return saturatedSum(saturatedProduct(openPairs, BYTES_PER_OPEN_PAIR), saturatedProduct(candidates, BYTES_PER_CANDIDATE));
    }

    /** What its edges and variables hold, with the solver's search, once they are built. */
    static long bytes(long edges, long variables, boolean snapshot) {
        return saturatedSum(saturatedProduct(edges, snapshot ? BYTES_PER_SNAPSHOT_EDGE : BYTES_PER_EDGE),
                saturatedProduct(variables, BYTES_PER_VARIABLE));
    }

    /** {@code a + b}, or {@link Long#MAX_VALUE} when that overflows. */
    static long sum(long a, long b) {
        return saturatedSum(a, b);
    }

    private static long saturatedProduct(long a, long b) {
        return a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
    }

    private static long saturatedSum(long a, long b) {
        return a > Long.MAX_VALUE - b ? Long.MAX_VALUE : a + b;
    }
}
