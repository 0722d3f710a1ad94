package dev.isocheck.internal.saturate;

import dev.isocheck.history.Transaction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A guess of which write each read with several candidate writers saw, by replaying the history
 * serially: transactions are placed one at a time in an order that respects the edges every
 * choice has (session order, the certain write-read edges, and the edges the axiom forces from
 * them), preferring a transaction all of whose reads the state so far explains, then the earliest
 * start time (or file position); each ambiguous read takes the writer of the version it meets.
 * A serializable history whose replay finds its serial order is guessed right, and satisfies
 * every weak level. It is only a guess: the saturation then decides, and a wrong guess costs a
 * search, never a wrong answer.
 */
final class SerialGuess {

    /** How many ready transactions are looked at for one whose reads the state explains. */
    private static final int LOOKAHEAD = 64;

    private final ReadEvents events;
    private final int n;
    private final int[] current;

    private SerialGuess(ReadEvents events) {
        this.events = events;
        this.n = events.size();
        this.current = new int[events.history().keys().size()];
        Arrays.fill(current, n);
    }

    /** {@code certain} with every ambiguous event (-1) chosen, given the edges of the certain saturation. */
    static int[] of(ReadEvents events, Saturation.Edges edges, int[] certain) {
        return new SerialGuess(events).guess(edges, certain);
    }

    private int[] guess(Saturation.Edges edges, int[] certain) {
        int[][] out = edges.outgoing(n);
        int[] indegree = new int[n];
        for (int i = 0; i < edges.size(); i++) {
            if (edges.to(i) < n) {
                indegree[edges.to(i)]++;
            }
        }
        long[] priority = priorities();

        PriorityQueue<Integer> ready = new PriorityQueue<>(
                Comparator.<Integer>comparingLong(t -> priority[t]).thenComparingInt(t -> t));
        for (int t = 0; t < n; t++) {
            if (indegree[t] == 0) {
                ready.add(t);
            }
        }
        int[] guess = certain.clone();
        int[] position = new int[n];
        Arrays.fill(position, -1);
        int placed = 0;
        List<Integer> looked = new ArrayList<>(LOOKAHEAD);
        while (!ready.isEmpty()) {
            int chosen = -1;
            looked.clear();
            while (!ready.isEmpty() && looked.size() < LOOKAHEAD && chosen < 0) {
                int t = ready.poll();
                if (explained(t)) {
                    chosen = t;
                } else {
                    looked.add(t);
                }
            }
            if (chosen < 0) {
                chosen = looked.remove(0);
            }
            ready.addAll(looked);
            for (int e = events.firstEvent(chosen); e < events.firstEvent(chosen + 1); e++) {
                if (guess[e] < 0 && contains(events.candidates(e), current[events.key(e)])) {
                    guess[e] = current[events.key(e)];
                }
            }
            for (int key : events.writtenKeys(chosen)) {
                current[key] = chosen;
            }
            position[chosen] = placed++;
            for (int edge : out[chosen]) {
                int to = edges.to(edge);
                if (to < n && --indegree[to] == 0) {
                    ready.add(to);
                }
            }
        }
        for (int e = 0; e < guess.length; e++) {
            if (guess[e] < 0) {
                guess[e] = fallback(e, position);
            }
        }
        return guess;
    }

    /** Whether the state so far explains every read of {@code t}. */
    private boolean explained(int t) {
        for (int e = events.firstEvent(t); e < events.firstEvent(t + 1); e++) {
            if (!contains(events.candidates(e), current[events.key(e)])) {
                return false;
            }
        }
        return true;
    }

    /** The candidate placed last before the reader, else the initial state if it is one, else the first. */
    private int fallback(int e, int[] position) {
        int reader = events.transactionOf(e);
        int[] candidates = events.candidates(e);
        int best = -1;
        for (int c : candidates) {
            if (c < n && position[c] >= 0 && position[c] < position[reader] && (best < 0 || position[c] > position[best])) {
                best = c;
            }
        }
        if (best >= 0) {
            return best;
        }
        return candidates[candidates.length - 1] == n ? n : candidates[0];
    }

    /** Start times when every committed transaction has one, else file positions. */
    private long[] priorities() {
        long[] priority = new long[n];
        boolean timed = true;
        for (int t = 0; t < n && timed; t++) {
            timed = events.transaction(t).startTime() != Transaction.NO_TIME;
        }
        for (int t = 0; t < n; t++) {
            priority[t] = timed ? events.transaction(t).startTime() : t;
        }
        return priority;
    }

    private static boolean contains(int[] sorted, int value) {
        return Arrays.binarySearch(sorted, value) >= 0;
    }
}
