package dev.isocheck.gpu;

import dev.isocheck.spi.BitRowReachability;
import dev.isocheck.spi.Dag;
import java.util.ArrayList;
import java.util.List;

/** Bit-for-bit comparison of rows, and a CPU closure over a given order, for the tests. */
final class Rows {

    private Rows() {
    }

    /** Null when equal; else where the first difference is, for the failure message. */
    static String firstDifference(long[] expected, long[] actual, int words) {
        if (expected.length != actual.length) {
            return "lengths differ: expected " + expected.length + " words, got " + actual.length;
        }
        for (int i = 0; i < expected.length; i++) {
            if (expected[i] != actual[i]) {
                return "row (position) " + i / words + ", word " + i % words + ": expected "
                        + Long.toHexString(expected[i]) + ", got " + Long.toHexString(actual[i]);
            }
        }
        return null;
    }

    /**
     * The closure of {@code dag} plus the edges {@code extra} ({@code {from, to}} node ids, each
     * forward in {@code dag}'s order), laid out over {@code dag}'s positions: the rows an exact
     * incremental insertion must produce. Same recurrence as {@link BitRowReachability#compute}.
     */
    static long[] closureWith(Dag dag, List<int[]> extra) {
        int n = dag.nodeCount();
        int words = BitRowReachability.wordsPerRow(n);
        List<List<Integer>> more = new ArrayList<>();
        for (int p = 0; p < n; p++) {
            more.add(new ArrayList<>());
        }
        for (int[] e : extra) {
            int u = dag.positionOf(e[0]);
            int v = dag.positionOf(e[1]);
            if (u >= v) {
                throw new IllegalArgumentException("edge against the order: " + e[0] + " -> " + e[1]);
            }
            more.get(u).add(v);
        }
        long[] rows = new long[n * words];
        for (int p = n - 1; p >= 0; p--) {
            int u = dag.nodeAt(p);
            rows[p * words + (p >>> 6)] |= 1L << (p & 63);
            List<Integer> successors = new ArrayList<>(more.get(p));
            for (int i = 0; i < dag.successorCount(u); i++) {
                successors.add(dag.positionOf(dag.successor(u, i)));
            }
            for (int q : successors) {
                for (int w = q >>> 6; w < words; w++) {
                    rows[p * words + w] |= rows[q * words + w];
                }
            }
        }
        return rows;
    }
}
