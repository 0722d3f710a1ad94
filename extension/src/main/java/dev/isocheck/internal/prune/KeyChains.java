package dev.isocheck.internal.prune;

import dev.isocheck.history.History;
import dev.isocheck.history.Transaction;
import dev.isocheck.internal.graph.HyperPolygraph;
import dev.isocheck.internal.graph.IntList;
import dev.isocheck.internal.graph.KnownGraph;
import java.util.Arrays;

/**
 * The writers of each key combined into read-modify-write chains (Cobra's write combining), and
 * who certainly read each version.
 *
 * <p>A writer {@code d} of key {@code x} <em>continues</em> {@code c} when the only write that can
 * explain {@code d}'s read of {@code x} is {@code c}'s. Then in every valid order {@code c}'s
 * version of {@code x} is immediately followed by {@code d}'s: any writer in between would have
 * been read instead (serializability), or would conflict with {@code d} (snapshot isolation's
 * first committer wins). So the writers of a key fall into chains, and the order of a key's
 * versions is an order of its chains: one constraint per pair of chains instead of one per pair of
 * writers. A chain that continues the initial state T⊥ (its first writer read only the initial
 * value) precedes every other chain of its key.
 *
 * <p>Writers are addressed by <em>slot</em>: key {@code k}'s writers are the slots
 * {@code slotStart(k) .. slotStart(k + 1)}, in the polygraph's writer order (ascending node).
 * <em>Certain readers</em> of a slot are the readers of observations whose only candidate is that
 * writer; certain readers of T⊥ are kept per key.
 *
 * <p>A key's chains are in the order of their real-time spans when the known graph has real-time
 * edges ({@link #spanStart}), else in the order of their heads.
 *
 * <p>Two writers that both continue the same version (a lost update, when that version has a
 * single possible writer) are not chained: each is left a certain reader of the version, and
 * {@link #lostUpdateEdges()} lists the two read-write edges between them, a cycle the pruner
 * reports. Building requires the known graph's write-read edges to be acyclic (the pruner checks
 * first), which keeps chains acyclic.
 */
public final class KeyChains {

    private final HyperPolygraph polygraph;
    private final int[] slotStart;
    private final int[] slotNode;
    private final int[] next;
    private final int[] previous;
    private final int[] chainOfSlot;
    private final int[] readerStart;
    private final int[] readers;
    private final int[] initialReaderStart;
    private final int[] initialReaders;
    private final int[] chainHead;
    private final int[] chainTail;
    private final int[] keyChainStart;
    private final int[] keyChains;
    private final int[] initialChain;
    private final int[] lostUpdates;
    /** By chain: the real-time span (see {@link #spanStart}), or the whole line without real time. */
    private final long[] spanStart;
    private final long[] spanEnd;

