package dev.isocheck.internal.reference;

import dev.isocheck.Anomaly;
import dev.isocheck.AnomalyType;
import dev.isocheck.internal.engine.Checker;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.history.History;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.Session;
import dev.isocheck.history.Transaction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The brute-force oracle: decides a level by enumerating every order of the committed
 * transactions the level allows and replaying each transaction atomically at its place.
 *
 * <ul>
 *   <li>Serializable: a total order respecting session order; each transaction reads the state
 *       installed by the transactions before it.</li>
 *   <li>Strict serializable: also {@code end(a) < start(b)} (both recorded) puts a before b.</li>
 *   <li>Snapshot isolation: a commit order respecting session order and, per transaction, a
 *       snapshot: the state after a prefix of the commit order that ends before it and contains its
 *       session predecessors and every earlier-committed transaction writing a key it writes
 *       (first committer wins).</li>
 *   <li>Prefix consistency: as snapshot isolation, with snapshots that need only contain session
 *       predecessors.</li>
 *   <li>Read committed, read atomic, causal: Biswas and Enea's axioms ({@link AxiomaticReference}).</li>
 * </ul>
 *
 * <p>The search places one transaction at a time and abandons a branch as soon as the placed
 * transaction's reads fail, so small histories take milliseconds; above {@link #maxCommitted()}
 * committed transactions the answer is {@link Verdict.Unknown}. A {@link Verdict.Satisfied}
 * witness is the serial order, or for snapshot isolation and prefix consistency the commit order; both can be replayed
 * with {@link #explains(History, IsolationLevel, List)}.
 */
public final class ReferenceChecker implements Checker {

    /** The default bound on committed transactions: 8! orders at worst. */
    public static final int DEFAULT_MAX_COMMITTED = 8;

    private final int maxCommitted;

    /** A reference checker for histories of at most {@value #DEFAULT_MAX_COMMITTED} committed transactions. */
    public ReferenceChecker() {
        this(DEFAULT_MAX_COMMITTED);
    }

    /**
     * A reference checker for histories of at most {@code maxCommitted} committed transactions.
     *
     * @throws IllegalArgumentException if {@code maxCommitted} is negative
     */
    public ReferenceChecker(int maxCommitted) {
        if (maxCommitted < 0) {
            throw new IllegalArgumentException("maxCommitted must not be negative: " + maxCommitted);
        }
        this.maxCommitted = maxCommitted;
    }

    /** The most committed transactions a history may have for this checker to decide it. */
    public int maxCommitted() {
        return maxCommitted;
    }

    @Override
    public Verdict check(History history, IsolationLevel level) {
        Objects.requireNonNull(history, "history is null");
        Objects.requireNonNull(level, "level is null");
        java.util.Optional<dev.isocheck.internal.saturate.WeakLevel> weak = dev.isocheck.internal.saturate.WeakLevel.of(level);
        if (weak.isPresent()) {
            return checkWeak(history, level, weak.get());
        }
        int committed = history.committedCount();
        if (committed > maxCommitted) {
            return new Verdict.Unknown(level, "too large for the reference checker: " + committed
                    + " committed transactions (at most " + maxCommitted + ")");
        }
        OrderSearch search = new OrderSearch(history, level, null, null);
        if (search.run()) {
            return new Verdict.Satisfied(level, search.order());
        }
        List<String> ids = search.committedIds();
        return new Verdict.Violated(level, new Anomaly(AnomalyType.NO_VALID_ORDER, ids, noOrder(level, ids.size())));
    }

    /** The weak levels, by {@link AxiomaticReference}: no witness order is given for them (empty). */
    private static Verdict checkWeak(History history, IsolationLevel level, dev.isocheck.internal.saturate.WeakLevel weak) {
        var events = dev.isocheck.internal.saturate.ReadEvents.of(history);
        return switch (AxiomaticReference.check(events, weak)) {
            case SATISFIED -> new Verdict.Satisfied(level, List.of());
            case VIOLATED -> new Verdict.Violated(level, new Anomaly(AnomalyType.NO_VALID_ORDER,
                    history.transactions().stream().filter(Transaction::isCommitted).map(Transaction::id).toList(),
                    noOrder(level, history.committedCount())));
            case UNKNOWN -> new Verdict.Unknown(level, "too large for the reference checker: " + history.committedCount()
                    + " committed transactions (at most " + AxiomaticReference.MAX_COMMITTED + ") or more than "
                    + AxiomaticReference.MAX_CHOICES + " choices of writers at " + level);
        };
    }

    private static String noOrder(IsolationLevel level, int committed) {
        String transactions = committed + " committed transaction" + (committed == 1 ? "" : "s");
        return switch (level) {
            case SERIALIZABLE -> "no serial order of the " + transactions
                    + ", respecting session order, explains every read";
            case STRICT_SERIALIZABLE -> "no serial order of the " + transactions
                    + ", respecting session order and real time, explains every read";
            case SNAPSHOT_ISOLATION -> "no commit order of the " + transactions
                    + " with snapshots (respecting session order and first-committer-wins) explains every read";
            case PREFIX -> "no commit order of the " + transactions
                    + " with snapshots (respecting session order) explains every read";
            case CAUSAL, READ_ATOMIC, READ_COMMITTED -> "no choice of writers and commit order of the " + transactions
                    + " satisfies the " + level + " axiom";
        };
    }

    /**
     * Whether {@code order} witnesses {@code level}: it lists every committed transaction once (by
     * id) and respects session order (and real time, for strict serializability), and replaying it
     * explains every read. For snapshot isolation {@code order} is the commit order and the
     * snapshots are searched for; see {@link #explainsSnapshots} to give them too. No size limit.
     */
    public static boolean explains(History history, IsolationLevel level, List<String> order) {
        OrderSearch search = new OrderSearch(history, level, order, null);
        return search.isPermutationOfCommitted() && search.run();
    }

    /**
     * Whether a commit order with the given snapshots witnesses snapshot isolation: transaction
     * {@code commitOrder.get(i)} reads the state after the first {@code snapshotLengths.get(i)}
     * transactions of the commit order (so {@code 0 <= length <= i}), and the snapshots contain
     * session predecessors and respect first-committer-wins.
     */
    public static boolean explainsSnapshots(History history, List<String> commitOrder, List<Integer> snapshotLengths) {
        if (commitOrder.size() != snapshotLengths.size()) {
            return false;
        }
        OrderSearch search = new OrderSearch(history, IsolationLevel.SNAPSHOT_ISOLATION, commitOrder, snapshotLengths);
        return search.isPermutationOfCommitted() && search.run();
    }

    /**
     * One depth-first search over orders (optionally forced to a given order and snapshots).
     * Transactions are numbered 0..n-1 in file order among the committed ones.
     */
    private static final class OrderSearch {

        private final IsolationLevel level;
        private final TransactionReplay replay;
        private final Transaction[] committed;
        /** Per transaction, those that must be placed before it. */
        private final int[][] predecessors;
        /** Per transaction, those that must be in its snapshot when placed after them (SI, prefix). */
        private final int[][] inSnapshotIfEarlier;
        private final int[] forcedOrder;
        private final int[] forcedSnapshots;
        private final int[] positionOf;
        private final int[] order;
        /** {@code states[p]}: the state after the first p transactions of the order. */
        private final int[][] states;
        private boolean permutation = true;

        OrderSearch(History history, IsolationLevel level, List<String> forcedOrderIds, List<Integer> forcedSnapshots) {
            this.level = level;
            this.replay = new TransactionReplay(history);
            this.committed = history.transactions().stream().filter(Transaction::isCommitted).toArray(Transaction[]::new);
            int n = committed.length;
            Map<Integer, Integer> numberOf = new HashMap<>();
            for (int i = 0; i < n; i++) {
                numberOf.put(committed[i].index(), i);
            }
            this.predecessors = predecessors(history, level, numberOf);
            this.inSnapshotIfEarlier = level == IsolationLevel.SNAPSHOT_ISOLATION ? snapshotMembers(numberOf, true)
                    : level == IsolationLevel.PREFIX ? snapshotMembers(numberOf, false) : null;
            this.forcedOrder = forcedOrderIds == null ? null : numbers(history, forcedOrderIds, numberOf);
            this.forcedSnapshots = forcedSnapshots == null ? null : forcedSnapshots.stream().mapToInt(Integer::intValue).toArray();
            this.positionOf = new int[n];
            Arrays.fill(positionOf, -1);
            this.order = new int[n];
            this.states = new int[n + 1][];
            this.states[0] = replay.initialState();
        }

        /** Session order, plus real time for strict serializability. */
        private int[][] predecessors(History history, IsolationLevel level, Map<Integer, Integer> numberOf) {
            List<List<Integer>> before = new ArrayList<>();
            for (int i = 0; i < committed.length; i++) {
                before.add(new ArrayList<>());
            }
            for (Session session : history.sessions()) {
                List<Integer> earlier = new ArrayList<>();
                for (int s = 0; s < session.size(); s++) {
                    Integer number = numberOf.get(session.transaction(s));
                    if (number != null) {
                        before.get(number).addAll(earlier);
                        earlier.add(number);
                    }
                }
            }
            if (level == IsolationLevel.STRICT_SERIALIZABLE) {
                for (int a = 0; a < committed.length; a++) {
                    for (int b = 0; b < committed.length; b++) {
                        if (endsBeforeStart(committed[a], committed[b])) {
                            before.get(b).add(a);
                        }
                    }
                }
            }
            return toArrays(before);
        }

        private static boolean endsBeforeStart(Transaction a, Transaction b) {
            return a.endTime() != Transaction.NO_TIME && b.startTime() != Transaction.NO_TIME
                    && a.endTime() < b.startTime();
        }

        /** Session predecessors, and with {@code conflicts} writers of a common key (first committer wins). */
        private int[][] snapshotMembers(Map<Integer, Integer> numberOf, boolean conflicts) {
            List<List<Integer>> members = new ArrayList<>();
            for (int b = 0; b < committed.length; b++) {
                List<Integer> of = new ArrayList<>();
                for (int a : predecessors[b]) {
                    of.add(a);
                }
                Set<Integer> written = writtenKeys(committed[b]);
                for (int a = 0; a < committed.length && conflicts; a++) {
                    if (a != b && writtenKeys(committed[a]).stream().anyMatch(written::contains)) {
                        of.add(a);
                    }
                }
                members.add(of);
            }
            return toArrays(members);
        }

        private static Set<Integer> writtenKeys(Transaction t) {
            Set<Integer> keys = new HashSet<>();
            for (int i = 0; i < t.size(); i++) {
                if (t.kind(i) == OpKind.WRITE) {
                    keys.add(t.key(i));
                }
            }
            return keys;
        }

        private static int[][] toArrays(List<List<Integer>> lists) {
            return lists.stream().map(l -> l.stream().mapToInt(Integer::intValue).toArray()).toArray(int[][]::new);
        }

        /** The numbers of the given ids; an id that is no committed transaction, or repeated, spoils the permutation. */
        private int[] numbers(History history, List<String> ids, Map<Integer, Integer> numberOf) {
            int[] numbers = new int[ids.size()];
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < ids.size(); i++) {
                Integer number = history.transaction(ids.get(i)).map(t -> numberOf.get(t.index())).orElse(null);
                if (number == null || !seen.add(ids.get(i))) {
                    permutation = false;
                    return new int[0];
                }
                numbers[i] = number;
            }
            if (ids.size() != committed.length) {
                permutation = false;
            }
            return numbers;
        }

        boolean isPermutationOfCommitted() {
            return permutation;
        }

        List<String> committedIds() {
            return Arrays.stream(committed).map(Transaction::id).toList();
        }

        /** The order found by a successful {@link #run()}, as transaction ids. */
        List<String> order() {
            return Arrays.stream(order).mapToObj(i -> committed[i].id()).toList();
        }

        boolean run() {
            InitialValueKnowledge[] knowledge = new InitialValueKnowledge[states[0].length];
            Arrays.fill(knowledge, InitialValueKnowledge.NOTHING);
            return place(0, knowledge);
        }

        /** Tries every transaction that may come at {@code position}, with every snapshot it may read. */
        private boolean place(int position, InitialValueKnowledge[] knowledge) {
            if (position == committed.length) {
                return true;
            }
            for (int t = 0; t < committed.length; t++) {
                if (!mayComeAt(t, position)) {
                    continue;
                }
                positionOf[t] = position;
                order[position] = t;
                states[position + 1] = TransactionReplay.install(states[position], committed[t]);
                // A snapshot affects only t's own reads, hence only the knowledge they leave behind:
                // two snapshots leaving equal knowledge lead to the same answer below.
                Set<List<InitialValueKnowledge>> outcomes = new HashSet<>();
                for (int snapshot = position; snapshot >= lowestSnapshot(t); snapshot--) {
                    if (forcedSnapshots != null && forcedSnapshots[position] != snapshot) {
                        continue;
                    }
                    InitialValueKnowledge[] tried = knowledge.clone();
                    if (replay.explains(committed[t], states[snapshot], tried)
                            && outcomes.add(Arrays.asList(tried)) && place(position + 1, tried)) {
                        return true;
                    }
                }
                positionOf[t] = -1;
            }
            return false;
        }

        private boolean mayComeAt(int t, int position) {
            if (positionOf[t] >= 0 || (forcedOrder != null && forcedOrder[position] != t)) {
                return false;
            }
            for (int before : predecessors[t]) {
                if (positionOf[before] < 0) {
                    return false;
                }
            }
            return true;
        }

        /**
         * The shortest snapshot {@code t} (placed last) may read: serial levels read everything
         * before them; under snapshot isolation and prefix consistency the snapshot must reach past
         * every placed transaction that {@link #inSnapshotIfEarlier} names.
         */
        private int lowestSnapshot(int t) {
            if (inSnapshotIfEarlier == null) {
                return positionOf[t];
            }
            int lowest = 0;
            for (int member : inSnapshotIfEarlier[t]) {
                if (positionOf[member] >= 0 && positionOf[member] < positionOf[t]) {
                    lowest = Math.max(lowest, positionOf[member] + 1);
                }
            }
            return lowest;
        }
    }
}
