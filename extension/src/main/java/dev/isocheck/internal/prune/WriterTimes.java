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
    /** By key: where its timed writers start in {@link #byEnd}. */
    private final int[] keyStart;
    /** Each key's writers with both times, by end. */
    private final int[] byEnd;
    private final long[] endOf;
    /** By position in {@link #byEnd}: the latest start among the key's writers up to it (inclusive). */
    private final long[] prefixMaxStart;
    /** By key: the longest interval among its timed writers. */
    private final long[] longest;
    private final int[] untimedStart;
    private final int[] untimed;

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
        keyStart = new int[keys + 1];
        untimedStart = new int[keys + 1];
        longest = new long[keys];
        IntList timed = new IntList(1024);
        IntList without = new IntList(16);
        for (int k = 0; k < keys; k++) {
            int from = timed.size();
            for (int i = 0; i < polygraph.writerCount(k); i++) {
                int w = polygraph.writer(k, i);
                if (isTimed(w)) {
                    timed.add(w);
                    longest[k] = Math.max(longest[k], end[w] - start[w]);
                } else {
                    without.add(w);
                }
            }
            keyStart[k + 1] = timed.size();
            untimedStart[k + 1] = without.size();
            Integer[] boxed = new Integer[timed.size() - from];
            for (int i = from; i < timed.size(); i++) {
                boxed[i - from] = timed.get(i);
            }
            Arrays.sort(boxed, (a, b) -> end[a] != end[b] ? Long.compare(end[a], end[b]) : Integer.compare(a, b));
            for (int i = 0; i < boxed.length; i++) {
                timed.set(from + i, boxed[i]);
            }
        }
        byEnd = timed.toArray();
        untimed = without.toArray();
        endOf = new long[byEnd.length];
        prefixMaxStart = new long[byEnd.length];
        for (int k = 0; k < keys; k++) {
            long max = Long.MIN_VALUE;
            for (int i = keyStart[k]; i < keyStart[k + 1]; i++) {
                endOf[i] = end[byEnd[i]];
                max = Math.max(max, start[byEnd[i]]);
                prefixMaxStart[i] = max;
            }
        }
    }

    private boolean isTimed(int node) {
        return start[node] != Transaction.NO_TIME && end[node] != Transaction.NO_TIME;
    }

    /**
     * The latest start among {@code key}'s timed writers that ended before {@code reader} started,
     * or {@link Long#MIN_VALUE} when none did or the reader has no start.
     */
    long latestStartBefore(int key, int reader) {
        if (start[reader] == Transaction.NO_TIME) {
            return Long.MIN_VALUE;
        }
        int i = firstAtLeast(key, start[reader]);
        return i == keyStart[key] ? Long.MIN_VALUE : prefixMaxStart[i - 1];
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
        long readerEnd = end[reader] == Transaction.NO_TIME ? Long.MAX_VALUE : end[reader];
        // A writer ending after readerEnd + longest started after the reader ended.
        long last = readerEnd > Long.MAX_VALUE - longest[key] ? Long.MAX_VALUE : readerEnd + longest[key];
        for (int i = firstAtLeast(key, latestStart); i < keyStart[key + 1] && endOf[i] <= last; i++) {
            int w = byEnd[i];
            if (start[w] <= readerEnd) {
                out.add(w);
            }
        }
        for (int i = untimedStart[key]; i < untimedStart[key + 1]; i++) {
            out.add(untimed[i]);
        }
    }

    /**
     * One list of writers that the reads of a duplicated value share
     * ({@link ReadExplanations#writerListStart}), by end time: its positions with both times
     * sorted by their writer's end, the rest apart.
     */
    private static final class ListedWriters {
        int[] byEnd;
        long[] ends;
        int[] untimed;
        long longest;
    }

    private final java.util.Map<Long, ListedWriters> listed = new java.util.HashMap<>();

    /**
     * Into {@code out} (emptied first): the positions from {@code from} to {@code to} (exclusive)
     * of the shared list of writers that {@link #rulesOut} does not rule out for {@code reader}
     * given {@code latestStart}, in no particular order; each list is sorted by end once, so a read
     * costs the writers near it in time, not the whole list. Not thread-safe.
     */
    void survivingPositions(KnownGraph known, ReadExplanations explanations, int from, int to, int reader,
            long latestStart, IntList out) {
        out.truncate(0);
        ListedWriters list = listed.computeIfAbsent(((long) from << 32) | to, k -> sort(known, explanations, from, to));
        long readerEnd = end[reader] == Transaction.NO_TIME ? Long.MAX_VALUE : end[reader];
        long last = readerEnd > Long.MAX_VALUE - list.longest ? Long.MAX_VALUE : readerEnd + list.longest;
        int lo = 0;
        int hi = list.ends.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (list.ends[mid] < latestStart) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        for (int i = lo; i < list.ends.length && list.ends[i] <= last; i++) {
            int position = list.byEnd[i];
            if (start[known.node(explanations.listedWriter(position))] <= readerEnd) {
                out.add(position);
            }
        }
        for (int position : list.untimed) {
            if (!rulesOut(known.node(explanations.listedWriter(position)), reader, latestStart)) {
                out.add(position);
            }
        }
    }

    private ListedWriters sort(KnownGraph known, ReadExplanations explanations, int from, int to) {
        IntList timed = new IntList(to - from);
        IntList other = new IntList(4);
        ListedWriters list = new ListedWriters();
        for (int p = from; p < to; p++) {
            int node = known.node(explanations.listedWriter(p));
            if (isTimed(node)) {
                timed.add(p);
                list.longest = Math.max(list.longest, end[node] - start[node]);
            } else {
                other.add(p);
            }
        }
        list.byEnd = new int[timed.size()];
        list.ends = new long[timed.size()];
        Integer[] order = new Integer[timed.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = timed.get(i);
        }
        Arrays.sort(order, (a, b) -> Long.compare(end[known.node(explanations.listedWriter(a))],
                end[known.node(explanations.listedWriter(b))]));
        for (int i = 0; i < order.length; i++) {
            list.byEnd[i] = order[i];
            list.ends[i] = end[known.node(explanations.listedWriter(order[i]))];
        }
        list.untimed = other.toArray();
        return list;
    }

    /** The first position of {@code key}'s writers by end whose end is at least {@code bound}. */
    private int firstAtLeast(int key, long bound) {
        int lo = keyStart[key];
        int hi = keyStart[key + 1];
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (endOf[mid] < bound) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
