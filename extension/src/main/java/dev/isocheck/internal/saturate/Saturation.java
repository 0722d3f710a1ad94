package dev.isocheck.internal.saturate;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One saturation: for a choice of writers (some events possibly left unchosen), the graph of
 * session order, write-read order and the commit-order edges the level's axiom forces, and whether
 * it is acyclic. Read committed, read atomic and causal consistency have axioms whose premises
 * mention only session order and write-read order, never the commit order itself, so one pass adds
 * every forced edge, and the level holds for the choice exactly when the graph is acyclic (Biswas
 * and Enea, theorem 3.4); a topological order is then the commit order.
 *
 * <p>Edges are only added as more events are chosen, so a cycle with some events unchosen is a
 * cycle of every completion of the choice.
 *
 * <p>Read atomic takes, of the earlier transactions of the reader's session writing the key, only
 * the latest: the earlier ones precede it by session order. Causal consistency covers the causal
 * order (session and write-read order, transitively) by chains, each a path of direct edges, and
 * gives each transaction a clock: per chain, the last position that precedes it. Of a chain's
 * writers of the key that precede the reader, only the last one needs its edge: the others precede
 * it along the chain.
 */
final class Saturation {

    /** Session order. */
    static final int SESSION = 0;
    /** Write-read: {@code to} read a value {@code from} wrote (event {@code alpha}). */
    static final int WRITE_READ = 1;
    /** Forced by the axiom: event {@code alpha} read from {@code to} although {@code from}, a writer of its key, was visible. */
    static final int AXIOM = 2;

    /** Causal clocks of more ints than this are not built: the check says it cannot decide instead. */
    static final long MAX_CLOCK_CELLS = 50_000_000L;

    private final ReadEvents events;
    private final WeakLevel level;
    private final int[] chosen;
    private final int n;
    private final Edges edges = new Edges();
    /** The first forced edge into the initial state (a violation by itself), or -1. */
    private int intoInitial = -1;
    private int[] order;
    private int[] cycle;

    Saturation(ReadEvents events, WeakLevel level, int[] chosen) {
        this.events = events;
        this.level = level;
        this.chosen = chosen;
        this.n = events.size();
    }

    /** Runs the saturation; then {@link #order()} or {@link #cycle()} says how it ended. */
    Saturation run() {
        for (int t = 0; t < n; t++) {
            int p = events.sessionPredecessor(t);
            if (p >= 0) {
                edges.add(p, t, SESSION, -1, -1);
            }
        }
        for (int e = 0; e < chosen.length; e++) {
            int writer = chosen[e];
            if (writer >= 0 && writer < n) {
                edges.add(writer, events.transactionOf(e), WRITE_READ, e, -1);
            }
        }
        switch (level) {
            case READ_COMMITTED -> readCommitted();
            case READ_ATOMIC -> readAtomic();
            case CAUSAL -> {
                int[] topological = topologicalOrder();
                if (topological == null) {
                    return this;
                }
                causal(topological);
            }
            case PREFIX -> throw new IllegalArgumentException("prefix is not decided by saturation");
        }
        if (intoInitial < 0) {
            topologicalOrder();
        }
        return this;
    }

    /** The commit order found (transaction numbers), or {@code null} if the graph has a cycle. */
    int[] order() {
        return intoInitial >= 0 ? null : order;
    }

    /**
     * The edges of a shortest cycle through some transaction on a cycle, in order, or a single
     * forced edge into the initial state; {@code null} if there is none.
     */
    int[] cycle() {
        if (intoInitial >= 0) {
            return new int[] {intoInitial};
        }
        return cycle;
    }

    Edges edges() {
        return edges;
    }

    private void force(int t1, int t2, int alpha, int beta) {
        if (t2 == n) {
            if (intoInitial < 0) {
                intoInitial = edges.size();
                edges.add(t1, t2, AXIOM, alpha, beta);
            }
            return;
        }
        edges.add(t1, t2, AXIOM, alpha, beta);
    }

    /** t3 read x from t2 in α; an operation of t3 before α read from t1, a writer of x. */
    private void readCommitted() {
        VisibleWriters seen = new VisibleWriters();
        for (int t3 = 0; t3 < n && intoInitial < 0; t3++) {
            seen.clear();
            int start = events.firstEvent(t3);
            int end = events.firstEvent(t3 + 1);
            for (int alpha = start; alpha < end; ) {
                int op = events.operation(alpha);
                int opEnd = alpha;
                while (opEnd < end && events.operation(opEnd) == op) {
                    opEnd++;
                }
                for (int a = alpha; a < opEnd; a++) {
                    forceFrom(seen, a);
                }
                for (int a = alpha; a < opEnd; a++) {
                    seen.add(chosen[a], a);
                }
                alpha = opEnd;
            }
        }
    }

