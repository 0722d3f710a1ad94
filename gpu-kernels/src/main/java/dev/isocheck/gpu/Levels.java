package dev.isocheck.gpu;

import dev.isocheck.spi.Dag;

/**
 * The topological positions of a {@link Dag} grouped into levels for the level-by-level closure:
 * the level of a position is the length of the longest path from it to a sink, so every successor
 * of a level-{@code L} position is in a level below {@code L}. Processing levels in increasing order
 * therefore finds every successor's row final, and all rows of one level can be computed at once
 * (one kernel launch per level).
 *
 * <p>Longest rather than shortest distance: a successor one edge away may also be the end of a
 * longer path, and its row must be complete before any predecessor reads it. The number of levels
 * is the longest path's node count, the fewest any such grouping can have.
 *
 * <p>Within a level, positions are ascending: the first one then has the lowest first word of any
 * row in the level, which {@link LaunchGeometry} uses to skip words that are zero in all of them.
 */
public final class Levels {

    private final int[] levelOfPosition;
    private final int[] positions;
    private final int[] start;

    private Levels(int[] levelOfPosition, int[] positions, int[] start) {
        this.levelOfPosition = levelOfPosition;
        this.positions = positions;
        this.start = start;
    }

    /** The levels of {@code dag}'s positions. Cost: {@code O(nodes + edges)}. */
    public static Levels of(Dag dag) {
        int n = dag.nodeCount();
        int[] level = new int[n];
        int levels = 0;
        // Reverse topological order: every successor is at a later position, so its level is known.
        for (int p = n - 1; p >= 0; p--) {
            int u = dag.nodeAt(p);
            int l = 0;
            for (int i = 0; i < dag.successorCount(u); i++) {
                l = Math.max(l, level[dag.positionOf(dag.successor(u, i))] + 1);
            }
            level[p] = l;
            levels = Math.max(levels, l + 1);
        }
        // Counting sort by level; scanning positions upwards keeps each level ascending.
        int[] start = new int[levels + 1];
        for (int p = 0; p < n; p++) {
            start[level[p] + 1]++;
        }
        for (int l = 0; l < levels; l++) {
            start[l + 1] += start[l];
        }
        int[] fill = start.clone();
        int[] positions = new int[n];
        for (int p = 0; p < n; p++) {
            positions[fill[level[p]]++] = p;
        }
        return new Levels(level, positions, start);
    }

    /** How many levels (0 for an empty graph). */
    public int count() {
        return start.length - 1;
    }

    /** The level of the node at topological position {@code position}. */
    public int levelOf(int position) {
        return levelOfPosition[position];
    }

    /** Index into {@link #positions()} of the first position of {@code level}. */
    public int begin(int level) {
        return start[level];
    }

    /** How many positions {@code level} holds (at least one). */
    public int size(int level) {
        return start[level + 1] - start[level];
    }

    /** The widest level's size: how many rows one launch can compute at most. */
    public int maxSize() {
        int max = 0;
        for (int l = 0; l < count(); l++) {
            max = Math.max(max, size(l));
        }
        return max;
    }

    /** All positions, level 0 first, ascending within a level (a copy; the device's array). */
    public int[] positions() {
        return positions.clone();
    }

    /** {@code starts()[l]} is where level {@code l} begins in {@link #positions()}; one extra entry at the end (a copy). */
    public int[] starts() {
        return start.clone();
    }

    /** The position at index {@code i} of {@link #positions()}, without copying the array. */
    public int positionAt(int i) {
        return positions[i];
    }

    int[] positionArray() {
        return positions;
    }
}