    private KeyChains(HyperPolygraph polygraph) {
        this.polygraph = polygraph;
        int keys = polygraph.keyCount();
        slotStart = new int[keys + 1];
        for (int k = 0; k < keys; k++) {
            slotStart[k + 1] = slotStart[k] + polygraph.writerCount(k);
        }
        int slots = slotStart[keys];
        slotNode = new int[slots];
        for (int k = 0; k < keys; k++) {
            for (int i = 0; i < polygraph.writerCount(k); i++) {
                slotNode[slotStart[k] + i] = polygraph.writer(k, i);
            }
        }
        next = new int[slots];
        previous = new int[slots];
        Arrays.fill(next, -1);
        Arrays.fill(previous, -1);
        int[] readerCount = new int[slots + 1];
        initialReaderStart = new int[keys + 1];
        int[] initialSuccessor = new int[keys];
        Arrays.fill(initialSuccessor, -1);
        IntList lost = new IntList(16);
        // Count first, then fill: certain readers in CSR arrays.
        for (int o = 0; o < polygraph.observationCount(); o++) {
            if (polygraph.candidateCount(o) == 1) {
                int k = polygraph.key(o);
                int c = polygraph.candidate(o, 0);
                if (c == KnownGraph.INITIAL) {
                    initialReaderStart[k + 1]++;
                } else {
                    readerCount[slotOf(k, c) + 1]++;
                }
            }
        }
        for (int s = 0; s < slots; s++) {
            readerCount[s + 1] += readerCount[s];
        }
        for (int k = 0; k < keys; k++) {
            initialReaderStart[k + 1] += initialReaderStart[k];
        }
        readerStart = readerCount;
        readers = new int[readerStart[slots]];
        initialReaders = new int[initialReaderStart[keys]];
        int[] fill = Arrays.copyOf(readerStart, slots);
        int[] initialFill = Arrays.copyOf(initialReaderStart, keys);
        for (int o = 0; o < polygraph.observationCount(); o++) {
            if (polygraph.candidateCount(o) != 1) {
                continue;
            }
            int k = polygraph.key(o);
            int c = polygraph.candidate(o, 0);
            int r = polygraph.reader(o);
            int readerSlot = slotOf(k, r);
            if (c == KnownGraph.INITIAL) {
                initialReaders[initialFill[k]++] = r;
                if (readerSlot >= 0 && previous[readerSlot] < 0) {
                    if (initialSuccessor[k] < 0) {
                        initialSuccessor[k] = readerSlot;
                        previous[readerSlot] = Integer.MAX_VALUE; // continues T⊥: not a head of its own
                    } else if (initialSuccessor[k] != readerSlot) {
                        lost.add(r);
                        lost.add(slotNode[initialSuccessor[k]]);
                    }
                }
                continue;
            }
            int writerSlot = slotOf(k, c);
            readers[fill[writerSlot]++] = r;
            if (readerSlot >= 0 && previous[readerSlot] < 0) {
                if (next[writerSlot] < 0) {
                    next[writerSlot] = readerSlot;
                    previous[readerSlot] = writerSlot;
                } else if (next[writerSlot] != readerSlot) {
                    lost.add(r);
                    lost.add(slotNode[next[writerSlot]]);
                }
            }
        }
        lostUpdates = lost.toArray();

        chainOfSlot = new int[slots];
        IntList heads = new IntList(slots);
        IntList tails = new IntList(slots);
        keyChainStart = new int[keys + 1];
        IntList perKey = new IntList(slots);
        initialChain = new int[keys];
        Arrays.fill(initialChain, -1);
        for (int k = 0; k < keys; k++) {
            for (int s = slotStart[k]; s < slotStart[k + 1]; s++) {
                if (previous[s] >= 0 && s != initialSuccessor[k]) {
                    continue;
                }
                int chain = heads.size();
                int tail = s;
                chainOfSlot[s] = chain;
                while (next[tail] >= 0) {
                    tail = next[tail];
                    chainOfSlot[tail] = chain;
                }
                heads.add(s);
                tails.add(tail);
                if (s == initialSuccessor[k]) {
                    initialChain[k] = chain;
                } else {
                    perKey.add(chain);
                }
            }
            keyChainStart[k + 1] = perKey.size();
        }
        for (int s : initialSuccessor) {
            if (s >= 0) {
                previous[s] = -1;
            }
        }
        chainHead = heads.toArray();
        chainTail = tails.toArray();
        keyChains = perKey.toArray();
        spanStart = new long[chainHead.length];
        spanEnd = new long[chainHead.length];
        Arrays.fill(spanStart, Long.MIN_VALUE);
        Arrays.fill(spanEnd, Long.MAX_VALUE);
        if (polygraph.known().hasRealTime()) {
            sortBySpan(keys);
        }
    }

    /**
     * With real-time edges: each chain's span from its head's start to its tail's end, and each
     * key's chains sorted by the start of their spans (then their end, then their head), so that
     * the chains whose order real time leaves open are neighbours ({@link ChainPairs}). A chain
     * whose head has no start or whose tail has no end spans the whole line, and sorts first.
     */
    private void sortBySpan(int keys) {
        History history = polygraph.known().history();
        for (int c = 0; c < chainHead.length; c++) {
            Transaction head = history.transaction(polygraph.known().transaction(slotNode[chainHead[c]]));
            Transaction tail = history.transaction(polygraph.known().transaction(slotNode[chainTail[c]]));
            long start = head.startTime();
            long end = tail.endTime();
            if (start != Transaction.NO_TIME && end != Transaction.NO_TIME) {
                // A chain whose tail ends before its head starts is cyclic with real time (pruning
                // finds the cycle); its span still covers both times.
                spanStart[c] = Math.min(start, end);
                spanEnd[c] = Math.max(start, end);
            }
        }
        Integer[] order = new Integer[0];
        for (int k = 0; k < keys; k++) {
            int from = keyChainStart[k];
            int count = keyChainStart[k + 1] - from;
            if (order.length < count) {
                order = new Integer[count];
            }
            for (int i = 0; i < count; i++) {
                order[i] = keyChains[from + i];
            }
            Arrays.sort(order, 0, count, (a, b) -> spanStart[a] != spanStart[b] ? Long.compare(spanStart[a], spanStart[b])
                    : spanEnd[a] != spanEnd[b] ? Long.compare(spanEnd[a], spanEnd[b]) : Integer.compare(a, b));
            for (int i = 0; i < count; i++) {
                keyChains[from + i] = order[i];
            }
        }
    }