    /** Event α read x from t2: every visible writer t1 of x but t2 is forced before t2. */
    private void forceFrom(VisibleWriters visible, int alpha) {
        int t2 = chosen[alpha];
        if (t2 < 0) {
            return;
        }
        VisibleWriters.Entries writers = visible.of(events.key(alpha));
        for (int i = 0; writers != null && i < writers.size; i++) {
            if (writers.writer[i] != t2) {
                force(writers.writer[i], t2, alpha, writers.event[i]);
            }
        }
    }

    /**
     * The writers visible to the transaction being saturated, per key they write, each with the
     * event that read from it: looking up a read's key finds exactly the writers the axiom orders
     * before its source, without scanning the others.
     */
    private final class VisibleWriters {

        private final Map<Integer, Entries> byKey = new HashMap<>();
        private final java.util.Set<Integer> writers = new java.util.HashSet<>();

        void clear() {
            if (!writers.isEmpty()) {
                byKey.clear();
                writers.clear();
            }
        }

        /** Adds the source of event {@code e}, unless it is none, the initial state, or visible already. */
        void add(int writer, int e) {
            if (writer < 0 || writer == n || !writers.add(writer)) {
                return;
            }
            for (int key : events.writtenKeys(writer)) {
                byKey.computeIfAbsent(key, k -> new Entries()).add(writer, e);
            }
        }

        Entries of(int key) {
            return byKey.get(key);
        }

        /** The visible writers of one key. */
        final class Entries {
            int[] writer = new int[4];
            int[] event = new int[4];
            int size;

            void add(int w, int e) {
                if (size == writer.length) {
                    writer = Arrays.copyOf(writer, size * 2);
                    event = Arrays.copyOf(event, size * 2);
                }
                writer[size] = w;
                event[size++] = e;
            }
        }
    }

    /** t3 read x from t2; t1, a writer of x, precedes t3 by session order or t3 read from t1. */
    private void readAtomic() {
        Map<Integer, Map<Integer, Integer>> lastWriterBySession = new HashMap<>();
        int[] sessionOf = sessionNumbers();
        VisibleWriters sources = new VisibleWriters();
        for (int t3 = 0; t3 < n && intoInitial < 0; t3++) {
            Map<Integer, Integer> lastWriter = lastWriterBySession.computeIfAbsent(sessionOf[t3], s -> new HashMap<>());
            int start = events.firstEvent(t3);
            int end = events.firstEvent(t3 + 1);
            sources.clear();
            for (int e = start; e < end; e++) {
                sources.add(chosen[e], e);
            }
            for (int alpha = start; alpha < end; alpha++) {
                int t2 = chosen[alpha];
                if (t2 < 0) {
                    continue;
                }
                Integer earlier = lastWriter.get(events.key(alpha));
                if (earlier != null && earlier != t2) {
                    force(earlier, t2, alpha, -1);
                }
                forceFrom(sources, alpha);
            }
            recordWrites(t3, lastWriter);
        }
    }

    private void recordWrites(int t, Map<Integer, Integer> lastWriter) {
        var tx = events.transaction(t);
        for (int op = 0; op < tx.size(); op++) {
            if (tx.kind(op) == dev.isocheck.history.OpKind.WRITE) {
                lastWriter.put(tx.key(op), t);
            }
        }
    }

    private int[] sessionNumbers() {
        int[] session = new int[n];
        for (int t = 0; t < n; t++) {
            int p = events.sessionPredecessor(t);
            session[t] = p >= 0 ? session[p] : t;
        }
        return session;
    }

