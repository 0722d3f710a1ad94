package dev.isocheck.internal.prune;

import dev.isocheck.history.History;
import dev.isocheck.history.Transaction;
import dev.isocheck.internal.graph.HyperPolygraph;
import dev.isocheck.internal.graph.IntList;
import dev.isocheck.internal.graph.KnownGraph;
import dev.isocheck.internal.graph.ReadExplanations;
import java.util.Arrays;

/**
 * The writers of each key by their real-time interval, for read pruning with real-time edges in
 * the known graph: which writers can be the latest before a reader, and which candidates real
 * time alone rules out.
 *
 * <p>With real-time edges, a writer that ended before the reader started precedes it. Let
 * {@code M} be the latest start among those ({@link #latestStartBefore}): each writer that ended
 * before {@code M} precedes the one that started at {@code M}, which precedes the reader, so it is
 * neither among the latest writers before the reader nor a candidate the reader can have read
 * (its version is overwritten first). A writer that started after the reader ended follows it. So
 * the writers that can be latest before a reader, or its candidates, have ended at or after
 * {@code M} and started at or before the reader's end: a window of the writers sorted by end,
 * bounded by the key's longest writer ({@link #window}), plus the writers without both times,
 * which real time does not place. On a hot row rewritten by thousands of transactions, 16 at a
 * time, that window is a few tens of writers.
 */
final class WriterTimes {

    private final long[] start;
    private final long[] end;
    /** By key: its writers (nodes) by end. */
    private final ByEnd[] keyWriters;
    /** By key: per position of {@link #keyWriters}' timed writers, the latest start up to it (inclusive). */
    private final long[][] prefixMaxStart;
    /** The shared lists of writers of duplicated values ({@link ReadExplanations#writerListStart}), by end, as met. */
    private final java.util.Map<Long, ByEnd> listed = new java.util.HashMap<>();

    WriterTimes(HyperPolygraph polygraph) {
        KnownGraph known = polygraph.known();
        History history = known.history();
        int nodes = known.nodeCount();
        start = new long[nodes];
        end = new long[nodes];
        start[KnownGraph.INITIAL] = Transaction.NO_TIME;
        end[KnownGraph.INITIAL] = Transaction.NO_TIME;
        for (int n = 1; n < nodes; n++) {
            Transaction t = history.transaction(known.transaction(n));
            start[n] = t.startTime();
            end[n] = t.endTime();
        }
        int keys = polygraph.keyCount();
        keyWriters = new ByEnd[keys];
        prefixMaxStart = new long[keys][];
        for (int k = 0; k < keys; k++) {
            int[] writers = new int[polygraph.writerCount(k)];
            for (int i = 0; i < writers.length; i++) {
                writers[i] = polygraph.writer(k, i);
            }
            ByEnd byEnd = new ByEnd(writers, node -> node);
            long[] max = new long[byEnd.items.length];
            long latest = Long.MIN_VALUE;
            for (int i = 0; i < max.length; i++) {
                latest = Math.max(latest, start[byEnd.items[i]]);
                max[i] = latest;
            }
            keyWriters[k] = byEnd;
            prefixMaxStart[k] = max;
        }
    }

    /**
     * Items (writer nodes, or positions of a shared list of writers) by their writer's end: those
     * whose writer has both times sorted by its end, the others apart.
     */
    private final class ByEnd {
        final int[] items;
        final long[] ends;
        final int[] untimed;
        /** The longest interval among the timed items' writers. */
        final long longest;
        final java.util.function.IntUnaryOperator nodeOf;

        ByEnd(int[] all, java.util.function.IntUnaryOperator nodeOf) {
            this.nodeOf = nodeOf;
            IntList timed = new IntList(all.length);
            IntList other = new IntList(4);
            long longestSoFar = 0;
            for (int item : all) {
                int node = nodeOf.applyAsInt(item);
                if (start[node] != Transaction.NO_TIME && end[node] != Transaction.NO_TIME) {
                    timed.add(item);
                    longestSoFar = Math.max(longestSoFar, end[node] - start[node]);
                } else {
                    other.add(item);
                }
            }
            longest = longestSoFar;
            Integer[] order = new Integer[timed.size()];
            for (int i = 0; i < order.length; i++) {
                order[i] = timed.get(i);
            }
            Arrays.sort(order, (a, b) -> {
                long ea = end[nodeOf.applyAsInt(a)];
                long eb = end[nodeOf.applyAsInt(b)];
                return ea != eb ? Long.compare(ea, eb) : Integer.compare(a, b);
            });
            items = new int[order.length];
            ends = new long[order.length];
            for (int i = 0; i < order.length; i++) {
                items[i] = order[i];
                ends[i] = end[nodeOf.applyAsInt(order[i])];
            }
            untimed = other.toArray();
        }

