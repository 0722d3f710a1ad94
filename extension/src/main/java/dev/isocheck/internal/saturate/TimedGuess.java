package dev.isocheck.internal.saturate;

import dev.isocheck.history.Transaction;
import dev.isocheck.internal.limit.Limits;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A choice of writers guessed from the recorded times, then repaired one cycle at a time.
 *
 * <p>Each read with several candidates takes the writer whose commit could have come just before
 * it: of the candidates that ended after the reader started and started before it ended (they
 * may have committed while it ran, as at read committed), the one that ended first; else the
 * candidate that ended last before the reader started; else the initial state if a candidate;
 * else the file-order guess. A recorded history lists transactions by their start, so the file
 * order puts a writer that committed while its reader ran after that reader, and guessing the
 * initial state for such reads makes two reads of one unknown initial value disagree.
 *
 * <p>When the guess saturates to a cycle, one read whose choice made an edge of that cycle (a
 * write-read edge, or a commit-order edge the axiom forced from it) moves to its next candidate,
 * the read moved least often first, skipping a candidate that would make reads of an initial
 * value disagree; and so on, until the saturation is acyclic (a pass: its order is the witness),
 * no read behind the cycle can move, or the rounds (twice the ambiguous reads, and {@link #WORK}
 * units of work) run out. A read may come back to a candidate it left: what made that candidate
 * close a cycle may since have moved. Only a guess: it never concludes a violation, and every pass it finds is
 * a choice of writers whose saturated commit order is acyclic, which is what the level asks.
 */
final class TimedGuess {

    /** Units of work (as {@link SaturationChecker}'s search counts them) the rounds may take in all. */
    static final long WORK = 5_000_000L;

    private TimedGuess() {
    }

    /**
     * A commit order (transaction numbers) found by the guess and its repairs within {@code work}
     * units of work (at most {@link #WORK}), or {@code null}.
     */
    static int[] order(ReadEvents events, WeakLevel level, int[] certain, List<Integer> ambiguous, Limits limits,
            long work) {
        int[] chosen = certain.clone();
        for (int e : ambiguous) {
            chosen[e] = guess(events, e);
        }
        if (SaturationChecker.initialConflict(events, chosen) != null) {
            return null;
        }
        long perRound = events.size() + events.eventCount() + 4L * events.size();
        long rounds = Math.min(Math.max(1, Math.min(work, WORK) / Math.max(1, perRound)), 2L * ambiguous.size() + 16);
        Map<Integer, Integer> moves = new HashMap<>();
        for (long round = 0; round < rounds; round++) {
            limits.checkTime();
            Saturation saturation = new Saturation(events, level, chosen).run();
            if (saturation.order() != null) {
                return saturation.order();
            }
            if (!moveOneRead(events, chosen, saturation, moves)) {
                return null;
            }
        }
        return null;
    }

    /** Moves one read behind {@code saturation}'s cycle to its next candidate; whether one could be. */
    private static boolean moveOneRead(ReadEvents events, int[] chosen, Saturation saturation, Map<Integer, Integer> moves) {
        Saturation.Edges edges = saturation.edges();
        Set<Integer> behind = new LinkedHashSet<>();
        for (int edge : saturation.cycle()) {
            for (int e : new int[] {edges.alpha(edge), edges.beta(edge)}) {
                if (e >= 0 && events.candidates(e).length > 1) {
                    behind.add(e);
                }
            }
        }
        List<Integer> reads = new ArrayList<>(behind);
        reads.sort(Comparator.comparingInt(e -> moves.getOrDefault(e, 0)));
        for (int e : reads) {
            int[] candidates = events.candidates(e);
            int at = 0;
            while (candidates[at] != chosen[e]) {
                at++;
            }
            int before = chosen[e];
            for (int step = 1; step < candidates.length; step++) {
                chosen[e] = candidates[(at + step) % candidates.length];
                // The choice had no disagreeing reads of an initial value before the move (the first
                // guess is checked, and so is every move), and leaving the initial value cannot
                // make the reads still on it disagree: only a move onto it is checked.
                if (chosen[e] != events.initial() || SaturationChecker.initialConflict(events, chosen) == null) {
                    moves.merge(e, 1, Integer::sum);
                    return true;
                }
            }
            chosen[e] = before;
        }
        return false;
    }

    /** The first guess of read {@code e}'s writer, from the times (see the class comment). */
    private static int guess(ReadEvents events, int e) {
        Transaction reader = events.transaction(events.transactionOf(e));
        long start = reader.startTime();
        long end = reader.endTime();
        boolean timed = start != Transaction.NO_TIME && end != Transaction.NO_TIME;
        int during = -1;
        long duringEnd = Long.MAX_VALUE;
        int before = -1;
        long beforeEnd = Long.MIN_VALUE;
        boolean initial = false;
        for (int c : events.candidates(e)) {
            if (c == events.initial()) {
                initial = true;
                continue;
            }
            Transaction writer = events.transaction(c);
            if (!timed || writer.startTime() == Transaction.NO_TIME || writer.endTime() == Transaction.NO_TIME) {
                continue;
            }
            if (writer.endTime() < start) {
                if (writer.endTime() > beforeEnd) {
                    before = c;
                    beforeEnd = writer.endTime();
                }
            } else if (writer.startTime() < end && writer.endTime() < duringEnd) {
                during = c;
                duringEnd = writer.endTime();
            }
        }
        if (during >= 0) {
            return during;
        }
        if (before >= 0) {
            return before;
        }
        return initial ? events.initial() : SaturationChecker.guessed(events, e);
    }
}