    /** t3 read x from t2; t1, a writer of x, precedes t3 causally. */
    private void causal(int[] topological) {
        // Chains: a transaction continues the chain of a direct predecessor that still ends it.
        int[] chain = new int[n];
        int[] position = new int[n];
        List<Integer> tails = new java.util.ArrayList<>();
        int[][] in = edges.incoming(n);
        for (int t : topological) {
            int picked = -1;
            int p = events.sessionPredecessor(t);
            if (p >= 0 && tails.get(chain[p]) == p) {
                picked = p;
            }
            for (int i = 0; picked < 0 && i < in[t].length; i++) {
                int from = edges.from(in[t][i]);
                if (tails.get(chain[from]) == from) {
                    picked = from;
                }
            }
            if (picked >= 0) {
                chain[t] = chain[picked];
                position[t] = position[picked] + 1;
                tails.set(chain[t], t);
            } else {
                chain[t] = tails.size();
                position[t] = 0;
                tails.add(t);
            }
        }
        int chains = tails.size();
        if ((long) chains * n > MAX_CLOCK_CELLS) {
            throw new TooLarge("the causal order needs " + chains + " chains over " + n
                    + " transactions, more clock entries than " + MAX_CLOCK_CELLS + "");
        }
        // clock[t * chains + c]: the last position of chain c that precedes t (t itself included), or -1.
        int[] clock = new int[chains * n];
        Arrays.fill(clock, -1);
        for (int t : topological) {
            int row = t * chains;
            for (int i = 0; i < in[t].length; i++) {
                int from = edges.from(in[t][i]);
                int fromRow = from * chains;
                for (int c = 0; c < chains; c++) {
                    clock[row + c] = Math.max(clock[row + c], clock[fromRow + c]);
                }
            }
            clock[row + chain[t]] = position[t];
        }
        // Per key and chain, the writers of the key along the chain.
        int[][] members = new int[chains][];
        int[] sizes = new int[chains];
        for (int t = 0; t < n; t++) {
            sizes[chain[t]]++;
        }
        for (int c = 0; c < chains; c++) {
            members[c] = new int[sizes[c]];
        }
        for (int t = 0; t < n; t++) {
            members[chain[t]][position[t]] = t;
        }
        Map<Integer, Map<Integer, int[]>> writersByKey = writersAlongChains(members, position);
        for (int t3 = 0; t3 < n && intoInitial < 0; t3++) {
            for (int alpha = events.firstEvent(t3); alpha < events.firstEvent(t3 + 1); alpha++) {
                int t2 = chosen[alpha];
                if (t2 < 0) {
                    continue;
                }
                int x = events.key(alpha);
                Map<Integer, int[]> perChain = writersByKey.getOrDefault(x, Map.of());
                for (Map.Entry<Integer, int[]> entry : perChain.entrySet()) {
                    int c = entry.getKey();
                    int bound = c == chain[t3] ? position[t3] - 1 : clock[t3 * chains + c];
                    int[] positions = entry.getValue();
                    int found = Arrays.binarySearch(positions, bound);
                    int index = found >= 0 ? found : -found - 2;
                    if (index < 0) {
                        continue;
                    }
                    int t1 = members[c][positions[index]];
                    if (t1 != t2) {
                        force(t1, t2, alpha, -1);
                    }
                }
            }
        }
    }

    /** Per key, per chain with writers of the key: their positions along the chain, ascending. */
    private Map<Integer, Map<Integer, int[]>> writersAlongChains(int[][] members, int[] position) {
        Map<Integer, Map<Integer, List<Integer>>> lists = new HashMap<>();
        for (int c = 0; c < members.length; c++) {
            for (int t : members[c]) {
                var tx = events.transaction(t);
                for (int op = 0; op < tx.size(); op++) {
                    if (tx.kind(op) == dev.isocheck.history.OpKind.WRITE) {
                        List<Integer> along = lists.computeIfAbsent(tx.key(op), k -> new HashMap<>())
                                .computeIfAbsent(c, k -> new java.util.ArrayList<>());
                        if (along.isEmpty() || along.get(along.size() - 1) != position[t]) {
                            along.add(position[t]);
                        }
                    }
                }
            }
        }
        Map<Integer, Map<Integer, int[]>> result = new HashMap<>();
        lists.forEach((key, perChain) -> {
            Map<Integer, int[]> arrays = new HashMap<>();
            perChain.forEach((c, along) -> arrays.put(c, along.stream().mapToInt(Integer::intValue).toArray()));
            result.put(key, arrays);
        });
        return result;
    }

