package dev.isocheck.internal.explain;

import dev.isocheck.Verdict;
import dev.isocheck.internal.engine.Checker;
import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.graph.ReadExplanations;
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
 * a transaction outside {@code S} wrote any row of its table. Every valid order of the whole
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
    private final ReadExplanations explanations;
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
        this.explanations = ReadExplanations.of(history);
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
     * each pinned observation saw its pinned source: one case of a case analysis over reads'
     * sources ({@link SourceCases}). As {@link #find(History, IsolationLevel, Checker, int[], int, long)},
     * but a pinned read is kept in a restriction whenever its pinned source is in it (or is the
     * initial state), whoever else wrote its value: in the case's explanations its writer is in
     * the set, which is all the soundness argument asks of a kept read.
     *
     * @param pins per observation of {@link ReadExplanations}, the source the case assumes: a
     *             transaction index or {@link ExplanationSpace#INITIAL}
     */
    static Optional<Result> find(History history, IsolationLevel level, Checker checker, int[] start, int limit,
            long deadlineNanos, Map<Integer, Integer> pins) {
        return new ViolatingCore(history, level, checker, limit, deadlineNanos, pins).search(start);
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

    private Optional<Result> search(int[] start) {
        try {
            List<int[]> rings = rings(start);
            // The smallest neighbourhood of the start that is violated bounds the search, so that
            // the checks of a large history are mostly of small restrictions.
            List<Integer> candidates = new ArrayList<>();
            boolean violated = false;
            for (int[] ring : rings) {
                for (int t : ring) {
                    candidates.add(t);
                }
                if (violated(candidates)) {
                    violated = true;
                    break;
                }
            }
            if (!violated) {
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
        Verdict verdict = checker.check(restriction(history, explanations, kept, tables, pins), level,
                checker.limits().until(deadline));
        if (verdict instanceof Verdict.Unknown && System.nanoTime() - deadline >= 0) {
            throw new OutOfTime();
        }
        return verdict.isViolated();
    }

    /** The restriction of {@code history} to {@code kept}, as the class comment defines it. */
    static History restriction(History history, ReadExplanations explanations, int[] kept, Map<String, int[]> tables) {
        return restriction(history, explanations, kept, tables, Map.of());
    }

    /**
     * The restriction of {@code history} to {@code kept}, keeping besides each pinned read whose
     * pinned source is kept or is the initial state ({@link #find(History, IsolationLevel, Checker,
     * int[], int, long, Map)}).
     */
    static History restriction(History history, ReadExplanations explanations, int[] kept, Map<String, int[]> tables,
            Map<Integer, Integer> pins) {
        boolean[] in = new boolean[history.size()];
        for (int t : kept) {
            in[t] = true;
        }
        // Per kept transaction, the keys whose external read has a source outside the set.
        BitSet[] dropKeys = new BitSet[history.size()];
        for (int t : kept) {
            for (int obs = explanations.firstOf(t); obs < explanations.endOf(t); obs++) {
                if (explanations.row(obs) == -1 && hasOutsideSource(explanations, obs, in) && !pinnedWithin(pins, obs, in)) {
                    if (dropKeys[t] == null) {
                        dropKeys[t] = new BitSet();
                    }
                    dropKeys[t].set(explanations.key(obs));
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
        return history.restrictedTo(kept, (t, op) -> switch (t.kind(op)) {
            case WRITE -> true;
            case READ -> dropKeys[t.index()] == null || !dropKeys[t.index()].get(t.key(op)) || writtenBefore(t, op);
            case PREDICATE -> Arrays.stream(tableKeys(history, t.predicate(op).table(), tables)).noneMatch(writtenOutside::get);
        });
    }

    private static boolean pinnedWithin(Map<Integer, Integer> pins, int obs, boolean[] in) {
        Integer source = pins.get(obs);
        return source != null && (source == ExplanationSpace.INITIAL || in[source]);
    }

    private static boolean hasOutsideSource(ReadExplanations explanations, int obs, boolean[] in) {
        for (int i = 0; i < explanations.writerCount(obs); i++) {
            if (!in[explanations.writer(obs, i)]) {
                return true;
            }
        }
        return false;
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
