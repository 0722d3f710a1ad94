package dev.isocheck.internal.explain;

import dev.isocheck.Verdict;
import dev.isocheck.internal.engine.Checker;
import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.graph.ReadExplanations;
import dev.isocheck.internal.graph.ReadPins;
import dev.isocheck.history.History;
import dev.isocheck.history.KeyIndex;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.Transaction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Shrinks a violated history to a minimal set of committed transactions whose history alone still
 * violates the level: removing any one of them would let the rest pass. The checker decides each
 * restriction; Junker's QuickXplain finds the set with {@code O(k log(n/k))} checks for a core of
 * {@code k} of {@code n} transactions, preferring transactions early in the order it is given.
 *
 * <p><b>The restriction, and why it is sound.</b> The history of a set {@code S} keeps the
 * transactions of {@code S} with their writes, and only the observations every possible source of
 * which is in {@code S} or the initial state: an item read is dropped (with the transaction's
 * later reads of the key before its own first write of it, which repeat it) when some committed
 * transaction outside {@code S} wrote a value it may have seen; a predicate read is dropped when
 * one of its rows is: a row it returned, as an item read, or a key it left out, when a
 * transaction outside {@code S} installed a version of it the predicate does not certainly select
 * (the versions it may have seen there, {@link dev.isocheck.internal.graph.UnreturnedRows}); one
 * whose {@code where} is not supported, when a transaction outside {@code S} wrote any row of its
 * table ({@link #restrict}). Every valid order of the whole
 * history, restricted to {@code S}, is then a valid order of the restriction: each kept read's
 * writer is in {@code S} (or it read the initial state), and no transaction of {@code S} comes
 * between them in one order and not in the other. So a restriction that the checker finds violated
 * proves the whole history violated, and the explanation of the core is an explanation of the
 * history (each of its cycles exists in every explanation of the whole: {@link ExplanationSpace}).
 *
 * <p>The core is minimal (no transaction can be left out), not minimum: another, smaller core may
 * exist. Checks answered {@code Unknown} count as "not violated", so the core only grows from them.
 */
final class ViolatingCore {

    private final History history;
    private final IsolationLevel level;
    private final Checker checker;
    private final long deadline;
    private final PinnableReads reads;
    private final Map<String, int[]> tables = new HashMap<>();
    private final int limit;
    /** Observations assumed to have seen a source (a case of {@link SourceCases}); see {@link #restriction}. */
    private final Map<Integer, Integer> pins;
    /** The transactions QuickXplain has settled so far: all of them are in the core. */
    private final List<Integer> coreSoFar = new ArrayList<>();
    private int checks;

    private ViolatingCore(History history, IsolationLevel level, Checker checker, int limit, long deadline,
            Map<Integer, Integer> pins) {
        this.history = history;
        this.pins = pins;
        this.level = level;
        this.checker = checker;
        this.limit = limit;
        this.deadline = deadline;
        this.reads = PinnableReads.of(history);
    }

    /**
     * A minimal violating set of the committed transactions, searched among the ones nearest to
     * {@code start} first (those sharing a key with them, then those sharing a key with those, …).
     *
     * @param start         indexes of transactions the verdict named, where the search begins
     * @param limit         the search stops once the core is known to have more transactions
     * @param deadlineNanos a {@link System#nanoTime()} after which the search gives up
     * @return the core; empty if the search gave up, or if not even the whole history's committed
     *     transactions are found violated
     */
    static Optional<Result> find(History history, IsolationLevel level, Checker checker, int[] start, int limit,
            long deadlineNanos) {
        return find(history, level, checker, start, limit, deadlineNanos, Map.of());
    }

    /**
     * A minimal set of committed transactions that violates the level in every explanation where
     * each pinned read saw its pinned source: one case of a case analysis over reads' sources
     * ({@link SourceCases}). As {@link #find(History, IsolationLevel, Checker, int[], int, long)},
     * but a pinned read is kept in a restriction whenever its pinned source is in it (or is the
     * initial state), whoever else wrote its value: in the case's explanations its writer is in
     * the set, which is all the soundness argument asks of a kept read. The checker is asked
     * under the pins the restriction keeps ({@link Checker#check(History, IsolationLevel,
     * dev.isocheck.internal.limit.Limits, ReadPins)}: solving under the case's assumptions), so
     * that a kept read whose other writers are in the set too is still taken to have seen its
     * pinned one.
     *
     * @param pins per read of {@link PinnableReads}, the source the case assumes: a transaction
     *             index or {@link ExplanationSpace#INITIAL}
     */
    static Optional<Result> find(History history, IsolationLevel level, Checker checker, int[] start, int limit,
            long deadlineNanos, Map<Integer, Integer> pins) {
        return new ViolatingCore(history, level, checker, limit, deadlineNanos, pins).search(start);
    }

    /**
     * As {@link #find(History, IsolationLevel, Checker, int[], int, long, Map)}, but among
     * {@code within} only: empty unless the restriction to all of them is violated under the pins.
     * For a case whose core is expected near one already found: a check of a few dozen
     * transactions, and QuickXplain among them, instead of a search of the whole history.
     */
    static Optional<Result> findWithin(History history, IsolationLevel level, Checker checker, int[] within, int limit,
            long deadlineNanos, Map<Integer, Integer> pins) {
        return new ViolatingCore(history, level, checker, limit, deadlineNanos, pins).searchWithin(within);
    }

    /**
     * A core, or part of one, and what it cost.
     *
     * @param transactions the core's transaction indexes, in file order; when {@code complete} is
     *                     false, the first {@code limit + 1} found of a larger core
     * @param complete     whether {@code transactions} is the whole core
     * @param checks       how many restrictions the checker decided
     */
    record Result(int[] transactions, boolean complete, int checks) {
    }

    /** The ids of these transactions (indexes), in the order given. */
    static List<String> ids(History history, int[] transactions) {
        List<String> ids = new ArrayList<>(transactions.length);
        for (int t : transactions) {
            ids.add(history.transaction(t).id());
        }
        return ids;
    }

    /** The earlier of two {@link System#nanoTime()} deadlines. */
    static long earlier(long a, long b) {
        return a - b < 0 ? a : b;
    }

    private Optional<Result> searchWithin(int[] within) {
        return shrunk(() -> {
            List<Integer> candidates = new ArrayList<>();
            Arrays.stream(within).filter(t -> history.transaction(t).isCommitted()).distinct().sorted()
                    .forEach(candidates::add);
            return violated(candidates) ? candidates : null;
        });
    }

    private Optional<Result> search(int[] start) {
        return shrunk(() -> {
            // The smallest neighbourhood of the start that is violated bounds the search, so that
            // the checks of a large history are mostly of small restrictions.
            List<Integer> candidates = new ArrayList<>();
            for (int[] ring : rings(start)) {
                for (int t : ring) {
                    candidates.add(t);
                }
                if (violated(candidates)) {
                    return candidates;
                }
            }
            return null;
        });
    }

    /**
     * The core within the violated set {@code violatedSet} finds ({@code null}: none is
     * violated), shrunk by QuickXplain; empty when out of time, incomplete when too large.
     */
    private Optional<Result> shrunk(java.util.function.Supplier<List<Integer>> violatedSet) {
        try {
            List<Integer> candidates = violatedSet.get();
            if (candidates == null) {
                return Optional.empty();
            }
            List<Integer> core = quickXplain(new ArrayList<>(), false, candidates);
            return Optional.of(new Result(core.stream().mapToInt(Integer::intValue).sorted().toArray(), true, checks));
        } catch (OutOfTime e) {
            return Optional.empty();
        } catch (TooLarge e) {
            return Optional.of(new Result(e.found.stream().mapToInt(Integer::intValue).sorted().toArray(), false, checks));
        }
    }

    /**
     * The committed transactions by distance from {@code start}: {@code start} first, then each ring
     * of transactions sharing a key with the previous ones; the last ring holds every committed
     * transaction no key connects.
     */
    private List<int[]> rings(int[] start) {
        BitSet seen = new BitSet(history.size());
        List<int[]> rings = new ArrayList<>();
        int[] ring = Arrays.stream(start).filter(t -> history.transaction(t).isCommitted()).distinct().sorted().toArray();
        for (int t : ring) {
            seen.set(t);
        }
        BitSet keysSeen = new BitSet(history.keys().size());
        while (ring.length > 0) {
            rings.add(ring);
            BitSet next = new BitSet(history.size());
            for (int t : ring) {
                Transaction tx = history.transaction(t);
                for (int op = 0; op < tx.size(); op++) {
                    for (int key : keysOf(tx, op)) {
                        if (!keysSeen.get(key)) {
                            keysSeen.set(key);
                            addAccessors(key, seen, next);
                        }
                    }
                }
            }
            ring = next.stream().toArray();
            seen.or(next);
        }
        int[] rest = history.transactions().stream().filter(t -> t.isCommitted() && !seen.get(t.index()))
                .mapToInt(Transaction::index).toArray();
        if (rest.length > 0) {
            rings.add(rest);
        }
        return rings;
    }

    private int[] keysOf(Transaction tx, int op) {
        if (tx.kind(op) != OpKind.PREDICATE) {
            return new int[] {tx.key(op)};
        }
        return tableKeys(history, tx.predicate(op).table(), tables);
    }

    /** The keys of a table, found once per table (each lookup scans every key). */
    private static int[] tableKeys(History history, String table, Map<String, int[]> cache) {
        return cache.computeIfAbsent(table, history.keys()::keysOfTable);
    }

    private void addAccessors(int key, BitSet seen, BitSet into) {
        KeyIndex index = history.index();
        for (int i = 0; i < index.writeCount(key); i++) {
            addCommitted(KeyIndex.transactionOf(index.write(key, i)), seen, into);
        }
        for (int i = 0; i < index.readCount(key); i++) {
            addCommitted(KeyIndex.transactionOf(index.read(key, i)), seen, into);
        }
    }

    private void addCommitted(int t, BitSet seen, BitSet into) {
        if (!seen.get(t) && history.transaction(t).isCommitted()) {
            into.set(t);
        }
    }

    /**
     * Junker's QuickXplain: a minimal subset of {@code candidates} that, with {@code background},
     * is violated, given that {@code background} plus all of {@code candidates} is; {@code added}
     * says whether the caller just added to the background (else it is known not violated alone).
     */
    private List<Integer> quickXplain(List<Integer> background, boolean added, List<Integer> candidates) {
        if (added && violated(background)) {
            return List.of();
        }
        if (candidates.size() == 1) {
            // Every single transaction QuickXplain returns ends up in the core (results are only
            // ever united), so the count so far bounds the core from below.
            coreSoFar.add(candidates.get(0));
            if (coreSoFar.size() > limit) {
                throw new TooLarge(coreSoFar);
            }
            return candidates;
        }
        int half = candidates.size() / 2;
        List<Integer> first = candidates.subList(0, half);
        List<Integer> second = candidates.subList(half, candidates.size());
        List<Integer> withFirst = new ArrayList<>(background);
        withFirst.addAll(first);
        List<Integer> fromSecond = quickXplain(withFirst, true, second);
        List<Integer> withSecond = new ArrayList<>(background);
        withSecond.addAll(fromSecond);
        List<Integer> fromFirst = quickXplain(withSecond, !fromSecond.isEmpty(), first);
        List<Integer> both = new ArrayList<>(fromFirst);
        both.addAll(fromSecond);
        return both;
    }

    private boolean violated(List<Integer> transactions) {
        if (System.nanoTime() > deadline) {
            throw new OutOfTime();
        }
        checks++;
        int[] kept = transactions.stream().mapToInt(Integer::intValue).toArray();
        // A check of a large restriction can take a good part of a second: it gets the time the
        // search has left, not the whole check's, so that a search given a second (the cases of
        // SourceCases) ends then, not after a check that started just before.
        Restriction restriction = restrict(reads, kept, tables, pins);
        Verdict verdict = checker.check(restriction.history(), level, checker.limits().until(deadline), restriction.pins());
        if (verdict instanceof Verdict.Unknown && System.nanoTime() - deadline >= 0) {
            throw new OutOfTime();
        }
        return verdict.isViolated();
    }

    /**
     * Whether the restriction of {@code history} to {@code kept} under {@code pins} is found
     * violated before {@code deadlineNanos} ("unknown" counts as not violated), the engine solving
     * under the pins it keeps: then no explanation of the whole history in which every pinned read
     * saw its source is valid.
     */
    static boolean violated(IsolationLevel level, Checker checker, PinnableReads reads, int[] kept,
            Map<Integer, Integer> pins, Map<String, int[]> tables, long deadlineNanos) {
        Restriction r = restrict(reads, kept, tables, pins);
        return checker.check(r.history(), level, checker.limits().until(deadlineNanos), r.pins()).isViolated();
    }

    /** The restriction of {@code history} to {@code kept}, as the class comment defines it. */
    static History restriction(History history, ReadExplanations explanations, int[] kept, Map<String, int[]> tables) {
        return restrict(PinnableReads.of(explanations), kept, tables, Map.of()).history();
    }

    /**
     * A restricted history, and the pins it keeps in its own numbering.
     *
     * @param history the restriction
     * @param pins    per pinned read it keeps (by its transaction, operation and key there), the
     *                pinned source there
     */
    record Restriction(History history, ReadPins pins) {
    }

    /**
     * The restriction of a history to {@code kept} under {@code pins} (per read of
     * {@link PinnableReads}, an assumed source: a transaction index or {@link ExplanationSpace#INITIAL}).
     *
     * <p>An item read is kept when every committed writer of its value is in the set, or it is
     * pinned to the initial state or to a writer in the set (with the transaction's later reads of
     * the key before its own first write of it, which repeat it). A predicate read is kept when each
     * of its rows is: a row it returned as an item read; a key it left out when every committed
     * writer of a version it may have seen there (one its predicate does not certainly select) is in
     * the set, or the key is pinned to the initial state or to such a writer in the set. A predicate
     * read whose {@code where} is not supported is kept only when no committed transaction outside the
     * set wrote a row of its table. Sound: in every explanation of the whole history where each pin
     * holds, each kept read's source is in the set or the initial state, so the explanation restricted
     * to the set is one of the restriction (the class comment's argument); the pins kept hold in
     * it too, so a restriction violated under them leaves none of those explanations valid.
     */
    static Restriction restrict(PinnableReads reads, int[] kept, Map<String, int[]> tables, Map<Integer, Integer> pins) {
        History history = reads.history();
        ReadExplanations explanations = reads.explanations();
        boolean[] in = new boolean[history.size()];
        for (int t : kept) {
            in[t] = true;
        }
        // Per kept transaction, the keys whose external read has a source outside the set, and the
        // predicate reads (by operation) some row of which does.
        BitSet[] dropKeys = new BitSet[history.size()];
        BitSet[] dropPredicates = new BitSet[history.size()];
        for (int t : kept) {
            for (int obs = explanations.firstOf(t); obs < explanations.endOf(t); obs++) {
                if (outside(reads, obs, in, pins)) {
                    if (explanations.row(obs) == -1) {
                        dropKeys[t] = set(dropKeys[t], explanations.key(obs));
                    } else {
                        dropPredicates[t] = set(dropPredicates[t], explanations.operation(obs));
                    }
                }
            }
            for (int id = reads.firstUnreturnedOf(t); id < reads.endUnreturnedOf(t); id++) {
                if (outside(reads, id, in, pins)) {
                    dropPredicates[t] = set(dropPredicates[t], reads.operation(id));
                }
            }
        }
        BitSet writtenOutside = new BitSet(history.keys().size());
        for (Transaction t : history.transactions()) {
            if (t.isCommitted() && !in[t.index()]) {
                for (int op = 0; op < t.size(); op++) {
                    if (t.kind(op) == OpKind.WRITE) {
                        writtenOutside.set(t.key(op));
                    }
                }
            }
        }
        History.OperationFilter filter = (t, op) -> switch (t.kind(op)) {
            case WRITE -> true;
            case READ -> dropKeys[t.index()] == null || !dropKeys[t.index()].get(t.key(op)) || writtenBefore(t, op);
            case PREDICATE -> reads.modelsUnreturned(t, op)
                    ? dropPredicates[t.index()] == null || !dropPredicates[t.index()].get(op)
                    : Arrays.stream(tableKeys(history, t.predicate(op).table(), tables)).noneMatch(writtenOutside::get);
        };
        History restricted = history.restrictedTo(kept, filter);
        if (pins.isEmpty()) {
            return new Restriction(restricted, ReadPins.none());
        }
        // The restriction keeps transactions in file order (a transaction's index there is its
        // rank) and each one's operations in order (an operation's index is its rank among those kept).
        int[] rank = new int[history.size()];
        int count = 0;
        for (int t = 0; t < rank.length; t++) {
            rank[t] = in[t] ? count++ : -1;
        }
        ReadPins.Builder out = ReadPins.builder();
        for (Map.Entry<Integer, Integer> pin : pins.entrySet()) {
            int id = pin.getKey();
            int source = pin.getValue();
            int reader = reads.transaction(id);
            Transaction t = history.transaction(reader);
            int op = reads.operation(id);
            if (!in[reader] || !pinnedWithin(pins, id, in) || !filter.keeps(t, op)) {
                continue;
            }
            int at = 0;
            for (int i = 0; i < op; i++) {
                at += filter.keeps(t, i) ? 1 : 0;
            }
            out.pin(rank[reader], at, reads.key(id), source == ExplanationSpace.INITIAL ? ReadPins.INITIAL : rank[source]);
        }
        return new Restriction(restricted, out.build());
    }

    private static BitSet set(BitSet bits, int bit) {
        BitSet out = bits == null ? new BitSet() : bits;
        out.set(bit);
        return out;
    }

    /** Whether read {@code id} may have had a source outside the set, and is not pinned to one in it. */
    private static boolean outside(PinnableReads reads, int id, boolean[] in, Map<Integer, Integer> pins) {
        if (pinnedWithin(pins, id, in)) {
            return false;
        }
        for (int source : reads.sources(id)) {
            if (source != ExplanationSpace.INITIAL && !in[source]) {
                return true;
            }
        }
        return false;
    }

    private static boolean pinnedWithin(Map<Integer, Integer> pins, int id, boolean[] in) {
        Integer source = pins.get(id);
        return source != null && (source == ExplanationSpace.INITIAL || in[source]);
    }

    /** Whether the transaction wrote the key of read {@code op} before it: the read saw its own write. */
    private static boolean writtenBefore(Transaction t, int op) {
        for (int i = 0; i < op; i++) {
            if (t.kind(i) == OpKind.WRITE && t.key(i) == t.key(op)) {
                return true;
            }
        }
        return false;
    }

    /** Thrown to unwind the search once the core is known to be larger than the limit. */
    private static final class TooLarge extends RuntimeException {
        final List<Integer> found;

        TooLarge(List<Integer> found) {
            super(null, null, false, false);
            this.found = List.copyOf(found);
        }
    }

    /** Thrown to unwind the search at its deadline. */
    private static final class OutOfTime extends RuntimeException {
        OutOfTime() {
            super(null, null, false, false);
        }
    }
}