    /**
     * Kahn's algorithm over the edges so far: sets {@link #order} and returns it, or sets
     * {@link #cycle} and returns {@code null}.
     */
    private int[] topologicalOrder() {
        order = null;
        cycle = null;
        int[][] out = edges.outgoing(n);
        int[] indegree = new int[n];
        for (int i = 0; i < edges.size(); i++) {
            if (edges.to(i) < n) {
                indegree[edges.to(i)]++;
            }
        }
        int[] result = new int[n];
        int count = 0;
        ArrayDeque<Integer> ready = new ArrayDeque<>();
        for (int t = 0; t < n; t++) {
            if (indegree[t] == 0) {
                ready.add(t);
            }
        }
        while (!ready.isEmpty()) {
            int t = ready.poll();
            result[count++] = t;
            for (int edge : out[t]) {
                int to = edges.to(edge);
                if (--indegree[to] == 0) {
                    ready.add(to);
                }
            }
        }
        if (count == n) {
            order = result;
            return result;
        }
        cycle = shortestCycle(indegree, out);
        return null;
    }

    /**
     * A shortest cycle through a transaction that lies on a cycle: every transaction Kahn's
     * algorithm left has a predecessor it left too, so walking predecessors from one ends on a
     * cycle; from a transaction of it, a breadth-first search finds the shortest way back.
     */
    private int[] shortestCycle(int[] indegree, int[][] out) {
        int[][] in = edges.incoming(n);
        int start = -1;
        for (int t = 0; t < n && start < 0; t++) {
            start = indegree[t] > 0 ? t : -1;
        }
        boolean[] visited = new boolean[n];
        int t = start;
        while (!visited[t]) {
            visited[t] = true;
            for (int edge : in[t]) {
                if (indegree[edges.from(edge)] > 0) {
                    t = edges.from(edge);
                    break;
                }
            }
        }
        int[] via = new int[n];
        Arrays.fill(via, -1);
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        queue.add(t);
        int root = t;
        while (!queue.isEmpty()) {
            int u = queue.poll();
            for (int edge : out[u]) {
                int v = edges.to(edge);
                if (v == root) {
                    return path(via, root, u, edge);
                }
                if (via[v] < 0 && v != root) {
                    via[v] = edge;
                    queue.add(v);
                }
            }
        }
        throw new IllegalStateException("no cycle through " + root);
    }

    private int[] path(int[] via, int root, int last, int closing) {
        java.util.ArrayList<Integer> list = new java.util.ArrayList<>();
        list.add(closing);
        for (int u = last; u != root; u = edges.from(via[u])) {
            list.add(via[u]);
        }
        java.util.Collections.reverse(list);
        return list.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The saturation would need more memory than it allows itself. */
    static final class TooLarge extends RuntimeException {
        TooLarge(String message) {
            super(message, null, false, false);
        }
    }

    /** The edges, column-wise: from, to, kind, the read event α, and the event β that made t1 visible (or -1). */
    static final class Edges {
        private int[] from = new int[64];
        private int[] to = new int[64];
        private byte[] kind = new byte[64];
        private int[] alpha = new int[64];
        private int[] beta = new int[64];
        private int size;

        void add(int f, int t, int k, int a, int b) {
            if (size == from.length) {
                int capacity = size * 2;
                from = Arrays.copyOf(from, capacity);
                to = Arrays.copyOf(to, capacity);
                kind = Arrays.copyOf(kind, capacity);
                alpha = Arrays.copyOf(alpha, capacity);
                beta = Arrays.copyOf(beta, capacity);
            }
            from[size] = f;
            to[size] = t;
            kind[size] = (byte) k;
            alpha[size] = a;
            beta[size] = b;
            size++;
        }

        int size() {
            return size;
        }

        int from(int i) {
            return from[i];
        }

        int to(int i) {
            return to[i];
        }

        int kind(int i) {
            return kind[i];
        }

        int alpha(int i) {
            return alpha[i];
        }

        int beta(int i) {
            return beta[i];
        }

        int[][] outgoing(int n) {
            return adjacency(n, from);
        }

        int[][] incoming(int n) {
            return adjacency(n, to);
        }

        private int[][] adjacency(int n, int[] end) {
            int[] counts = new int[n + 1];
            for (int i = 0; i < size; i++) {
                counts[end[i]]++;
            }
            int[][] lists = new int[n + 1][];
            for (int t = 0; t <= n; t++) {
                lists[t] = new int[counts[t]];
            }
            int[] fill = new int[n + 1];
            for (int i = 0; i < size; i++) {
                lists[end[i]][fill[end[i]]++] = i;
            }
            return lists;
        }
    }
}
