package dev.isocheck.internal.explain;

import java.util.Arrays;

/**
 * A set of explanations of an {@link ExplanationSpace}, given by the choices made so far: for each
 * key, a partial order of the nodes' versions (kept transitively closed), and for each observation,
 * the sources still possible. Immutable: a choice returns new facts.
 *
 * <p>Every choice only adds order or removes sources, so the edges certain under some facts stay
 * certain under more (the search relies on it: a cycle found stays found).
 */
final class Facts {

    /** {@code after[key][node]}: the nodes whose version of the key comes after {@code node}'s, as a mask. */
    private final int[][] after;
    /** Per observation, the positions of its still possible candidates, as a mask. */
    private final int[] remaining;

    Facts(int[][] after, int[] remaining) {
        this.after = after;
        this.remaining = remaining;
    }

    /** The nodes whose version of {@code key} is known to come after {@code node}'s. */
    int after(int key, int node) {
        return after[key][node];
    }

    /** Whether {@code a}'s version of {@code key} is known to precede {@code b}'s. */
    boolean ordered(int key, int a, int b) {
        return (after[key][a] & (1 << b)) != 0;
    }

    /** The positions of the candidates of observation {@code o} still possible, as a mask. */
    int remaining(int o) {
        return remaining[o];
    }

    /** These facts and "{@code a}'s version of {@code key} precedes {@code b}'s", closed transitively. */
    Facts order(int key, int a, int b) {
        int[][] next = after.clone();
        int[] row = after[key].clone();
        int later = row[b] | (1 << b);
        for (int x = 0; x < row.length; x++) {
            if (x == a || (row[x] & (1 << a)) != 0) {
                row[x] |= later;
            }
        }
        next[key] = row;
        return new Facts(next, remaining);
    }

    /** These facts with the sources of observation {@code o} narrowed to the positions in {@code mask}. */
    Facts sources(int o, int mask) {
        int[] next = remaining.clone();
        next[o] = mask;
        return new Facts(after, next);
    }

    /** A value for memo tables: equal for equal facts. */
    Key key() {
        int[] flat = new int[after.length * (after.length == 0 ? 0 : after[0].length) + remaining.length];
        int n = 0;
        for (int[] row : after) {
            System.arraycopy(row, 0, flat, n, row.length);
            n += row.length;
        }
        System.arraycopy(remaining, 0, flat, n, remaining.length);
        return new Key(flat);
    }

    /** Facts as a value. */
    static final class Key {
        private final int[] flat;
        private final int hash;

        Key(int[] flat) {
            this.flat = flat;
            this.hash = Arrays.hashCode(flat);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key other && hash == other.hash && Arrays.equals(flat, other.flat);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
