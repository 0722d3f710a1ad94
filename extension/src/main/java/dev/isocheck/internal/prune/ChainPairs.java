package dev.isocheck.internal.prune;

import dev.isocheck.history.History;
import dev.isocheck.history.Transaction;
import dev.isocheck.internal.graph.KnownGraph;

/**
 * Which pairs of a key's chains pruning and the search must order, and which real time has ordered
 * already; an index for the first kind.
 *
 * <p>Without real-time edges every pair of a key's chains is <em>stored</em>: {@code m(m-1)/2} for
 * {@code m} chains. With them, the chains of a key are sorted by their real-time spans
 * ({@link KeyChains#spanStart}), and chain {@code i} is stored with the chains after it whose span
 * starts no later than its own ends: its <em>window</em>, the positions {@code i+1 ..
 * windowEnd(i) - 1}, contiguous because the spans are sorted by start. A chain {@code j} past the
 * window starts after {@code i} ends, so {@code i}'s tail ends before {@code j}'s head starts:
 * {@code i} certainly comes first (the pair's "first before second" decision, which pruning's
 * closure would have reached in its first round). A hot key written by 3,400 chains over a run has
 * 5.8 million pairs; with 16 clients at a time, its windows hold about 1,700.
 *
 * <p>The decisions real time makes need edges too: "i before j" puts read-write edges from the
 * readers of {@code i}'s tail to {@code j}'s head. Only the <em>first chains after</em> {@code i}
 * need them ({@link #successorsEnd}): the chains past the window that start no later than the
 * earliest end among them. Every other chain {@code k} past the window starts after some first
 * chain {@code f} ends, so {@code f}'s head leads through {@code f}'s versions and a real-time edge
 * to {@code k}'s head, and an edge to {@code f}'s head already reaches it (through base edges, so
 * in the snapshot-isolation graph too). The same holds for what comes first of all
 * ({@link #earliestEnd}: reads of the initial version, and the chain continuing it).
 */
final class ChainPairs {

    private final KeyChains chains;
    private final boolean realTime;
    /** By key: the first global position of its chains ({@code keyBase[k] + i} is chain {@code i} of key {@code k}). */
    private final int[] keyBase;
    /** By key: the index of its first stored pair. */
    private final long[] keyPairStart;
    /** By global position: the end (exclusive, a position of the key) of its window. */
    private final int[] windowEnd;
    /** By global position: the index of its pair with its next chain. */
    private final long[] pairOffset;
    /** By global position: the end (exclusive) of its first chains after the window. */
    private final int[] successorsEnd;
    /** By global position {@code j}: the least position whose window may hold {@code j}. */
    private final int[] reachBack;
    /** By key: the end (exclusive) of its chains that no other certainly precedes by time. */
    private final int[] earliestEnd;
    /** By node, with real time: start and end times ({@link Transaction#NO_TIME} when none). */
    private final long[] nodeStart;
    private final long[] nodeEnd;

    private ChainPairs(KeyChains chains, boolean byTime) {
        this.chains = chains;
        KnownGraph known = chains.polygraph().known();
        this.realTime = byTime && known.hasRealTime();
        int keys = chains.polygraph().keyCount();
        keyBase = new int[keys + 1];
        for (int k = 0; k < keys; k++) {
            keyBase[k + 1] = keyBase[k] + chains.chainCount(k);
        }
        int positions = keyBase[keys];
        windowEnd = new int[positions];
        pairOffset = new long[positions];
        successorsEnd = new int[positions];
        reachBack = new int[positions];
        earliestEnd = new int[keys];
        keyPairStart = new long[keys + 1];
        long count = 0;
        long[] lo = new long[16];
        long[] suffixMinEnd = new long[17];
        for (int k = 0; k < keys; k++) {
            int m = chains.chainCount(k);
            int base = keyBase[k];
            if (lo.length < m) {
                lo = new long[m];
                suffixMinEnd = new long[m + 1];
            }
            for (int i = 0; i < m; i++) {
                lo[i] = realTime ? chains.spanStart(chains.chain(k, i)) : Long.MIN_VALUE;
            }
            suffixMinEnd[m] = Long.MAX_VALUE;
            for (int i = m - 1; i >= 0; i--) {
                suffixMinEnd[i] = Math.min(suffixMinEnd[i + 1], realTime ? chains.spanEnd(chains.chain(k, i)) : Long.MAX_VALUE);
            }
            keyPairStart[k] = count;
            for (int i = 0; i < m; i++) {
                long end = realTime ? chains.spanEnd(chains.chain(k, i)) : Long.MAX_VALUE;
                // The first position starting after this chain ends (never this one: a span starts
                // no later than it ends).
                int w = Math.max(i + 1, firstAfter(lo, m, end));
                windowEnd[base + i] = w;
                pairOffset[base + i] = count;
                count += w - i - 1;
                successorsEnd[base + i] = w == m ? m : Math.max(w + 1, firstAfter(lo, m, suffixMinEnd[w]));
            }
            earliestEnd[k] = m == 0 ? 0 : Math.max(1, firstAfter(lo, m, suffixMinEnd[0]));
            int next = 0;
            for (int i = 0; i < m; i++) {
                reachBack[base + i] = i;
            }
            for (int i = 0; i < m; i++) {
                for (int j = Math.max(next, i + 1); j < windowEnd[base + i]; j++) {
                    reachBack[base + j] = i;
                }
                next = Math.max(next, windowEnd[base + i]);
            }
        }
        keyPairStart[keys] = count;
        if (realTime) {
            History history = known.history();
            nodeStart = new long[known.nodeCount()];
            nodeEnd = new long[known.nodeCount()];
            nodeStart[KnownGraph.INITIAL] = Transaction.NO_TIME;
            nodeEnd[KnownGraph.INITIAL] = Transaction.NO_TIME;
            for (int n = 1; n < known.nodeCount(); n++) {
                Transaction t = history.transaction(known.transaction(n));
                nodeStart[n] = t.startTime();
                nodeEnd[n] = t.endTime();
            }
        } else {
            nodeStart = null;
            nodeEnd = null;
        }
    }

