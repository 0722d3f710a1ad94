package dev.isocheck.internal.explain;

import dev.isocheck.IsolationLevel;
import dev.isocheck.explain.Assumption;
import dev.isocheck.explain.Explanation;
import dev.isocheck.explain.TransactionSummary;
import dev.isocheck.history.History;
import dev.isocheck.history.Transaction;
import dev.isocheck.internal.engine.Checker;
import dev.isocheck.internal.graph.ReadExplanations;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * A case analysis over which write a read saw, for violations whose minimal violating core is too
 * large to explain exhaustively: "whichever of T3 and T5 wrote the x = 1 that T7 read, a cycle
 * forms".
 *
 * <p>Why it is needed: with duplicate values, a read of a value several transactions wrote keeps
 * its constraints in a restriction of the history ({@link ViolatingCore}) only while every one of
 * those writers is in it, so minimal cores hold every writer of every value the proof reads, often
 * more than {@link ExhaustiveExplainer} can reason about. Pinning the read to one of its sources
 * at a time turns one large core into a few small ones: in the case "T7's read saw T3's write",
 * the read is kept as soon as T3 is in the set, and the other writers of its value can go.
 *
 * <p>How: first the likeliest case. Every item read with several sources is guessed to have seen
 * one ({@link #guesses}); with all of them pinned, every read depends on one writer and a small
 * core is found as with unique values, and explained; its proof rests on the guesses its core
 * holds. Then, for the first of those, each other source (each committed transaction whose last
 * write of the key has the value read, and the initial state where it can explain the read) is a
 * case of its own, searched the same way with that pin and the other guesses, splitting again
 * where a case's proof rests on further guesses, to a depth of {@value #MAX_DEPTH} and at most
 * {@value #MAX_CASES} cases. A case whose proof does not rest on its pin (its core leaves the
 * pinned read or its source out) proves every case, and stands alone. When the analysis does not
 * finish, the likeliest case is answered alone ({@link Explanation.LikelyCase}).
 *
 * <p>Sound: the cases cover every source of the read (every explanation of the whole history
 * makes the read see one of them), and each case's proof is over the explanations where the read
 * saw that source ({@link ViolatingCore#find(History, IsolationLevel, Checker, int[], int, long, Map)},
 * {@link ExplanationSpace#of(History, IsolationLevel, int[], Map)}); each resulting case states the
 * sources it assumes. Not thread-safe: one instance per explanation.
 */
final class SourceCases {

    /** The most reads split on the way to one case. */
    static final int MAX_DEPTH = 8;
    /** The most cases an analysis may end with. */
    static final int MAX_CASES = 32;
    /**
     * How many more transactions than the exhaustive explainer's bound a case is explained over:
     * with a write assumed for every read, only the orders of versions are left to enumerate.
     */
    static final int LEAF_EXTRA = 14;
    /** How long the case analysis may take once the likeliest case is found. */
    static final long CASES_BUDGET_NANOS = 1_000_000_000L;

    private final History history;
    private final IsolationLevel level;
    private final Checker checker;
    private final ExhaustiveExplainer exhaustive;
    private long deadline;
    private final int maxCases;
    private final ReadExplanations explanations;
    private final Map<Integer, Integer> guesses;
    /** The proofs found per set of assumed sources: a case whose pins the guesses already made finds the same. */
    private final Map<Map<Integer, Integer>, Optional<Proof>> leaves = new HashMap<>();
    private String failure = "";

    /**
     * A proof under some pins.
     *
     * @param cases    its cases, each stating the pins it rests on that the caller did not add
     * @param involved the ids of the transactions on its cycles
     * @param premises what its reads rest on ({@link Explanation#premises()})
     * @param used     the pinned observations it rests on
     */
    private record Proof(List<Explanation.Case> cases, Set<String> involved, Set<Assumption.UnwrittenInitialValue> premises,
            Set<Integer> used) {
    }

    private SourceCases(History history, IsolationLevel level, Checker checker, ExhaustiveExplainer exhaustive,
            long deadline, int maxCases) {
        this.maxCases = maxCases;
        this.history = history;
        this.level = level;
        this.checker = checker;
        this.exhaustive = exhaustive;
        this.deadline = deadline;
        this.explanations = ReadExplanations.of(history);
        this.guesses = guesses(history, explanations);
    }

    /**
     * The case analysis of a violated history, or why none was found.
     *
     * @param start         the transactions the verdict named (indexes)
     * @param deadlineNanos a {@link System#nanoTime()} after which the search gives up
     */
    static Explanation explain(History history, IsolationLevel level, Checker checker, ExhaustiveExplainer exhaustive,
            int[] start, long deadlineNanos) {
        return explain(history, level, checker, exhaustive, start, deadlineNanos, MAX_CASES);
    }

    /** As {@link #explain(History, IsolationLevel, Checker, ExhaustiveExplainer, int[], long)}, with at most {@code maxCases} cases. */
    static Explanation explain(History history, IsolationLevel level, Checker checker, ExhaustiveExplainer exhaustive,
            int[] start, long deadlineNanos, int maxCases) {
        SourceCases search = new SourceCases(history, level, checker, exhaustive, deadlineNanos, maxCases);
        Optional<Proof> likely = search.leafUnder(Map.of(), start);
        if (likely.isEmpty()) {
            return new Explanation.Unexplained(level, search.failure);
        }
        // The likeliest case is shown in any event; the others get a time of their own, so that a
        // case analysis too large to finish does not keep a developer waiting for it.
        search.deadline = ViolatingCore.earlier(deadlineNanos, System.nanoTime() + CASES_BUDGET_NANOS);
        Optional<Proof> proof = search.prove(Map.of(), start, 0);
        if (proof.isPresent()) {
            List<TransactionSummary> summaries = Narration.summaries(history, proof.get().involved());
            return new Explanation.Cycles(level, proof.get().cases(), summaries, List.copyOf(proof.get().premises()));
        }
        return search.likelyCase(likely.get());
    }

    /** The likeliest case's proof, with the guesses it rests on as its assumptions. */
    private Explanation.LikelyCase likelyCase(Proof leaf) {
        List<Assumption.ReadFrom> assuming = new ArrayList<>();
        Set<Assumption.UnwrittenInitialValue> premises = new LinkedHashSet<>();
        for (int obs : leaf.used()) {
            assuming.add(saw(obs, guesses.get(obs)));
            unwrittenPremise(obs).ifPresent(premises::add);
        }
        premises.addAll(leaf.premises());
        return new Explanation.LikelyCase(level, assuming, prefixed(assuming, leaf.cases()),
                Narration.summaries(history, leaf.involved()), List.copyOf(premises), failure);
    }

    /** {@code cases}, each assuming {@code first} before what it assumed. */
    private static List<Explanation.Case> prefixed(List<? extends Assumption> first, List<Explanation.Case> cases) {
        List<Explanation.Case> out = new ArrayList<>(cases.size());
        for (Explanation.Case c : cases) {
            List<Assumption> assuming = new ArrayList<>(first);
            assuming.addAll(c.assuming());
            out.add(new Explanation.Case(assuming, c.cycle()));
        }
        return out;
    }

    /**
     * What a conclusion about the observation's source rests on when the initial value is not among
     * its sources only because unknown initial values are read as unwritten ({@link UnwrittenPremises}).
     */
    private Optional<Assumption.UnwrittenInitialValue> unwrittenPremise(int obs) {
        return explanations.initialStateExplains(obs) ? Optional.empty()
                : UnwrittenPremises.of(history, history.transaction(explanations.transaction(obs)), explanations.operation(obs), -1);
    }

    /**
     * A proof for the explanations where each pinned observation saw its pinned source: under
     * these pins and a guess for every other read with several sources ({@link #guesses}), every
     * read depends on one writer, so a small core is found as with unique values; its proof rests
     * on the guesses it used, and for the first of those each other source is a case of its own.
     */
    private Optional<Proof> prove(Map<Integer, Integer> pins, int[] start, int depth) {
        Optional<Proof> leaf = leafUnder(pins, start);
        if (leaf.isEmpty()) {
            return leaf;
        }
        int obs = -1;
        for (int used : leaf.get().used()) {
            if (!pins.containsKey(used)) {
                obs = used;
                break;
            }
        }
        if (obs < 0) {
            return leaf;
        }
        if (depth >= MAX_DEPTH) {
            failure = "the case analysis over which write reads saw needs more than " + MAX_DEPTH + " reads split on one"
                    + " path (" + describe(pins) + ")";
            return Optional.empty();
        }
        int reader = explanations.transaction(obs);
        List<Explanation.Case> cases = new ArrayList<>();
        Set<String> involved = new LinkedHashSet<>();
        Set<Assumption.UnwrittenInitialValue> premises = new LinkedHashSet<>();
        Set<Integer> used = new TreeSet<>();
        // The initial value is not among the cases only because of how unknown ones are read.
        unwrittenPremise(obs).ifPresent(premises::add);
        for (int source : sources(obs)) {
            Map<Integer, Integer> with = new HashMap<>(pins);
            with.put(obs, source);
            int[] widened = Arrays.copyOf(start, start.length + 2);
            widened[start.length] = reader;
            widened[start.length + 1] = source == ExplanationSpace.INITIAL ? reader : source;
            Optional<Proof> sub = prove(with, widened, depth + 1);
            if (sub.isEmpty()) {
                return Optional.empty();
            }
            if (!sub.get().used().contains(obs)) {
                // Its proof holds whatever the read saw: it proves every case.
                return sub;
            }
            cases.addAll(prefixed(List.of(saw(obs, source)), sub.get().cases()));
            if (cases.size() > maxCases) {
                failure = "a case analysis over which write " + readName(obs) + " and other reads saw needs more than "
                        + maxCases + (maxCases == 1 ? " case" : " cases");
                return Optional.empty();
            }
            involved.addAll(sub.get().involved());
            premises.addAll(sub.get().premises());
            used.addAll(sub.get().used());
        }
        used.remove(obs);
        return Optional.of(new Proof(cases, involved, premises, used));
    }

    /** {@link #leaf} under the case's pins and the guesses for every other read, found once per such set. */
    private Optional<Proof> leafUnder(Map<Integer, Integer> pins, int[] start) {
        Map<Integer, Integer> assumed = new HashMap<>(guesses);
        assumed.putAll(pins);
        Optional<Proof> leaf = leaves.get(assumed);
        if (leaf == null) {
            leaf = leaf(assumed, pins, start);
            leaves.put(assumed, leaf);
        }
        return leaf;
    }

    /** The core and proof under a source assumed for every read with several ({@code pins} are the case's). */
    private Optional<Proof> leaf(Map<Integer, Integer> assumed, Map<Integer, Integer> pins, int[] start) {
        Optional<ViolatingCore.Result> core = ViolatingCore.find(history, level, checker, start,
                exhaustive.maxTransactions(), deadline, assumed);
        if (core.isEmpty()) {
            failure = "in " + describe(pins) + ", the search for a violating set of transactions found none in"
                    + " time";
            return Optional.empty();
        }
        if (!core.get().complete()) {
            failure = guesses.isEmpty()
                    ? "explained over up to " + exhaustive.maxTransactions() + " transactions where no read saw a value"
                            + " several transactions wrote, a minimal violating set is larger still"
                    : "in " + describe(pins) + ", a minimal violating set of transactions has more than "
                            + exhaustive.maxTransactions() + " transactions, even with a write assumed for every read";
            return Optional.empty();
        }
        return explainCore(core.get().transactions(), assumed);
    }

    private Optional<Proof> explainCore(int[] core, Map<Integer, Integer> pins) {
        List<String> ids = ViolatingCore.ids(history, core);
        BitSet in = new BitSet(history.size());
        Arrays.stream(core).forEach(in::set);
        Explanation explanation = exhaustive.explain(history, level, ids, pins);
        if (!(explanation instanceof Explanation.Cycles cycles)) {
            String reason = explanation instanceof Explanation.Unexplained u ? u.reason() : "it is not a cycle";
            failure = "in " + describe(pins) + ", the transactions " + String.join(", ", ids)
                    + " violate the level, but " + reason;
            return Optional.empty();
        }
        Set<Integer> used = new TreeSet<>();
        for (Map.Entry<Integer, Integer> pin : pins.entrySet()) {
            int source = pin.getValue();
            if (in.get(explanations.transaction(pin.getKey())) && (source == ExplanationSpace.INITIAL || in.get(source))) {
                used.add(pin.getKey());
            }
        }
        Set<String> involved = new LinkedHashSet<>();
        cycles.transactions().forEach(t -> involved.add(t.id()));
        return Optional.of(new Proof(cycles.cases(), involved, new LinkedHashSet<>(cycles.premises()), used));
    }

    /**
     * Per item observation with several sources, the one guessed: the latest writer that ended
     * before the read's transaction started (without times, that came before it in the history),
     * else the initial state where it can explain the read, else the first writer. A guess decides
     * only how many cases the analysis needs and which case is shown as the likeliest, never what
     * it proves.
     */
    private static Map<Integer, Integer> guesses(History history, ReadExplanations explanations) {
        Map<Integer, Integer> out = new HashMap<>();
        for (int obs = 0; obs < explanations.size(); obs++) {
            int writers = explanations.writerCount(obs);
            boolean initial = explanations.initialStateExplains(obs);
            if (explanations.row(obs) != -1 || writers + (initial ? 1 : 0) < 2) {
                continue;
            }
            Transaction reader = history.transaction(explanations.transaction(obs));
            int best = -1;
            for (int i = 0; i < writers; i++) {
                Transaction w = history.transaction(explanations.writer(obs, i));
                boolean before = w.endTime() != Transaction.NO_TIME && reader.startTime() != Transaction.NO_TIME
                        ? w.endTime() < reader.startTime() : w.index() < reader.index();
                if (before && (best < 0 || later(w, history.transaction(best)))) {
                    best = w.index();
                }
            }
            out.put(obs, best >= 0 ? best : initial ? ExplanationSpace.INITIAL : explanations.writer(obs, 0));
        }
        return out;
    }

    private static boolean later(Transaction a, Transaction b) {
        return a.endTime() != Transaction.NO_TIME && b.endTime() != Transaction.NO_TIME ? a.endTime() > b.endTime()
                : a.index() > b.index();
    }

    /** The sources of an observation: the initial state where it can explain it, then its writers in history order. */
    private int[] sources(int obs) {
        int[] writers = explanations.writers(obs);
        if (!explanations.initialStateExplains(obs)) {
            return writers;
        }
        int[] out = new int[writers.length + 1];
        out[0] = ExplanationSpace.INITIAL;
        System.arraycopy(writers, 0, out, 1, writers.length);
        return out;
    }

    /** The case's assumption: the read saw this source. */
    private Assumption.ReadFrom saw(int obs, int source) {
        Transaction reader = history.transaction(explanations.transaction(obs));
        String key = history.keys().name(explanations.key(obs));
        Optional<String> writer = source == ExplanationSpace.INITIAL ? Optional.empty()
                : Optional.of(history.transaction(source).id());
        String text = readName(obs) + " was " + writer.map(w -> w + "'s write").orElse("the initial value");
        return new Assumption.ReadFrom(Narration.operation(history, reader, explanations.operation(obs), -1), key, writer,
                true, text);
    }

    /** "the x = 1 that T7 read". */
    private String readName(int obs) {
        return "the " + history.keys().name(explanations.key(obs)) + " = "
                + history.values().get(explanations.value(obs)) + " that "
                + history.transaction(explanations.transaction(obs)).id() + " read";
    }

    private String describe(Map<Integer, Integer> pins) {
        if (pins.isEmpty()) {
            return guesses.isEmpty() ? "the history" : "the likeliest case";
        }
        List<String> parts = new ArrayList<>();
        new TreeSet<>(pins.keySet()).forEach(obs -> parts.add(saw(obs, pins.get(obs)).text()));
        return "the case where " + String.join(" and ", parts);
    }
}
