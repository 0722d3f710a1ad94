package dev.isocheck.internal.rounds;

import dev.isocheck.history.History;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.Session;
import dev.isocheck.history.Transaction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Which transactions of a round to fold away: the largest set {@code D} of committed transactions
 * that ended before the watermark such that, for every transaction {@code k} a round keeps,
 * <ul>
 *   <li>each {@code d} in {@code D} is known to precede {@code k}, or the two touch no common key
 *       and neither real time nor session order puts {@code k} first (then any valid order can be
 *       rearranged, swapping such neighbours, to put all of {@code D} first with every key's
 *       versions and every read unchanged), and</li>
 *   <li>each key written in {@code D} has one writer in {@code D} that every other writer of it in
 *       {@code D} is known to precede: the version the folded prefix leaves is the same in every
 *       valid order.</li>
 * </ul>
 * Later transactions start after the watermark, so real time puts all of {@code D} before them.
 * Aborted transactions that ended before the watermark fold too: no order places them. The proof:
 * {@code docs/semantics.md}, "Checking in rounds".
 */
final class Fold {

    /** The transactions folded away (indexes of the round's history). */
    final boolean[] folded;
    /**
     * For each key (id) written in the folded committed transactions, its last writer there; or,
     * for a key whose last writer no known order decided in a fold that was let fold such keys,
     * the writers that may have been last.
     */
    final Map<Integer, List<Integer>> lastWriters;
    /** Whether some key's last writer was left undecided (a fold that was let do so). */
    final boolean undecided;

    private Fold(boolean[] folded, Map<Integer, List<Integer>> lastWriters, boolean undecided) {
        this.folded = folded;
        this.lastWriters = lastWriters;
        this.undecided = undecided;
    }

    /**
     * The fold of {@code history}, whose first {@code stubs} transactions are stubs (kept, before
     * everything), at watermark {@code watermark}. A key whose last writer no known order decides
     * keeps its writers, unless {@code foldUndecided} accepts them: then each may have been last (a
     * weaker check, which the caller reports).
     */
    static Fold of(History history, int stubs, KnownOrder order, long watermark, Predicate<List<Integer>> foldUndecided) {
        int n = history.size();
        boolean[] inD = new boolean[n];
        boolean[] folded = new boolean[n];
        int[][] keys = new int[n][];
        for (Transaction t : history.transactions()) {
            int i = t.index();
            keys[i] = keysOf(t);
            if (i >= stubs && t.endTime() < watermark) {
                if (t.isCommitted()) {
                    inD[i] = true;
                } else {
                    folded[i] = true;
                }
            }
        }
        Map<Integer, List<Integer>> last = new HashMap<>();
        boolean changed = true;
        while (changed) {
            changed = keepAfterKeptOfSession(history, stubs, inD);
            changed |= keepUnordered(history, stubs, inD, keys, order);
            last.clear();
            changed |= keepUndecidedVersions(history, stubs, inD, order, last, foldUndecided);
        }
        boolean undecided = false;
        for (int i = stubs; i < n; i++) {
            folded[i] |= inD[i];
        }
        for (List<Integer> writers : last.values()) {
            undecided |= writers.size() > 1;
        }
        return new Fold(folded, last, undecided);
    }

    /** A session's transactions after one kept are kept: session order puts it first. */
    private static boolean keepAfterKeptOfSession(History history, int stubs, boolean[] inD) {
        boolean changed = false;
        for (Session session : history.sessions()) {
            boolean keptBefore = false;
            for (int m : session.transactions()) {
                if (m < stubs || !history.transaction(m).isCommitted()) {
                    continue;
                }
                if (inD[m] && keptBefore) {
                    inD[m] = false;
                    changed = true;
                }
                keptBefore |= !inD[m];
            }
        }
        return changed;
    }