    /**
     * The chains of {@code polygraph}'s keys.
     *
     * @return never {@code null}
     */
    public static KeyChains of(HyperPolygraph polygraph) {
        return new KeyChains(polygraph);
    }

    /** The polygraph these chains are of. */
    public HyperPolygraph polygraph() {
        return polygraph;
    }

    /** The slot of writer {@code node} of {@code key}, or {@code -1} when it does not write the key. */
    public int slotOf(int key, int node) {
        int at = Arrays.binarySearch(slotNode, slotStart[key], slotStart[key + 1], node);
        return at >= 0 ? at : -1;
    }

    /** The first slot of {@code key}'s writers. */
    public int slotStart(int key) {
        return slotStart[key];
    }

    /** The writer node in {@code slot}. */
    public int node(int slot) {
        return slotNode[slot];
    }

    /** The slot whose version immediately follows {@code slot}'s in its chain, or {@code -1}. */
    public int next(int slot) {
        return next[slot];
    }

    /** The chain of {@code slot}. */
    public int chainOf(int slot) {
        return chainOfSlot[slot];
    }

    /** How many transactions certainly read {@code slot}'s version. */
    public int readerCount(int slot) {
        return readerStart[slot + 1] - readerStart[slot];
    }

    /** The {@code i}-th certain reader (node) of {@code slot}'s version. */
    public int reader(int slot, int i) {
        return readers[readerStart[slot] + i];
    }

    /** How many transactions certainly read {@code key}'s initial value. */
    public int initialReaderCount(int key) {
        return initialReaderStart[key + 1] - initialReaderStart[key];
    }

    /** The {@code i}-th certain reader (node) of {@code key}'s initial value. */
    public int initialReader(int key, int i) {
        return initialReaders[initialReaderStart[key] + i];
    }

    /** How many chains, over all keys. */
    public int chainCount() {
        return chainHead.length;
    }

    /** The first slot of {@code chain}. */
    public int head(int chain) {
        return chainHead[chain];
    }

    /** The last slot of {@code chain}. */
    public int tail(int chain) {
        return chainTail[chain];
    }

    /** How many chains of {@code key} are ordered by choice (the chain continuing T⊥ excluded). */
    public int chainCount(int key) {
        return keyChainStart[key + 1] - keyChainStart[key];
    }

    /** The {@code i}-th chain of {@code key} ordered by choice. */
    public int chain(int key, int i) {
        return keyChains[keyChainStart[key] + i];
    }

    /** The chain of {@code key} that continues the initial state (it comes first), or {@code -1}. */
    public int initialChain(int key) {
        return initialChain[key];
    }

    /**
     * The earliest time of {@code chain}'s real-time span: the start of its head, when the known
     * graph has real-time edges and its head a start and its tail an end; else
     * {@link Long#MIN_VALUE}. A chain whose span ends before another's starts certainly precedes
     * it: its tail ends before the other's head starts, so a real-time edge leads from one to the
     * other, and each chain's write-write edges lead from its head to its tail.
     */
    public long spanStart(int chain) {
        return spanStart[chain];
    }

    /** The latest time of {@code chain}'s real-time span (its tail's end), or {@link Long#MAX_VALUE}; see {@link #spanStart}. */
    public long spanEnd(int chain) {
        return spanEnd[chain];
    }

    /**
     * Pairs of writers (flattened {@code a0, b0, a1, b1, ...}) that both certainly read the same
     * version of a key and both wrote it: each must precede the other (a lost update).
     */
    public int[] lostUpdateEdges() {
        return lostUpdates.clone();
    }
}
