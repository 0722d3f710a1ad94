package dev.isocheck.internal.rounds;

import dev.isocheck.history.History;
import dev.isocheck.history.Session;
import dev.isocheck.history.Transaction;
import dev.isocheck.internal.graph.IntList;
import dev.isocheck.internal.graph.ReadExplanations;
import java.util.Arrays;

/**
 * Order that every valid order of a round's history shows, whatever the later rounds bring: real
 * time (one transaction ended before the other started), session order, and a read's only possible
 * writer before the reader. Only facts: a fold decided on them holds in every valid order of the
 * whole history (a missing fact makes a fold smaller, never wrong).
 *
 * <p>Why not the pruned graph of the check: a round's check may decompose, give up or answer from
 * the reference checker; these facts need none of that, and real time decides nearly everything a
 * fold asks on a long recorded run.
 */
final class KnownOrder {

    /** Past this many transactions visited, a path search answers "not known" (which only keeps more). */
    private static final int SEARCH_BUDGET = 20_000;

    private final long[] start;
    private final long[] end;
    private final int[][] successors;
    /** Aborted transactions, which no order places: a search never passes through one. */
    private final boolean[] aborted;
    private final int[] byStart;
    private final long[] sortedStarts;
    private final int[] seen;
    private int stamp;
    private final int[] queue;