    /** The pairs of {@code chains} to order. */
    static ChainPairs of(KeyChains chains) {
        return new ChainPairs(chains, true);
    }

    /**
     * Every pair of each key's chains stored, whatever real time says (tests: pruning over these
     * must reach the same decisions as over {@link #of}'s windows).
     */
    static ChainPairs all(KeyChains chains) {
        return new ChainPairs(chains, false);
    }

    /** The first index in {@code sorted[0..length)} whose value is greater than {@code bound}. */
    private static int firstAfter(long[] sorted, int length, long bound) {
        int lo = 0;
        int hi = length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] <= bound) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** How many pairs are stored, over all keys. */
    long count() {
        return keyPairStart[keyPairStart.length - 1];
    }

    /** The index of {@code key}'s first stored pair; its pairs end where the next key's start. */
    long keyStart(int key) {
        return keyPairStart[key];
    }

    /** The end (exclusive) of the window of {@code key}'s chain at position {@code i}. */
    int windowEnd(int key, int i) {
        return windowEnd[keyBase[key] + i];
    }

    /**
     * The least position {@code i} whose window may hold position {@code j} of {@code key}: the
     * stored pairs {@code (i, j)} with {@code i < j} have {@code i} in {@code reachBack(key, j) ..
     * j - 1}, each where {@code windowEnd(key, i) > j}.
     */
    int reachBack(int key, int j) {
        return reachBack[keyBase[key] + j];
    }

    /**
     * The end (exclusive) of the first chains after the window of position {@code i}: positions
     * {@code windowEnd(key, i) .. successorsEnd(key, i) - 1}; every later position starts after one
     * of them ends.
     */
    int successorsEnd(int key, int i) {
        return successorsEnd[keyBase[key] + i];
    }

    /**
     * The end (exclusive) of the chains of {@code key} that come first by time: positions
     * {@code 0 .. earliestEnd(key) - 1}; every later position starts after one of them ends.
     */
    int earliestEnd(int key) {
        return earliestEnd[key];
    }

    /** The index of the pair of positions {@code i < j} of {@code key}, or {@code -1} when real time orders it ({@code i} first). */
    long index(int key, int i, int j) {
        int g = keyBase[key] + i;
        return j < windowEnd[g] ? pairOffset[g] + (j - i - 1) : -1;
    }

    /** Whether real-time edges lead from node {@code a} to node {@code b}: {@code a} ended before {@code b} started. */
    boolean realTimeOrders(int a, int b) {
        return realTime && a != KnownGraph.INITIAL && b != KnownGraph.INITIAL && nodeEnd[a] != Transaction.NO_TIME
                && nodeStart[b] != Transaction.NO_TIME && nodeEnd[a] < nodeStart[b];
    }

    /** Whether real time decides pairs here (the known graph has real-time edges, and they are used). */
    boolean byTime() {
        return realTime;
    }

    /** The chains these pairs are of. */
    KeyChains chains() {
        return chains;
    }

    @Override
    public String toString() {
        return "ChainPairs[" + count() + " stored" + (realTime ? ", real time" : "") + "]";
    }
}
