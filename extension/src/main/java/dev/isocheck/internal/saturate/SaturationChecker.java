package dev.isocheck.internal.saturate;

import dev.isocheck.history.History;
import dev.isocheck.history.PredicateRead;
import dev.isocheck.history.Transaction;
import dev.isocheck.internal.graph.ReadAnomalies;
import dev.isocheck.internal.limit.Limits;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Decides read committed, read atomic and causal consistency by saturation ({@link Saturation}).
 *
 * <p>With unique values every read event has one candidate writer and the answer is exact: the
 * history satisfies the level if and only if the saturated graph is acyclic. With duplicate values
 * (or an initial value a read may also have seen), a read has several candidates, and the history
 * satisfies the level when <em>some</em> choice of them does. The checker then proceeds, never
 * giving a false alarm:
 * <ol>
 *   <li>the reads with one candidate alone: a cycle there is a cycle of every choice, a violation;</li>
 *   <li>two guessed choices ({@link SerialGuess}, a serial replay; then each ambiguous read's last
 *       candidate before it in the file, else the initial state, else its first): acyclic is a
 *       pass, with its order as witness;</li>
 *   <li>when {@linkplain SerialOrders stronger orders} can be looked for, one of them: a serial
 *       order, a snapshot-isolation or a prefix-consistent commit order satisfies every weak level (on a few hot rows
 *       with repeated values the search below may give up where one is found at once);</li>
 *   <li>a guess from the recorded times, repaired one cycle at a time ({@link TimedGuess}):
 *       what a database that lets a read see writes committed while its transaction ran records
 *       (read committed), which the guesses above, by file order, miss;</li>
 *   <li>when given, an order that costs more to look for ({@code lateOrders}: read committed's
 *       read-by-read order);</li>
 *   <li>a depth-first search over the choices, abandoning a partial choice once its graph has a
 *       cycle or its reads of an initial value disagree (edges only grow as more reads are chosen,
 *       so every completion fails too): a complete acyclic choice is a pass; the search exhausted
 *       is a violation; past its {@linkplain #DEFAULT_WORK_BUDGET work budget} the answer is
 *       {@link Outcome.Unknown}.</li>
 * </ol>
 * So with duplicate values the checker is complete within its budget and sound beyond it.
 */
public final class SaturationChecker {

    /** Transactions plus events plus edges, summed over the saturations of one check. */
    public static final long DEFAULT_WORK_BUDGET = 20_000_000L;

    private final long workBudget;
    private final SerialOrders serialOrders;
    private final boolean timedGuess;
    /** Asked for an order after the timed guess fails, before the search; {@code null} for none. */
    private final SerialOrders lateOrders;

    /**
     * Looks for a commit order of a history that a stronger level gives (a serial order, a
     * snapshot-isolation commit order): its committed transactions' ids, else empty (which
     * concludes nothing).
     */
    @FunctionalInterface
    public interface SerialOrders {
        /** Such an order of {@code history} found within {@code limits}, or empty. */
        java.util.Optional<List<String>> find(History history, Limits limits);
    }

    /** A checker with the {@link #DEFAULT_WORK_BUDGET}. */
    public SaturationChecker() {
        this(DEFAULT_WORK_BUDGET);
    }

    /** A checker whose search over choices of writers stops after {@code workBudget} units of work. */
    public SaturationChecker(long workBudget) {
        this(workBudget, null);
    }

    /**
     * A checker whose search over choices of writers stops after {@code workBudget} units of work,
     * and which first asks {@code serialOrders} for an order when its guesses fail.
     *
     * @param serialOrders what looks for an order of a stronger level, or {@code null} not to look for one
     */
    public SaturationChecker(long workBudget, SerialOrders serialOrders) {
        this(workBudget, serialOrders, true);
    }

    /**
     * As {@link #SaturationChecker(long, SerialOrders)}, with or without the {@linkplain TimedGuess
     * timed guess} (tests: without it, to see what the other steps leave undecided).
     */
    public SaturationChecker(long workBudget, SerialOrders serialOrders, boolean timedGuess) {
        this(workBudget, serialOrders, timedGuess, null);
    }

    /**
     * As {@link #SaturationChecker(long, SerialOrders, boolean)}, asking {@code lateOrders} for an
     * order when the timed guess fails too, before the search over choices: for an order that
     * costs more to look for than the timed guess (read committed's read-by-read order).
     *
     * @param lateOrders what looks for such an order, or {@code null} not to look for one
     */
    public SaturationChecker(long workBudget, SerialOrders serialOrders, boolean timedGuess, SerialOrders lateOrders) {
        this.workBudget = workBudget;
        this.serialOrders = serialOrders;
        this.timedGuess = timedGuess;
        this.lateOrders = lateOrders;
    }

    /** What a check found. */
    public sealed interface Outcome permits Outcome.Satisfied, Outcome.Violated, Outcome.Unknown {

        /** The level holds: {@code order} (transaction ids) is a commit order satisfying the axiom. */
        record Satisfied(List<String> order) implements Outcome {
            /** Copies. */
            public Satisfied {
                order = List.copyOf(order);
            }
        }

        /** The level is violated, for the reason {@code violation} gives. */
        record Violated(Violation violation) implements Outcome {
            /** Validates. */
            public Violated {
                Objects.requireNonNull(violation, "violation is null");
            }
        }

        /** Undecided, for {@code reason}. */
        record Unknown(String reason) implements Outcome {
        }
    }

    /** Checks {@code history} at {@code level} (not prefix) within {@code limits}. */
    public Outcome check(History history, WeakLevel level, Limits limits) {
        if (level == WeakLevel.PREFIX) {
            throw new IllegalArgumentException("prefix consistency is not decided by saturation");
        }
        limits.enter("screening the reads");
        ReadEvents events = ReadEvents.of(history);
        java.util.Optional<ReadAnomalies.Finding> screened = events.screened(level);
        if (screened.isPresent()) {
            return new Outcome.Violated(Violation.screened(events, level, screened.get()));
        }
        int count = events.eventCount();
        int[] certain = new int[count];
        List<Integer> ambiguous = new ArrayList<>();
        for (int e = 0; e < count; e++) {
            int[] candidates = events.candidates(e);
            if (candidates.length == 0) {
                return new Outcome.Violated(Violation.unexplained(events, level, e));
            }
            certain[e] = candidates.length == 1 ? candidates[0] : -1;
            if (candidates.length > 1) {
                ambiguous.add(e);
            }
        }
        int[] conflict = initialConflict(events, certain);
        if (conflict != null) {
            return new Outcome.Violated(Violation.initialConflict(events, level, conflict[0], conflict[1]));
        }
        limits.enter("saturating the commit order at " + level.cliName());
        try {
            return saturate(events, level, certain, ambiguous, limits);
        } catch (Saturation.TooLarge e) {
            return new Outcome.Unknown(e.getMessage());
        }
    }

    private Outcome saturate(ReadEvents events, WeakLevel level, int[] certain, List<Integer> ambiguous, Limits limits) {
        Saturation first = new Saturation(events, level, certain).run();
        if (first.cycle() != null) {
            return new Outcome.Violated(Violation.cycle(events, level, first, certain, List.of(), 1));
        }
        if (ambiguous.isEmpty()) {
            return satisfied(events, first.order());
        }
        limits.enter("choosing among the candidate writers of " + ambiguous.size() + " reads at " + level.cliName());
        // Two guesses: a serial replay, then each read's last candidate in file order.
        int[] serial = SerialGuess.of(events, first.edges(), certain);
        int[] inFileOrder = certain.clone();
        for (int e : ambiguous) {
            inFileOrder[e] = guessed(events, e);
        }
        for (int[] guess : List.of(serial, inFileOrder)) {
            limits.checkTime();
            if (initialConflict(events, guess) == null) {
                Saturation guessed = new Saturation(events, level, guess).run();
                if (guessed.order() != null) {
                    return satisfied(events, guessed.order());
                }
            }
        }
        if (serialOrders != null) {
            java.util.Optional<List<String>> serialOrder = serialOrders.find(events.history(), limits);
            if (serialOrder.isPresent()) {
                return new Outcome.Satisfied(serialOrder.get());
            }
        }
        limits.checkTime();
        // With an order still to ask for after it, the guess's repairs get a tenth of their work:
        // the guesses that succeed mostly do so in a few rounds, and that order decides the rest.
        int[] repaired = timedGuess
                ? TimedGuess.order(events, level, certain, ambiguous, limits, lateOrders != null ? TimedGuess.WORK / 10 : TimedGuess.WORK)
                : null;
        if (repaired != null) {
            return satisfied(events, repaired);
        }
        if (lateOrders != null) {
            java.util.Optional<List<String>> lateOrder = lateOrders.find(events.history(), limits);
            if (lateOrder.isPresent()) {
                return new Outcome.Satisfied(lateOrder.get());
            }
        }
        return new ChoiceSearch(events, level, certain, ambiguous, limits).run();
    }

    private static Outcome satisfied(ReadEvents events, int[] order) {
        List<String> ids = new ArrayList<>(order.length);
        for (int t : order) {
            ids.add(events.transaction(t).id());
        }
        return new Outcome.Satisfied(ids);
    }

    /** The last candidate before the reader in file order, else the initial state, else the first. */
    static int guessed(ReadEvents events, int e) {
        int reader = events.transactionOf(e);
        int[] candidates = events.candidates(e);
        int best = -1;
        for (int c : candidates) {
            if (c < reader) {
                best = c;
            }
        }
        if (best >= 0) {
            return best;
        }
        return candidates[candidates.length - 1] == events.initial() ? events.initial() : candidates[0];
    }

    /** Two chosen events whose reads of one key's initial value cannot be of one value, or {@code null}. */
    static int[] initialConflict(ReadEvents events, int[] chosen) {
        java.util.Map<Integer, List<Integer>> byKey = new java.util.HashMap<>();
        for (int e = 0; e < chosen.length; e++) {
            if (chosen[e] == events.initial()) {
                byKey.computeIfAbsent(events.key(e), k -> new ArrayList<>()).add(e);
            }
        }
        for (var entry : byKey.entrySet()) {
            List<Integer> reads = entry.getValue();
            if (events.initialObservationsAgree(entry.getKey(), reads)) {
                continue;
            }
            for (int i = 1; i < reads.size(); i++) {
                if (!events.initialObservationsAgree(entry.getKey(), reads.subList(0, i + 1))) {
                    for (int j = 0; j < i; j++) {
                        if (!events.initialObservationsAgree(entry.getKey(), List.of(reads.get(j), reads.get(i)))) {
                            return new int[] {reads.get(j), reads.get(i)};
                        }
                    }
                    return new int[] {reads.get(0), reads.get(i)};
                }
            }
        }
        return null;
    }

    /** The depth-first search over the choices of the ambiguous reads. */
    private final class ChoiceSearch {

        private final ReadEvents events;
        private final WeakLevel level;
        private final int[] chosen;
        private final List<Integer> ambiguous;
        private final Limits limits;
        private long work;
        private long cases;
        private Violation firstFailure;

        ChoiceSearch(ReadEvents events, WeakLevel level, int[] certain, List<Integer> ambiguous, Limits limits) {
            this.events = events;
            this.level = level;
            this.chosen = certain.clone();
            this.ambiguous = ambiguous;
            this.limits = limits;
        }

        Outcome run() {
            int[] found;
            try {
                found = search(0);
            } catch (BudgetExceeded e) {
                return new Outcome.Unknown("the search over which write each of " + ambiguous.size()
                        + " reads with several candidate writers saw went past its budget of " + workBudget
                        + " units of work at " + level.cliName() + " (duplicate values)");
            }
            if (found != null) {
                return satisfied(events, found);
            }
            return new Outcome.Violated(firstFailure.inEveryCase(cases));
        }

        private int[] search(int depth) {
            if (depth == ambiguous.size()) {
                return null;
            }
            int e = ambiguous.get(depth);
            for (int candidate : events.candidates(e)) {
                chosen[e] = candidate;
                limits.checkTime();
                work += events.size() + events.eventCount() + 4L * events.size();
                if (work > workBudget) {
                    throw new BudgetExceeded();
                }
                int[] conflict = initialConflict(events, chosen);
                Saturation saturation = conflict == null ? new Saturation(events, level, chosen).run() : null;
                if (saturation == null || saturation.cycle() != null) {
                    cases++;
                    if (firstFailure == null) {
                        List<Integer> assumed = new ArrayList<>(ambiguous.subList(0, depth + 1));
                        firstFailure = saturation == null
                                ? Violation.initialConflict(events, level, conflict[0], conflict[1]).assuming(chosen.clone(), assumed)
                                : Violation.cycle(events, level, saturation, chosen.clone(), assumed, 1);
                    }
                    continue;
                }
                if (depth + 1 == ambiguous.size()) {
                    return saturation.order();
                }
                int[] deeper = search(depth + 1);
                if (deeper != null) {
                    return deeper;
                }
            }
            chosen[e] = -1;
            return null;
        }
    }

    private static final class BudgetExceeded extends RuntimeException {
        BudgetExceeded() {
            super(null, null, false, false);
        }
    }

    /**
     * Why a history violates a weak level, with what shows it: a read the screening flags, a read
     * nothing explains, two reads that disagree on an initial value, or a cycle of session order,
     * write-read order and the commit-order edges the axiom forces.
     */
    public static final class Violation {

        private final ReadEvents events;
        private final WeakLevel level;
        private final ReadAnomalies.Finding finding;
        private final int unexplained;
        private final int[] conflict;
        private final Saturation.Edges edges;
        private final int[] cycle;
        private final int[] chosen;
        private final List<Integer> assumed;
        private final long cases;

        private Violation(ReadEvents events, WeakLevel level, ReadAnomalies.Finding finding, int unexplained, int[] conflict,
                Saturation.Edges edges, int[] cycle, int[] chosen, List<Integer> assumed, long cases) {
            this.events = events;
            this.level = level;
            this.finding = finding;
            this.unexplained = unexplained;
            this.conflict = conflict;
            this.edges = edges;
            this.cycle = cycle;
            this.chosen = chosen;
            this.assumed = List.copyOf(assumed);
            this.cases = cases;
        }

        static Violation screened(ReadEvents events, WeakLevel level, ReadAnomalies.Finding finding) {
            return new Violation(events, level, finding, -1, null, null, null, null, List.of(), 1);
        }

        static Violation unexplained(ReadEvents events, WeakLevel level, int event) {
            return new Violation(events, level, null, event, null, null, null, null, List.of(), 1);
        }

        static Violation initialConflict(ReadEvents events, WeakLevel level, int a, int b) {
            return new Violation(events, level, null, -1, new int[] {a, b}, null, null, null, List.of(), 1);
        }

        static Violation cycle(ReadEvents events, WeakLevel level, Saturation saturation, int[] chosen, List<Integer> assumed,
                long cases) {
            return new Violation(events, level, null, -1, null, saturation.edges(), saturation.cycle(), chosen, assumed, cases);
        }

        Violation assuming(int[] chosenNow, List<Integer> assumedNow) {
            return new Violation(events, level, finding, unexplained, conflict, edges, cycle, chosenNow, assumedNow, cases);
        }

        Violation inEveryCase(long caseCount) {
            return new Violation(events, level, finding, unexplained, conflict, edges, cycle, chosen, assumed, caseCount);
        }

        /** The screening's finding, if the violation is one. */
        public java.util.Optional<ReadAnomalies.Finding> screening() {
            return java.util.Optional.ofNullable(finding);
        }

        /** Whether the violation is a cycle of two transactions or more (not an edge forced into the initial state). */
        public boolean isCycle() {
            return cycle != null && !(cycle.length == 1 && edges.to(cycle[0]) == events.initial());
        }

        /**
         * The anomaly's kind: the screening's; {@code THIN_AIR} for a read nothing explains;
         * {@code INITIAL_VALUE_CONFLICT}; {@code NO_VALID_ORDER} for a read of the initial state the
         * axiom forbids and for a violation shown by cases; else the cycle's kind by its edges
         * (write-write for the forced edges): {@code G0} or {@code G1c}.
         */
        public dev.isocheck.AnomalyType type() {
            if (finding != null) {
                return finding.anomaly().type();
            }
            if (unexplained >= 0) {
                return dev.isocheck.AnomalyType.THIN_AIR;
            }
            if (conflict != null) {
                return dev.isocheck.AnomalyType.INITIAL_VALUE_CONFLICT;
            }
            if (!isCycle() || !isCertain()) {
                return dev.isocheck.AnomalyType.NO_VALID_ORDER;
            }
            List<dev.isocheck.explain.DependencyType> types = new ArrayList<>();
            for (Step step : steps()) {
                types.add(switch (step.kind()) {
                    case "session" -> dev.isocheck.explain.DependencyType.SESSION;
                    case "wr" -> dev.isocheck.explain.DependencyType.WRITE_READ;
                    default -> dev.isocheck.explain.DependencyType.WRITE_WRITE;
                });
            }
            return dev.isocheck.explain.AnomalyCycle.typeOf(types);
        }

        /** The level broken. */
        public WeakLevel level() {
            return level;
        }

        /** Whether the violation holds whatever write each read saw, without a case analysis. */
        public boolean isCertain() {
            return assumed.isEmpty();
        }

        /** The ids of the transactions involved, in the order of the story. */
        public List<String> transactions() {
            List<String> ids = new ArrayList<>();
            if (finding != null) {
                return finding.anomaly().transactions();
            }
            if (unexplained >= 0) {
                ids.add(events.id(events.transactionOf(unexplained)));
            } else if (conflict != null) {
                addOnce(ids, events.id(events.transactionOf(conflict[0])));
                addOnce(ids, events.id(events.transactionOf(conflict[1])));
            } else {
                for (int edge : cycle) {
                    if (edges.from(edge) < events.size()) {
                        addOnce(ids, events.id(edges.from(edge)));
                    }
                    if (edges.kind(edge) == Saturation.AXIOM) {
                        addOnce(ids, events.id(events.transactionOf(edges.alpha(edge))));
                    }
                }
            }
            return ids;
        }

        private static void addOnce(List<String> ids, String id) {
            if (!ids.contains(id)) {
                ids.add(id);
            }
        }

        /** The edges of the cycle as {@code from}, {@code to}, kind ({@code session}, {@code wr} or {@code co}) and reason. */
        public List<Step> steps() {
            List<Step> steps = new ArrayList<>();
            if (cycle == null) {
                return steps;
            }
            for (int edge : cycle) {
                steps.add(step(edge));
            }
            return steps;
        }

        /**
         * One edge of a violating cycle.
         *
         * @param from   the transaction id it leaves
         * @param to     the transaction id it enters ({@code the initial state} for an edge forced into it)
         * @param kind   {@code session}, {@code wr} or {@code co} (forced by the axiom)
         * @param key    the key, for {@code wr} and {@code co}; else {@code null}
         * @param reason why, in words
         * @param fromOperations the operations of {@code from} behind the edge, as {history index, operation, row}
         * @param toOperations   the operations of {@code to} behind the edge, likewise
         */
        public record Step(String from, String to, String kind, String key, String reason, List<int[]> fromOperations,
                List<int[]> toOperations) {
        }

        /** The read that shows a violation that is no cycle (or the read of an edge forced into the initial state), as {history index, operation, row}. */
        public int[] read() {
            int e = unexplained >= 0 ? unexplained : conflict != null ? conflict[1]
                    : cycle != null && cycle.length == 1 ? edges.alpha(cycle[0]) : -1;
            return e < 0 ? null : place(e);
        }

        /** The other operations such a violation involves, as {history index, operation, row}. */
        public List<int[]> related() {
            List<int[]> related = new ArrayList<>();
            if (conflict != null) {
                related.add(place(conflict[0]));
            } else if (cycle != null && cycle.length == 1) {
                int edge = cycle[0];
                if (edges.beta(edge) >= 0) {
                    related.add(place(edges.beta(edge)));
                }
                related.add(finalWrite(edges.from(edge), events.key(edges.alpha(edge))));
            }
            return related;
        }

        private int[] place(int e) {
            return new int[] {events.transaction(events.transactionOf(e)).index(), events.operation(e), events.row(e)};
        }

        private int[] finalWrite(int t, int key) {
            Transaction tx = events.transaction(t);
            for (int op = tx.size() - 1; op >= 0; op--) {
                if (tx.kind(op) == dev.isocheck.history.OpKind.WRITE && tx.key(op) == key) {
                    return new int[] {tx.index(), op, -1};
                }
            }
            throw new IllegalStateException(tx.id() + " does not write key " + key);
        }

        private Step step(int edge) {
            int from = edges.from(edge);
            int to = edges.to(edge);
            return switch (edges.kind(edge)) {
                case Saturation.SESSION -> new Step(events.id(from), events.id(to), "session", null,
                        events.id(from) + " precedes " + events.id(to) + " in session "
                                + events.history().sessionOf(events.transaction(to)).name(), List.of(), List.of());
                case Saturation.WRITE_READ -> new Step(events.id(from), events.id(to), "wr",
                        events.keyName(events.key(edges.alpha(edge))),
                        read(edges.alpha(edge)) + ", which " + events.id(from) + " wrote",
                        List.of(finalWrite(from, events.key(edges.alpha(edge)))), List.of(place(edges.alpha(edge))));
                default -> forced(edge);
            };
        }

        private Step forced(int edge) {
            int t1 = edges.from(edge);
            int t2 = edges.to(edge);
            int alpha = edges.alpha(edge);
            int beta = edges.beta(edge);
            int t3 = events.transactionOf(alpha);
            String x = events.keyName(events.key(alpha));
            String source = t2 == events.initial() ? "the initial state" : events.id(t2);
            String visible;
            if (beta >= 0) {
                visible = read(beta) + (level == WeakLevel.READ_COMMITTED ? " before that" : "")
                        + ", which " + events.id(t1) + " wrote";
            } else if (level == WeakLevel.READ_ATOMIC) {
                visible = events.id(t1) + " precedes " + events.id(t3) + " in its session";
            } else {
                visible = events.id(t1) + " precedes " + events.id(t3) + " causally (by session order and write-read)";
            }
            String reason = read(alpha) + " from " + source + ", but " + visible + ", and " + events.id(t1) + " writes " + x
                    + " too: " + level.axiom() + " puts " + events.id(t1) + "'s write of " + x + " before "
                    + (t2 == events.initial() ? "the initial state, which comes before every transaction" : source + "'s");
            int key = events.key(alpha);
            return new Step(events.id(t1), source, "co", x, reason, List.of(finalWrite(t1, key)),
                    t2 == events.initial() ? List.of() : List.of(finalWrite(t2, key)));
        }

        private String read(int e) {
            Transaction t = events.transaction(events.transactionOf(e));
            String value = events.keyName(events.key(e)) + " = " + events.history().values().get(events.value(e));
            if (events.row(e) < 0) {
                return t.id() + " read " + value;
            }
            PredicateRead p = t.predicate(events.operation(e));
            return t.id() + "'s predicate read of " + p.table() + " where " + p.where() + " returned " + value;
        }

        /** The violation in words: the axiom broken and the operations that break it. */
        public String explanation() {
            if (finding != null) {
                return finding.anomaly().explanation();
            }
            String text;
            if (unexplained >= 0) {
                text = read(unexplained) + ", which no committed transaction's final write and not the initial state explains";
            } else if (conflict != null) {
                text = read(conflict[0]) + " and " + read(conflict[1]) + ", both of the initial value, which cannot be one value";
            } else if (!isCycle()) {
                text = level.axiom() + " is broken: " + steps().get(0).reason();
            } else {
                List<String> parts = new ArrayList<>();
                for (Step step : steps()) {
                    parts.add(step.reason());
                }
                String arrows = cycleArrows();
                text = level.axiom() + " is broken: the commit order would need the cycle " + arrows + ": "
                        + String.join("; ", parts);
            }
            if (!assumed.isEmpty()) {
                List<String> choices = new ArrayList<>();
                for (int e : assumed) {
                    choices.add(read(e) + " from " + events.id(chosen[e]));
                }
                text = "whichever write each read saw (" + cases + " choices of writers tried, each failing), e.g. when "
                        + String.join(" and ", choices) + ": " + text;
            }
            return text;
        }

        private String cycleArrows() {
            StringBuilder out = new StringBuilder();
            for (Step step : steps()) {
                out.append(step.from()).append(" -").append(step.kind()).append(step.key() == null ? "" : " " + step.key())
                        .append("-> ");
            }
            List<Step> steps = steps();
            out.append(steps.get(0).from().equals(steps.get(steps.size() - 1).to()) ? steps.get(0).from()
                    : steps.get(steps.size() - 1).to());
            return out.toString();
        }

        @Override
        public String toString() {
            return explanation();
        }
    }
}
