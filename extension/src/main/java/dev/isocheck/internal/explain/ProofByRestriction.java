package dev.isocheck.internal.explain;

import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.history.History;
import dev.isocheck.history.Transaction;
import dev.isocheck.internal.engine.Checker;
import dev.isocheck.internal.graph.ReadExplanations;
import dev.isocheck.internal.solve.SatChecker;
import java.util.HashMap;
import java.util.Optional;
import java.util.TreeSet;

/**
 * A violation at serializability or snapshot isolation proved on a restriction of the history,
 * where the check of the whole gave up.
 *
 * <p>Input: a history, the level, the checker, and the transactions of a cycle found with real-time
 * order (strict serializability). Output: the restriction's violation, which is one of the whole
 * history, or nothing.
 *
 * <p>Why: on hot rows rewritten with repeated values, real time orders nearly every write and the
 * check with it is quick, while without it the writers of a hot key have hundreds of millions of
 * orders to weigh and the check gives up ({@link SatChecker#REAL_TIME_VIOLATED} in its reason). A
 * cycle with real-time edges is not one of serializability; but the transactions on it, with the
 * writers their reads may have seen (where those are few), are a small history. Its
 * {@link ViolatingCore restriction} keeps each of them with its writes and only the reads all of
 * whose possible writers it keeps, so every valid order of the whole, restricted, is one of the
 * restriction: the restriction found violated at the level asked proves the whole violated. Found
 * satisfied, it proves nothing, and the Unknown stands.
 */
final class ProofByRestriction {

    /** A read with more possible writers than this is dropped from the restriction rather than followed. */
    static final int MAX_WRITERS_FOLLOWED = 8;
    /** Rounds of adding the possible writers of the reads of the transactions added. */
    static final int ROUNDS = 3;
    /** The restriction is left unchecked past this many transactions. */
    static final int MAX_TRANSACTIONS = 400;

    private ProofByRestriction() {
    }

    /**
     * Whether {@code unknown} is the answer of a check that real time found violated, at a level
     * this proof can serve.
     */
    static boolean applies(Verdict.Unknown unknown) {
        return (unknown.level() == IsolationLevel.SERIALIZABLE || unknown.level() == IsolationLevel.SNAPSHOT_ISOLATION)
                && unknown.reason().contains(SatChecker.REAL_TIME_VIOLATED);
    }

    /**
     * The violation at {@code level} of the restriction of {@code history} to {@code cycle}'s
     * transactions and the few writers their reads may have seen, as {@code checker} finds it; or
     * empty.
     *
     * @param cycle the ids of transactions on a cycle of the history with real-time order
     */
    static Optional<Verdict.Violated> prove(History history, IsolationLevel level, Checker checker,
            java.util.Collection<String> cycle) {
        return prove(history, level, checker, cycle, ROUNDS, MAX_WRITERS_FOLLOWED);
    }

    /**
     * As {@link #prove(History, IsolationLevel, Checker, java.util.Collection)}, adding writers for
     * {@code rounds} rounds, of reads with at most {@code followed} possible writers (tests: small
     * sets, whose restrictions drop reads).
     */
    static Optional<Verdict.Violated> prove(History history, IsolationLevel level, Checker checker,
            java.util.Collection<String> cycle, int rounds, int followed) {
        ReadExplanations explanations = ReadExplanations.of(history);
        TreeSet<Integer> kept = new TreeSet<>();
        for (String id : cycle) {
            history.transaction(id).filter(Transaction::isCommitted).ifPresent(t -> kept.add(t.index()));
        }
        if (kept.isEmpty()) {
            return Optional.empty();
        }
        TreeSet<Integer> added = new TreeSet<>(kept);
        for (int round = 0; round < rounds && !added.isEmpty(); round++) {
            TreeSet<Integer> next = new TreeSet<>();
            for (int t : added) {
                for (int obs = explanations.firstOf(t); obs < explanations.endOf(t); obs++) {
                    if (explanations.writerCount(obs) > followed) {
                        continue;
                    }
                    for (int i = 0; i < explanations.writerCount(obs); i++) {
                        int writer = explanations.writer(obs, i);
                        if (!kept.contains(writer)) {
                            next.add(writer);
                        }
                    }
                }
            }
            kept.addAll(next);
            added = next;
            if (kept.size() > MAX_TRANSACTIONS) {
                return Optional.empty();
            }
        }
        int[] set = kept.stream().mapToInt(Integer::intValue).toArray();
        History restriction = ViolatingCore.restriction(history, explanations, set, new HashMap<>());
        Verdict verdict = checker.check(restriction, level);
        return verdict instanceof Verdict.Violated violated ? Optional.of(violated) : Optional.empty();
    }
}