        /** The first position of the timed items whose end is at least {@code bound}. */
        int firstEndingAtLeast(long bound) {
            int lo = 0;
            int hi = ends.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (ends[mid] < bound) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }

        /**
         * Appends to {@code out} the timed items that ended at or after {@code latestStart} and
         * started at or before {@code reader}'s end (a window of the end order, bounded by the
         * longest interval), then every untimed one.
         */
        void near(int reader, long latestStart, IntList out) {
            long readerEnd = end[reader] == Transaction.NO_TIME ? Long.MAX_VALUE : end[reader];
            // An item ending after readerEnd + longest started after the reader ended.
            long last = readerEnd > Long.MAX_VALUE - longest ? Long.MAX_VALUE : readerEnd + longest;
            for (int i = firstEndingAtLeast(latestStart); i < ends.length && ends[i] <= last; i++) {
                if (start[nodeOf.applyAsInt(items[i])] <= readerEnd) {
                    out.add(items[i]);
                }
            }
            for (int item : untimed) {
                out.add(item);
            }
        }
    }

    /**
     * The latest start among {@code key}'s timed writers that ended before {@code reader} started,
     * or {@link Long#MIN_VALUE} when none did or the reader has no start.
     */
    long latestStartBefore(int key, int reader) {
        if (start[reader] == Transaction.NO_TIME) {
            return Long.MIN_VALUE;
        }
        int i = keyWriters[key].firstEndingAtLeast(start[reader]);
        return i == 0 ? Long.MIN_VALUE : prefixMaxStart[key][i - 1];
    }

    /**
     * Whether real time alone rules out that {@code reader} read {@code key} from {@code writer}:
     * the writer started after the reader ended, or ended before another writer of the key that
     * ended before the reader started (given {@code latestStart}, {@link #latestStartBefore}).
     */
    boolean rulesOut(int writer, int reader, long latestStart) {
        if (writer == KnownGraph.INITIAL) {
            return false;
        }
        return start[writer] != Transaction.NO_TIME && end[reader] != Transaction.NO_TIME && start[writer] > end[reader]
                || end[writer] != Transaction.NO_TIME && end[writer] < latestStart;
    }

    /**
     * Into {@code out} (emptied first): the writers of {@code key} that can precede {@code reader}
     * and be latest among those that do: timed ones that ended at or after {@code latestStart} and
     * started at or before the reader's end, and those without both times.
     */
    void window(int key, int reader, long latestStart, IntList out) {
        out.truncate(0);
        keyWriters[key].near(reader, latestStart, out);
    }

    /**
     * Into {@code out} (emptied first): the positions from {@code from} to {@code to} (exclusive)
     * of the shared list of writers that {@link #rulesOut} does not rule out for {@code reader}
     * given {@code latestStart}, in no particular order; each list is sorted by end once, so a read
     * costs the writers near it in time, not the whole list. Not thread-safe.
     */
    void survivingPositions(KnownGraph known, ReadExplanations explanations, int from, int to, int reader,
            long latestStart, IntList out) {
        out.truncate(0);
        java.util.function.IntUnaryOperator nodeOf = position -> known.node(explanations.listedWriter(position));
        ByEnd list = listed.computeIfAbsent(((long) from << 32) | to, k -> {
            int[] positions = new int[to - from];
            for (int p = from; p < to; p++) {
                positions[p - from] = p;
            }
            return new ByEnd(positions, nodeOf);
        });
        list.near(reader, latestStart, out);
        // The timed ones near the reader are never ruled out; the untimed are, by what times they have.
        int kept = 0;
        for (int i = 0; i < out.size(); i++) {
            if (!rulesOut(nodeOf.applyAsInt(out.get(i)), reader, latestStart)) {
                out.set(kept++, out.get(i));
            }
        }
        out.truncate(kept);
    }
}
