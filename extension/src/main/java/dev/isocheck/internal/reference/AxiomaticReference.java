package dev.isocheck.internal.reference;

import dev.isocheck.internal.saturate.ReadEvents;
import dev.isocheck.internal.saturate.WeakLevel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The brute-force oracle of the weak levels, written straight from Biswas and Enea's axioms: a
 * history satisfies a level when <em>some</em> choice of a writer for every read event (among its
 * candidates, the initial state included) and <em>some</em> total commit order of the committed
 * transactions, after the initial state and containing session order and the chosen write-read
 * order, satisfy the level's axiom; reads of one key's initial value must agree on it.
 *
 * <p>Every choice of writers is enumerated, and for each the orders are searched one transaction
 * at a time (a transaction is placed once everything the axiom orders before it is placed; for
 * prefix, whose axiom mentions the order itself, each complete order is checked against it). No
 * cleverness beyond that: it is the reference the saturation checker is tested against, so it
 * decides only small histories: at most {@link #MAX_COMMITTED} committed transactions and
 * {@link #MAX_CHOICES} choices of writers, otherwise its answer is {@link Answer#UNKNOWN}.
 */
public final class AxiomaticReference {

    /** The most committed transactions decided: 7! orders per choice at worst. */
    public static final int MAX_COMMITTED = 7;

    /** The most choices of writers enumerated. */
    public static final long MAX_CHOICES = 50_000;

    /** What the oracle found. */
    public enum Answer {
        /** Some choice of writers and some commit order satisfy the axiom. */
        SATISFIED,
        /** None does. */
        VIOLATED,
        /** Too large to enumerate. */
        UNKNOWN
    }

    private AxiomaticReference() {
    }

    /** Decides {@code events}' history at {@code level}; the screening's anomalies violate every level. */
    public static Answer check(ReadEvents events, WeakLevel level) {
        if (events.screened(level).isPresent()) {
            return Answer.VIOLATED;
        }
        if (events.size() > MAX_COMMITTED) {
            return Answer.UNKNOWN;
        }
        long choices = 1;
        for (int e = 0; e < events.eventCount(); e++) {
            choices *= events.candidates(e).length;
            if (choices == 0) {
                return Answer.VIOLATED;
            }
            if (choices > MAX_CHOICES) {
                return Answer.UNKNOWN;
            }
        }
        return new Search(events, level).choose(0) ? Answer.SATISFIED : Answer.VIOLATED;
    }

    /** The enumeration of choices of writers, then of commit orders. */
    private static final class Search {

        private final ReadEvents events;
        private final WeakLevel level;
        private final int n;
        private final int[] chosen;
        /** {@code so[a][b]}: a comes before b in their session. */
        private final boolean[][] so;

        Search(ReadEvents events, WeakLevel level) {
            this.events = events;
            this.level = level;
            this.n = events.size();
            this.chosen = new int[events.eventCount()];
            this.so = new boolean[n][n];
            for (int t = 0; t < n; t++) {
                for (int p = events.sessionPredecessor(t); p >= 0; p = events.sessionPredecessor(p)) {
                    so[p][t] = true;
                }
            }
        }

        boolean choose(int e) {
            if (e == chosen.length) {
                return initialReadsAgree() && orderExists();
            }
            for (int candidate : events.candidates(e)) {
                chosen[e] = candidate;
                if (choose(e + 1)) {
                    return true;
                }
            }
            return false;
        }

        private boolean initialReadsAgree() {
            Map<Integer, List<Integer>> byKey = new HashMap<>();
            for (int e = 0; e < chosen.length; e++) {
                if (chosen[e] == n) {
                    byKey.computeIfAbsent(events.key(e), k -> new ArrayList<>()).add(e);
                }
            }
            return byKey.entrySet().stream().allMatch(entry -> events.initialObservationsAgree(entry.getKey(), entry.getValue()));
        }

        /** Whether some commit order contains so and wr and satisfies the axiom, given the chosen writers. */
        private boolean orderExists() {
            boolean[][] wr = new boolean[n][n];
            for (int e = 0; e < chosen.length; e++) {
                if (chosen[e] < n) {
                    wr[chosen[e]][events.transactionOf(e)] = true;
                }
            }
            boolean[][] before = new boolean[n][n];
            for (int a = 0; a < n; a++) {
                for (int b = 0; b < n; b++) {
                    before[a][b] = so[a][b] || wr[a][b];
                }
            }
            boolean[][] visible = visibility(wr);
            // The axiom's conclusions that do not depend on the order: t1 before t2.
            for (int alpha = 0; alpha < chosen.length; alpha++) {
                int t3 = events.transactionOf(alpha);
                int t2 = chosen[alpha];
                int x = events.key(alpha);
                for (int t1 = 0; t1 < n; t1++) {
                    if (t1 == t2 || !events.writes(t1, x) || !premise(visible, wr, t1, t3, alpha)) {
                        continue;
                    }
                    if (t2 == n) {
                        return false;
                    }
                    before[t1][t2] = true;
                }
            }
            int[] order = new int[n];
            boolean[] placed = new boolean[n];
            return place(0, order, placed, before, wr);
        }

        /**
         * {@code visible[t1][t3]}: the relation of the axiom's premise that depends only on so and
         * wr. Read atomic and prefix: so ∪ wr; causal: its transitive closure. Read committed
         * looks at operations, in {@link #premise}.
         */
        private boolean[][] visibility(boolean[][] wr) {
            boolean[][] v = new boolean[n][n];
            for (int a = 0; a < n; a++) {
                for (int b = 0; b < n; b++) {
                    v[a][b] = so[a][b] || wr[a][b];
                }
            }
            if (level == WeakLevel.CAUSAL) {
                for (int k = 0; k < n; k++) {
                    for (int a = 0; a < n; a++) {
                        for (int b = 0; b < n; b++) {
                            v[a][b] |= v[a][k] && v[k][b];
                        }
                    }
                }
            }
            return v;
        }

        private boolean premise(boolean[][] visible, boolean[][] wr, int t1, int t3, int alpha) {
            if (level != WeakLevel.READ_COMMITTED) {
                return visible[t1][t3];
            }
            for (int beta = events.firstEvent(t3); beta < events.firstEvent(t3 + 1); beta++) {
                if (chosen[beta] == t1 && events.operation(beta) < events.operation(alpha)) {
                    return true;
                }
            }
            return false;
        }

        private boolean place(int position, int[] order, boolean[] placed, boolean[][] before, boolean[][] wr) {
            if (position == n) {
                return level != WeakLevel.PREFIX || prefixHolds(order, wr);
            }
            for (int t = 0; t < n; t++) {
                if (placed[t] || !predecessorsPlaced(t, placed, before)) {
                    continue;
                }
                placed[t] = true;
                order[position] = t;
                if (place(position + 1, order, placed, before, wr)) {
                    return true;
                }
                placed[t] = false;
            }
            return false;
        }

        private boolean predecessorsPlaced(int t, boolean[] placed, boolean[][] before) {
            for (int p = 0; p < n; p++) {
                if (before[p][t] && !placed[p]) {
                    return false;
                }
            }
            return true;
        }

        /**
         * Prefix on a complete order: t3 reads x from t2, t1 writes x and commits before or is some
         * t4 that precedes t3 by so or wr; then t1 commits before t2.
         */
        private boolean prefixHolds(int[] order, boolean[][] wr) {
            int[] position = new int[n + 1];
            for (int p = 0; p < n; p++) {
                position[order[p]] = p + 1;
            }
            position[n] = 0;
            for (int alpha = 0; alpha < chosen.length; alpha++) {
                int t3 = events.transactionOf(alpha);
                int t2 = chosen[alpha];
                int x = events.key(alpha);
                for (int t1 = 0; t1 < n; t1++) {
                    if (t1 == t2 || !events.writes(t1, x)) {
                        continue;
                    }
                    boolean premise = false;
                    for (int t4 = 0; t4 < n && !premise; t4++) {
                        premise = position[t1] <= position[t4] && (so[t4][t3] || wr[t4][t3]);
                    }
                    if (premise && position[t1] > position[t2]) {
                        return false;
                    }
                }
            }
            return true;
        }
    }

    /** For tests: the answer as an optional boolean, empty when unknown. */
    public static Optional<Boolean> satisfies(ReadEvents events, WeakLevel level) {
        return switch (check(events, level)) {
            case SATISFIED -> Optional.of(true);
            case VIOLATED -> Optional.of(false);
            case UNKNOWN -> Optional.empty();
        };
    }
}