    private KnownOrder(long[] start, long[] end, int[][] successors, boolean[] aborted) {
        this.start = start;
        this.end = end;
        this.successors = successors;
        this.aborted = aborted;
        int n = start.length;
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Long.compare(start[a], start[b]));
        byStart = new int[n];
        sortedStarts = new long[n];
        for (int i = 0; i < n; i++) {
            byStart[i] = order[i];
            sortedStarts[i] = start[order[i]];
        }
        seen = new int[n];
        queue = new int[n];
    }

    /**
     * The known order of {@code history} (every transaction timed), whose checked observations
     * {@code checked} explains (same transaction indexes).
     */
    static KnownOrder of(History history, ReadExplanations checked) {
        int n = history.size();
        long[] start = new long[n];
        long[] end = new long[n];
        for (Transaction t : history.transactions()) {
            start[t.index()] = t.startTime();
            end[t.index()] = t.endTime();
        }
        IntList[] out = new IntList[n];
        boolean[] aborted = new boolean[n];
        for (Transaction t : history.transactions()) {
            aborted[t.index()] = !t.isCommitted();
        }
        // Session order binds committed transactions only: an aborted one is in no order, so a
        // chain through it (session order to it, real time from it) would be no fact.
        for (Session session : history.sessions()) {
            int previous = -1;
            for (int m : session.transactions()) {
                if (aborted[m]) {
                    continue;
                }
                if (previous >= 0) {
                    add(out, previous, m);
                }
                previous = m;
            }
        }
        Writers writers = Writers.of(history);
        for (int obs = 0; obs < checked.size(); obs++) {
            int reader = checked.transaction(obs);
            int key = checked.key(obs);
            // A candidate is out when another writer of the key came between it and the reader in
            // real time, or started after the reader ended; the initial value is out when any
            // writer of the key ended before the reader started.
            long latestStartBefore = writers.latestStartEndingBefore(key, start[reader]);
            if (checked.initialStateExplains(obs) && latestStartBefore == Long.MIN_VALUE) {
                continue;
            }
            int only = -1;
            int count = 0;
            for (int i = 0; i < checked.writerCount(obs) && count < 2; i++) {
                int w = checked.writer(obs, i);
                if (start[w] <= end[reader] && end[w] >= latestStartBefore) {
                    only = w;
                    count++;
                }
            }
            if (count != 1) {
                continue;
            }
            add(out, only, reader);
            // Every other writer that ended before the reader started precedes the one it read;
            // every writer that started after that one ended follows the reader. Only those that
            // real time does not already order need saying.
            for (int u : writers.endingBetween(key, start[only], start[reader])) {
                if (u != only) {
                    add(out, u, only);
                }
            }
            for (int u : writers.startingBetween(key, end[only], end[reader])) {
                if (u != reader && u != only) {
                    add(out, reader, u);
                }
            }
        }
        int[][] successors = new int[n][];
        for (int t = 0; t < n; t++) {
            successors[t] = out[t] == null ? new int[0] : out[t].toArray();
        }
        return new KnownOrder(start, end, successors, aborted);
    }

    /** The committed writers of each key (their installed writes), by end and by start. */
    private static final class Writers {

        /**
         * One key's committed writers: by end, with their ends and the latest start up to each;
         * and by start, with their starts.
         */
        private record KeyWriters(int[] byEnd, long[] ends, long[] latestStart, int[] byStart, long[] starts) {
        }

        private final java.util.Map<Integer, KeyWriters> byKey = new java.util.HashMap<>();

        static Writers of(History history) {
            java.util.Map<Integer, IntList> lists = new java.util.HashMap<>();
            for (Transaction t : history.transactions()) {
                if (!t.isCommitted()) {
                    continue;
                }
                for (int op = 0; op < t.size(); op++) {
                    if (t.isFinalWrite(op)) {
                        lists.computeIfAbsent(t.key(op), k -> new IntList(4)).add(t.index());
                    }
                }
            }
            Writers w = new Writers();
            for (java.util.Map.Entry<Integer, IntList> e : lists.entrySet()) {
                int[] byEnd = sorted(e.getValue().toArray(), history, Transaction::endTime);
                int[] byStart = sorted(e.getValue().toArray(), history, Transaction::startTime);
                long[] ends = new long[byEnd.length];
                long[] latestStart = new long[byEnd.length];
                long[] starts = new long[byStart.length];
                long max = Long.MIN_VALUE;
                for (int i = 0; i < byEnd.length; i++) {
                    Transaction t = history.transaction(byEnd[i]);
                    ends[i] = t.endTime();
                    max = Math.max(max, t.startTime());
                    latestStart[i] = max;
                    starts[i] = history.transaction(byStart[i]).startTime();
                }
                w.byKey.put(e.getKey(), new KeyWriters(byEnd, ends, latestStart, byStart, starts));
            }
            return w;
        }

        private static int[] sorted(int[] transactions, History history, java.util.function.ToLongFunction<Transaction> time) {
            return Arrays.stream(transactions).boxed()
                    .sorted(java.util.Comparator.comparingLong(t -> time.applyAsLong(history.transaction(t))))
                    .mapToInt(Integer::intValue).toArray();
        }

        /** The latest start among writers of {@code key} that ended before {@code time}; MIN_VALUE if none. */
        long latestStartEndingBefore(int key, long time) {
            KeyWriters k = byKey.get(key);
            if (k == null) {
                return Long.MIN_VALUE;
            }
            int i = firstAtLeast(k.ends(), time) - 1;
            return i < 0 ? Long.MIN_VALUE : k.latestStart()[i];
        }

        /** Writers of {@code key} that ended at or after {@code from} and before {@code to}. */
        int[] endingBetween(int key, long from, long to) {
            KeyWriters k = byKey.get(key);
            if (k == null) {
                return new int[0];
            }
            int lo = firstAtLeast(k.ends(), from);
            int hi = firstAtLeast(k.ends(), to);
            return lo >= hi ? new int[0] : Arrays.copyOfRange(k.byEnd(), lo, hi);
        }

        /** Writers of {@code key} that started after {@code from} and at or before {@code to}. */
        int[] startingBetween(int key, long from, long to) {
            KeyWriters k = byKey.get(key);
            if (k == null || to == Long.MAX_VALUE) {
                return new int[0];
            }
            int lo = firstAtLeast(k.starts(), from + 1);
            int hi = firstAtLeast(k.starts(), to + 1);
            return lo >= hi ? new int[0] : Arrays.copyOfRange(k.byStart(), lo, hi);
        }

        private static int firstAtLeast(long[] sorted, long value) {
            int lo = 0;
            int hi = sorted.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (sorted[mid] < value) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }
    }

    private static void add(IntList[] out, int from, int to) {
        if (out[from] == null) {
            out[from] = new IntList(2);
        }
        out[from].add(to);
    }

    /** Whether real time orders {@code a} before {@code b}. */
    boolean realTimeBefore(int a, int b) {
        return end[a] < start[b];
    }

    /**
     * Whether every valid order puts {@code a} before {@code b}: a path of known order from one to
     * the other. A search that runs out of budget answers {@code false}.
     */
    boolean before(int a, int b) {
        if (a == b || aborted[a] || aborted[b]) {
            return false;
        }
        if (end[a] < start[b]) {
            return true;
        }
        stamp++;
        int head = 0;
        int tail = 0;
        queue[tail++] = a;
        seen[a] = stamp;
        // Real-time successors of a transaction ending at e are those starting after e; only those
        // starting by b's end can precede b. Enumerated once per search, from the earliest end seen.
        long covered = end[b];
        int visited = 0;
        while (head < tail) {
            int v = queue[head++];
            if (++visited > SEARCH_BUDGET) {
                return false;
            }
            if (end[v] < start[b]) {
                return true;
            }
            for (int m : successors[v]) {
                if (m == b) {
                    return true;
                }
                if (seen[m] != stamp && !aborted[m] && start[m] <= end[b]) {
                    seen[m] = stamp;
                    queue[tail++] = m;
                }
            }
            if (end[v] < covered) {
                int from = upperBound(end[v]);
                for (int i = from; i < sortedStarts.length && sortedStarts[i] <= covered; i++) {
                    int m = byStart[i];
                    if (seen[m] != stamp && !aborted[m]) {
                        seen[m] = stamp;
                        queue[tail++] = m;
                    }
                }
                covered = end[v];
            }
        }
        return false;
    }

    /** The first position in start order of a transaction starting after {@code time}. */
    private int upperBound(long time) {
        return Writers.firstAtLeast(sortedStarts, time + 1);
    }
}
