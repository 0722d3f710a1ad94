package dev.isocheck.internal.prune;

import dev.isocheck.internal.graph.HyperPolygraph;

/**
 * Which candidate writers of each observation are still possible while pruning drops them: a bit
 * per candidate, and how many each observation has left.
 *
 * <p>A bit rather than a byte or a list per candidate: a read of a duplicated value on a hot row
 * has every writer of that value as a candidate, 146 million candidates at 100k transactions, of
 * which pruning leaves a few per read. Each observation's bits start at a word of their own, so
 * that threads pruning different observations never write the same word.
 */
final class ReadCandidates {

    private final HyperPolygraph polygraph;
    /** By observation: the index of its first bit, a multiple of 64. */
    private final long[] bitStart;
    private final long[] liveBits;
    private final int[] live;
    private final long total;

    ReadCandidates(HyperPolygraph polygraph) {
        this.polygraph = polygraph;
        int observations = polygraph.observationCount();
        bitStart = new long[observations + 1];
        live = new int[observations];
        long sum = 0;
        for (int o = 0; o < observations; o++) {
            int count = polygraph.candidateCount(o);
            live[o] = count;
            sum += count;
            bitStart[o + 1] = bitStart[o] + ((count + 63L) & ~63L);
        }
        total = sum;
        long words = bitStart[observations] >>> 6;
        if (words > dev.isocheck.spi.JavaArrays.MAX_LENGTH) {
            throw new Pruner.TooLargeException(sum + " candidate writes of reads");
        }
        liveBits = new long[(int) words];
        for (int o = 0; o < observations; o++) {
            int count = live[o];
            int word = (int) (bitStart[o] >>> 6);
            for (; count >= 64; count -= 64) {
                liveBits[word++] = -1L;
            }
            if (count > 0) {
                liveBits[word] = (1L << count) - 1;
            }
        }
    }

    /** How many candidates, over all observations. */
    long total() {
        return total;
    }

    /** How many candidates of observation {@code o} are left. */
    int liveCount(int o) {
        return live[o];
    }

    /** Whether the {@code i}-th candidate of observation {@code o} is left. */
    boolean isLive(int o, int i) {
        long bit = bitStart[o] + i;
        return (liveBits[(int) (bit >>> 6)] & (1L << bit)) != 0;
    }

    /**
     * The first candidate of observation {@code o} from the {@code i}-th on that is left, or
     * {@code candidateCount(o)} when none is: for walking the few left of many.
     */
    int nextLive(int o, int i) {
        int count = polygraph.candidateCount(o);
        if (i >= count) {
            return count;
        }
        long bit = bitStart[o] + i;
        int word = (int) (bit >>> 6);
        long bits = liveBits[word] & (-1L << bit);
        int last = (int) ((bitStart[o] + count - 1) >>> 6);
        while (bits == 0) {
            if (++word > last) {
                return count;
            }
            bits = liveBits[word];
        }
        int found = (int) (((long) word << 6) + Long.numberOfTrailingZeros(bits) - bitStart[o]);
        return Math.min(found, count);
    }

    /** Drops the {@code i}-th candidate of observation {@code o}, which must be left. */
    void drop(int o, int i) {
        long bit = bitStart[o] + i;
        liveBits[(int) (bit >>> 6)] &= ~(1L << bit);
        live[o]--;
    }

    /**
     * Keeps only the candidates of observation {@code o} at the indexes {@code kept[0 .. count)},
     * which must be left, distinct and at least one.
     */
    void keepOnly(int o, int[] kept, int count) {
        dropAll(o);
        for (int k = 0; k < count; k++) {
            long bit = bitStart[o] + kept[k];
            liveBits[(int) (bit >>> 6)] |= 1L << bit;
        }
        live[o] = count;
    }

    /** Drops every candidate of observation {@code o}. */
    void dropAll(int o) {
        for (long w = bitStart[o] >>> 6; w < bitStart[o + 1] >>> 6; w++) {
            liveBits[(int) w] = 0;
        }
        live[o] = 0;
    }
}