    /**
     * Keeps each folding candidate that a kept transaction overlapping it in time may precede in
     * some valid order while sharing a key with it: no rearrangement puts the candidate first.
     */
    private static boolean keepUnordered(History history, int stubs, boolean[] inD, int[][] keys, KnownOrder order) {
        List<Integer> kept = new ArrayList<>();
        for (int i = stubs; i < history.size(); i++) {
            if (!inD[i] && history.transaction(i).isCommitted()) {
                kept.add(i);
            }
        }
        kept.sort((a, b) -> Long.compare(history.transaction(a).startTime(), history.transaction(b).startTime()));
        List<Integer> moved = new ArrayList<>();
        for (int d = stubs; d < history.size(); d++) {
            if (!inD[d]) {
                continue;
            }
            Transaction td = history.transaction(d);
            for (int k : kept) {
                Transaction tk = history.transaction(k);
                if (tk.startTime() > td.endTime()) {
                    break; // real time: d precedes this one and every later-starting one
                }
                boolean fine;
                if (order.realTimeBefore(k, d)) {
                    fine = false;
                } else if (disjoint(keys[d], keys[k])) {
                    fine = true;
                } else {
                    fine = order.before(d, k);
                }
                if (!fine) {
                    moved.add(d);
                    break;
                }
            }
        }
        for (int d : moved) {
            inD[d] = false;
        }
        return !moved.isEmpty();
    }

    /**
     * For each key written by folding candidates, finds the writer every other one is known to
     * precede; where none is, keeps the writers that real time leaves last (the key's version after
     * the prefix would depend on the order).
     */
    private static boolean keepUndecidedVersions(History history, int stubs, boolean[] inD, KnownOrder order,
            Map<Integer, List<Integer>> last, Predicate<List<Integer>> foldUndecided) {
        Map<Integer, List<Integer>> writers = new HashMap<>();
        for (int i = stubs; i < history.size(); i++) {
            if (!inD[i]) {
                continue;
            }
            Transaction t = history.transaction(i);
            for (int op = 0; op < t.size(); op++) {
                if (t.isFinalWrite(op)) {
                    writers.computeIfAbsent(t.key(op), k -> new ArrayList<>(2)).add(i);
                }
            }
        }
        boolean changed = false;
        for (Map.Entry<Integer, List<Integer>> e : writers.entrySet()) {
            List<Integer> ws = e.getValue();
            int latest = ws.get(0);
            for (int w : ws) {
                if (history.transaction(w).startTime() > history.transaction(latest).startTime()) {
                    latest = w;
                }
            }
            long latestStart = history.transaction(latest).startTime();
            // The writers real time does not put before the latest-starting one.
            List<Integer> lastOnes = new ArrayList<>();
            for (int w : ws) {
                if (w == latest || history.transaction(w).endTime() >= latestStart) {
                    lastOnes.add(w);
                }
            }
            int decided = lastOnes.size() == 1 ? latest : -1;
            for (int i = 0; i < lastOnes.size() && decided < 0; i++) {
                int m = lastOnes.get(i);
                boolean all = true;
                for (int other : lastOnes) {
                    if (other != m && !order.before(other, m)) {
                        all = false;
                        break;
                    }
                }
                if (all) {
                    decided = m;
                }
            }
            if (decided >= 0) {
                last.put(e.getKey(), List.of(decided));
            } else if (foldUndecided.test(lastOnes)) {
                last.put(e.getKey(), lastOnes);
            } else {
                for (int w : lastOnes) {
                    inD[w] = false;
                }
                changed = true;
            }
        }
        return changed;
    }

    private static int[] keysOf(Transaction t) {
        int[] keys = new int[t.size()];
        int n = 0;
        for (int op = 0; op < t.size(); op++) {
            if (t.kind(op) != OpKind.PREDICATE) {
                keys[n++] = t.key(op);
            }
        }
        keys = Arrays.copyOf(keys, n);
        Arrays.sort(keys);
        return keys;
    }

    private static boolean disjoint(int[] a, int[] b) {
        int i = 0;
        int j = 0;
        while (i < a.length && j < b.length) {
            if (a[i] == b[j]) {
                return false;
            }
            if (a[i] < b[j]) {
                i++;
            } else {
                j++;
            }
        }
        return true;
    }
}
