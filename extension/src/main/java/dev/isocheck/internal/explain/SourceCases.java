package dev.isocheck.internal.explain;

import dev.isocheck.IsolationLevel;
import dev.isocheck.explain.Assumption;
import dev.isocheck.explain.Explanation;
import dev.isocheck.explain.TransactionSummary;
import dev.isocheck.history.History;
import dev.isocheck.history.Transaction;
import dev.isocheck.internal.engine.Checker;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
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
 * the read is kept as soon as T3 is in the set, and the other writers of its value can go. The
 * reads pinned are those of {@link PinnableReads}: item reads, the rows predicate reads returned,
 * and the keys they left out (each saw a version its predicate does not select); and the engine
 * decides each restriction under the pins it keeps (solving under those assumptions), so that a
 * pinned read is taken to have seen its source even where its other writers are in the set.
 *
 * <p>How: first the likeliest case. Every read with several sources is guessed to have seen one
 * ({@link #guesses}); with all of them pinned, every read depends on one writer and a small core
 * is found as with unique values. The pins within the core are then narrowed to those the engine
 * needs for the core to stay violated (QuickXplain over the pins, preferring the case's own), and
 * the core is explained over the explanations where those hold; its proof rests on them. Then,
 * for the first guess a proof rests on that its case did not make, each source of that read (each
 * committed transaction whose installed version it may have seen, and the initial state where it
 * can be one) is a case of its own: a proof found earlier that rests only on the case's pins is
 * taken again; otherwise the case's core is searched near the one found (the core, and every write
 * the guessed reads may have seen), the engine solving under the case's pins alone, whose proof
 * needs no further split; otherwise with that pin and the other guesses, splitting again, to a
 * depth of {@value #MAX_DEPTH} and at most {@value #MAX_CASES} cases. A case whose proof does not
 * rest on its pin (its core leaves the pinned read or its source out, or does without the pin)
 * proves every case, and stands alone. When the analysis does not finish in its time, the
 * likeliest case is answered alone ({@link Explanation.LikelyCase}).
 *
 * <p>Sound: the cases cover every source of the read (every explanation of the whole history
 * makes the read see one of them: the engine's candidates), and each case's proof is over the
 * explanations where the pins it rests on hold ({@link ViolatingCore#find(History, IsolationLevel,
 * Checker, int[], int, long, Map)}, {@link ExplanationSpace#of(History, IsolationLevel, int[], Map)}),
 * which each resulting case states among its assumptions. Not thread-safe: one instance per
 * explanation.
 */
final class SourceCases {

    /** The most reads split on the way to one case. */
    static final int MAX_DEPTH = 10;
    /** The most cases an analysis may end with. */
    static final int MAX_CASES = 64;
    /**
     * How many more transactions than the exhaustive explainer's bound a case is explained over:
     * with a write assumed for every read, only the orders of versions are left to enumerate.
     */
    static final int LEAF_EXTRA = 14;
    /**
     * How long the case analysis may take once the likeliest case is found, unless the caller sets
     * a time ({@link #explain(History, IsolationLevel, Checker, ExhaustiveExplainer, int[], long, int, OptionalLong)}).
     */
    static final long CASES_BUDGET_NANOS = 1_000_000_000L;
    /** The most an attempt to explain a core that may fail takes of the exhaustive explainer. */
    static final long OPTIONAL_EXPLAIN_NANOS = 250_000_000L;
    /** The most a case's search for a core among the transactions near its guessed one may take. */
    static final long PINNED_SHARE_NANOS = 300_000_000L;

    private final History history;
    private final IsolationLevel level;
    private final Checker checker;
    private final ExhaustiveExplainer exhaustive;
    private long deadline;
    private final int maxCases;
    private final PinnableReads reads;
    private final Map<Integer, Integer> guesses;
    /** The proofs found per set of assumed sources: a case whose pins the guesses already made finds the same. */
    private final Map<Map<Integer, Integer>, Optional<Proof>> leaves = new HashMap<>();
    /** Every proof found so far: one resting on pins a later case also makes proves that case too. */
    private final List<Proof> proofs = new ArrayList<>();
    private String failure = "";
    private final Map<String, int[]> tables = new HashMap<>();

    /**
     * A proof under some pins.
     *
     * @param cases    its cases, each stating the pins it rests on that the caller did not add
     * @param involved the ids of the transactions on its cycles
     * @param premises what its reads rest on ({@link Explanation#premises()})
     * @param used     the pinned observations it rests on
     * @param usedPins the source each of {@code used} was pinned to
     * @param split    the observations it splits on (the pins its cases add)
     * @param core     for a proof from one core, its transactions; else empty
     */
    private record Proof(List<Explanation.Case> cases, Set<String> involved, Set<Assumption.UnwrittenInitialValue> premises,
            Set<Integer> used, Map<Integer, Integer> usedPins, Set<Integer> split, int[] core) {
    }

    private SourceCases(History history, IsolationLevel level, Checker checker, ExhaustiveExplainer exhaustive,
            long deadline, int maxCases) {
        this.maxCases = maxCases;
        this.history = history;
        this.level = level;
        this.checker = checker;
        this.exhaustive = exhaustive;
        this.deadline = deadline;
        this.reads = PinnableReads.of(history);
        this.guesses = guesses(history, reads);
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
        return explain(history, level, checker, exhaustive, start, deadlineNanos, maxCases, OptionalLong.empty());
    }

    /**
     * As {@link #explain(History, IsolationLevel, Checker, ExhaustiveExplainer, int[], long, int)}, the
     * cases searched until {@code answerByNanos} (a {@link System#nanoTime()}) when given, else for
     * {@value #CASES_BUDGET_NANOS} ns after the likeliest case is found.
     */
    static Explanation explain(History history, IsolationLevel level, Checker checker, ExhaustiveExplainer exhaustive,
            int[] start, long deadlineNanos, int maxCases, OptionalLong answerByNanos) {
        SourceCases search = new SourceCases(history, level, checker, exhaustive, deadlineNanos, maxCases);
        Optional<Proof> likely = search.leafUnder(Map.of(), start);
        if (likely.isEmpty()) {
            return new Explanation.Unexplained(level, search.failure);
        }
        // The likeliest case is shown in any event; the others get a time of their own, so that a
        // case analysis too large to finish does not keep a developer waiting for it.
        search.deadline = ViolatingCore.earlier(deadlineNanos,
                answerByNanos.orElse(System.nanoTime() + CASES_BUDGET_NANOS));
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
        if (reads.isUnreturned(obs) || reads.explanations().initialStateExplains(obs)) {
            // A key a predicate read left out may always have been the unknown initial one.
            return Optional.empty();
        }
        return UnwrittenPremises.of(history, history.transaction(reads.transaction(obs)), reads.operation(obs), reads.row(obs));
    }

    /**
     * A proof for the explanations where each pinned read saw its pinned source: one found before
     * that rests on these pins only; else under these pins and a guess for every other read with
     * several sources ({@link #guesses}), where every read depends on one writer, so a small core is
     * found as with unique values. When that proof rests on guesses, a core under the pins alone,
     * near the one found; failing that, for the first guess it rests on, each source of that read
     * is a case of its own.
     */
    private Optional<Proof> prove(Map<Integer, Integer> pins, int[] start, int depth) {
        for (Proof known : proofs) {
            if (holdsUnder(known, pins)) {
                return Optional.of(known);
            }
        }
        Optional<Proof> leaf = leafUnder(pins, start);
        if (leaf.isEmpty()) {
            return leaf;
        }
        List<Integer> guessed = new ArrayList<>();
        for (int used : leaf.get().used()) {
            if (!pins.containsKey(used)) {
                guessed.add(used);
            }
        }
        if (guessed.isEmpty()) {
            return remember(leaf.get());
        }
        if (!pins.isEmpty()) {
            // Before splitting on a guess: a core under the case's pins alone, the engine solving
            // under them, searched first among the guessed core and every write the guessed
            // reads may have seen. Its proof needs no further split.
            int[] seeded = seeded(start, leaf.get().core(), guessed);
            Optional<Proof> alone = pinnedLeaf(pins, seeded);
            if (alone.isPresent()) {
                return remember(alone.get());
            }
        }
        int obs = guessed.get(0);
        if (depth >= MAX_DEPTH) {
            failure = "the case analysis over which write reads saw needs more than " + MAX_DEPTH + " reads split on one"
                    + " path (" + describe(pins) + ")";
            return Optional.empty();
        }
        int reader = reads.transaction(obs);
        List<Explanation.Case> cases = new ArrayList<>();
        Set<String> involved = new LinkedHashSet<>();
        Set<Assumption.UnwrittenInitialValue> premises = new LinkedHashSet<>();
        Set<Integer> used = new TreeSet<>();
        Set<Integer> split = new TreeSet<>();
        split.add(obs);
        // The initial value is not among the cases only because of how unknown ones are read.
        unwrittenPremise(obs).ifPresent(premises::add);
        for (int source : sources(obs)) {
            Map<Integer, Integer> with = new HashMap<>(pins);
            with.put(obs, source);
            // The search for the case's core starts near the one found here.
            int[] core = leaf.get().core();
            int[] widened = Arrays.copyOf(start, start.length + 2 + core.length);
            widened[start.length] = reader;
            widened[start.length + 1] = source == ExplanationSpace.INITIAL ? reader : source;
            System.arraycopy(core, 0, widened, start.length + 2, core.length);
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
            split.addAll(sub.get().split());
        }
        used.remove(obs);
        Map<Integer, Integer> usedPins = new HashMap<>();
        used.forEach(o -> usedPins.put(o, pins.get(o)));
        return remember(new Proof(cases, involved, premises, used, usedPins, split, new int[0]));
    }

    /**
     * Whether a proof found in another case holds in the case of these pins: every pin it rests on
     * is one of them, and it split on none of them (its cases would then include impossible ones).
     */
    private static boolean holdsUnder(Proof proof, Map<Integer, Integer> pins) {
        for (Map.Entry<Integer, Integer> pin : proof.usedPins().entrySet()) {
            if (!pin.getValue().equals(pins.get(pin.getKey()))) {
                return false;
            }
        }
        for (int obs : proof.split()) {
            if (pins.containsKey(obs)) {
                return false;
            }
        }
        return true;
    }

    private Optional<Proof> remember(Proof proof) {
        proofs.add(proof);
        return Optional.of(proof);
    }

    /** {@code start}, then a guessed core, then every writer the guessed reads may have seen. */
    private int[] seeded(int[] start, int[] core, List<Integer> guessed) {
        Set<Integer> out = new LinkedHashSet<>();
        Arrays.stream(start).forEach(out::add);
        Arrays.stream(core).forEach(out::add);
        for (int obs : guessed) {
            for (int source : reads.sources(obs)) {
                if (source != ExplanationSpace.INITIAL) {
                    out.add(source);
                }
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * The proof of a case from a core under the case's pins alone, the engine solving under them
     * (no read guessed): its proof rests on those pins only. Searched for a share of the time left.
     */
    private Optional<Proof> pinnedLeaf(Map<Integer, Integer> pins, int[] start) {
        long slice = ViolatingCore.earlier(deadline, System.nanoTime() + PINNED_SHARE_NANOS);
        Optional<ViolatingCore.Result> core = ViolatingCore.findWithin(history, level, checker, start,
                exhaustive.maxTransactions(), slice, pins);
        if (core.isEmpty() || !core.get().complete()) {
            return Optional.empty();
        }
        String before = failure;
        int[] transactions = core.get().transactions();
        // The pins its proof does not need are left out of it: a case whose proof does not need
        // the read it splits on proves every case.
        Map<Integer, Integer> needed = neededPins(transactions, pins, pins);
        Optional<Proof> proof = needed != null ? explainCore(transactions, needed, true, pins) : Optional.empty();
        if (proof.isEmpty()) {
            proof = explainCore(transactions, pins, true, pins);
        }
        if (proof.isEmpty()) {
            failure = before;
        }
        return proof;
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
        int[] transactions = core.get().transactions();
        Map<Integer, Integer> needed = neededPins(transactions, assumed, pins);
        if (needed != null && needed.size() < within(transactions, assumed).size()) {
            String before = failure;
            Optional<Proof> fewer = explainCore(transactions, needed, true, pins);
            if (fewer.isPresent()) {
                return fewer;
            }
            failure = before;
        }
        return explainCore(transactions, assumed, false, pins);
    }

    /** The pins among {@code assumed} whose read and source are both in {@code core}: all a proof over it can rest on. */
    private Map<Integer, Integer> within(int[] core, Map<Integer, Integer> assumed) {
        BitSet in = new BitSet(history.size());
        Arrays.stream(core).forEach(in::set);
        Map<Integer, Integer> out = new HashMap<>();
        for (Map.Entry<Integer, Integer> pin : assumed.entrySet()) {
            int source = pin.getValue();
            if (in.get(reads.transaction(pin.getKey())) && (source == ExplanationSpace.INITIAL || in.get(source))) {
                out.put(pin.getKey(), source);
            }
        }
        return out;
    }

    /**
     * A minimal set of the pins within {@code core} under which the engine still finds the core's
     * restriction violated ({@link ViolatingCore#violated}: solving under those assumptions), found
     * by QuickXplain preferring the case's own pins, then the guesses; {@code null} if the check
     * under all of them does not say violated in time. Fewer pins make fewer reads to split on,
     * and a case whose proof does not need its own pin proves every case.
     */
    private Map<Integer, Integer> neededPins(int[] core, Map<Integer, Integer> assumed, Map<Integer, Integer> casePins) {
        Map<Integer, Integer> all = within(core, assumed);
        List<Integer> order = new ArrayList<>(new TreeSet<>(all.keySet()));
        // QuickXplain keeps early elements rather than late ones: the case's pins first.
        order.sort((a, b) -> Boolean.compare(!casePins.containsKey(a), !casePins.containsKey(b)));
        try {
            if (!pinsViolated(core, all, List.of(), order)) {
                return null;
            }
            List<Integer> kept = pinXplain(core, all, new ArrayList<>(), false, order);
            Map<Integer, Integer> out = new HashMap<>();
            kept.forEach(obs -> out.put(obs, all.get(obs)));
            return out;
        } catch (PinsOutOfTime e) {
            return null;
        }
    }

    private List<Integer> pinXplain(int[] core, Map<Integer, Integer> all, List<Integer> background, boolean added,
            List<Integer> candidates) {
        if (added && pinsViolated(core, all, background, List.of())) {
            return List.of();
        }
        if (candidates.size() == 1) {
            return candidates;
        }
        if (candidates.isEmpty()) {
            return List.of();
        }
        int half = candidates.size() / 2;
        List<Integer> first = candidates.subList(0, half);
        List<Integer> second = candidates.subList(half, candidates.size());
        List<Integer> withFirst = new ArrayList<>(background);
        withFirst.addAll(first);
        List<Integer> fromSecond = pinXplain(core, all, withFirst, true, second);
        List<Integer> withSecond = new ArrayList<>(background);
        withSecond.addAll(fromSecond);
        List<Integer> fromFirst = pinXplain(core, all, withSecond, !fromSecond.isEmpty(), first);
        List<Integer> both = new ArrayList<>(fromFirst);
        both.addAll(fromSecond);
        return both;
    }

    private boolean pinsViolated(int[] core, Map<Integer, Integer> all, List<Integer> some, List<Integer> more) {
        if (System.nanoTime() - deadline >= 0) {
            throw new PinsOutOfTime();
        }
        Map<Integer, Integer> pins = new HashMap<>();
        some.forEach(obs -> pins.put(obs, all.get(obs)));
        more.forEach(obs -> pins.put(obs, all.get(obs)));
        return ViolatingCore.violated(level, checker, reads, core, pins, tables, deadline);
    }

    /** Unwinds the search for needed pins at the deadline. */
    private static final class PinsOutOfTime extends RuntimeException {
        PinsOutOfTime() {
            super(null, null, false, false);
        }
    }

    /**
     * The proof of {@code core} over the explanations where {@code pins} hold, by the exhaustive
     * explainer; an attempt that may fail (with fewer pins than a sure one, or from a core under
     * the case's pins alone) gets at most {@value #OPTIONAL_EXPLAIN_NANOS} ns of it. A failure is
     * described by the case's own pins ({@code casePins}), not by every guess.
     */
    private Optional<Proof> explainCore(int[] core, Map<Integer, Integer> pins, boolean optional,
            Map<Integer, Integer> casePins) {
        List<String> ids = ViolatingCore.ids(history, core);
        BitSet in = new BitSet(history.size());
        Arrays.stream(core).forEach(in::set);
        long until = optional ? ViolatingCore.earlier(deadline, System.nanoTime() + OPTIONAL_EXPLAIN_NANOS) : deadline;
        Explanation explanation = exhaustive.explain(history, level, ids, pins, OptionalLong.of(until));
        if (!(explanation instanceof Explanation.Cycles cycles)) {
            String reason = explanation instanceof Explanation.Unexplained u ? u.reason() : "it is not a cycle";
            failure = "in " + describe(casePins) + ", the transactions " + String.join(", ", ids)
                    + " violate the level, but " + reason;
            return Optional.empty();
        }
        Set<Integer> used = new TreeSet<>();
        for (Map.Entry<Integer, Integer> pin : pins.entrySet()) {
            int source = pin.getValue();
            if (in.get(reads.transaction(pin.getKey())) && (source == ExplanationSpace.INITIAL || in.get(source))) {
                used.add(pin.getKey());
            }
        }
        Set<String> involved = new LinkedHashSet<>();
        cycles.transactions().forEach(t -> involved.add(t.id()));
        Map<Integer, Integer> usedPins = new HashMap<>();
        used.forEach(o -> usedPins.put(o, pins.get(o)));
        return Optional.of(new Proof(cycles.cases(), involved, new LinkedHashSet<>(cycles.premises()), used, usedPins,
                Set.of(), core));
    }

    /**
     * Per read with several sources ({@link PinnableReads}: item reads, rows predicate reads
     * returned, keys they left out), the one guessed: the latest writer that ended before the
     * read's transaction started (without times, that came before it in the history), else the
     * initial state where it can be the source, else the first writer. A guess decides only how many
     * cases the analysis needs and which case is shown as the likeliest, never what it proves.
     */
    private static Map<Integer, Integer> guesses(History history, PinnableReads reads) {
        Map<Integer, Integer> out = new HashMap<>();
        for (int obs = 0; obs < reads.size(); obs++) {
            int[] sources = reads.sources(obs);
            if (sources.length < 2) {
                continue;
            }
            Transaction reader = history.transaction(reads.transaction(obs));
            int best = -1;
            for (int source : sources) {
                if (source == ExplanationSpace.INITIAL) {
                    continue;
                }
                Transaction w = history.transaction(source);
                boolean before = w.endTime() != Transaction.NO_TIME && reader.startTime() != Transaction.NO_TIME
                        ? w.endTime() < reader.startTime() : w.index() < reader.index();
                if (before && (best < 0 || later(w, history.transaction(best)))) {
                    best = w.index();
                }
            }
            out.put(obs, best >= 0 ? best : sources[0]);
        }
        return out;
    }

    private static boolean later(Transaction a, Transaction b) {
        return a.endTime() != Transaction.NO_TIME && b.endTime() != Transaction.NO_TIME ? a.endTime() > b.endTime()
                : a.index() > b.index();
    }

    /** The sources of a read: the initial state where it can be one, then its writers in history order. */
    private int[] sources(int obs) {
        return reads.sources(obs);
    }

    /** The case's assumption: the read saw this source. */
    private Assumption.ReadFrom saw(int obs, int source) {
        Transaction reader = history.transaction(reads.transaction(obs));
        String key = history.keys().name(reads.key(obs));
        Optional<String> writer = source == ExplanationSpace.INITIAL ? Optional.empty()
                : Optional.of(history.transaction(source).id());
        if (reads.isUnreturned(obs)) {
            String text = readName(obs) + " was " + writer.map(w -> w + "'s").orElse("the initial one");
            return new Assumption.ReadFrom(Narration.unreturned(history, reader, reads.operation(obs), reads.key(obs)), key,
                    writer, true, text);
        }
        String text = readName(obs) + " was " + writer.map(w -> w + "'s write").orElse("the initial value");
        return new Assumption.ReadFrom(Narration.operation(history, reader, reads.operation(obs), reads.row(obs)), key, writer,
                true, text);
    }

    /** "the x = 1 that T7 read". */
    private String readName(int obs) {
        Transaction reader = history.transaction(reads.transaction(obs));
        String key = history.keys().name(reads.key(obs));
        if (reads.row(obs) == -1) {
            return "the " + key + " = " + history.values().get(reads.value(obs)) + " that " + reader.id() + " read";
        }
        dev.isocheck.history.PredicateRead read = reader.predicate(reads.operation(obs));
        String query = reader.id() + "'s read of " + read.table() + " where " + read.where();
        return reads.isUnreturned(obs) ? "the version of " + key + " that " + query + " left out"
                : "the " + key + " = " + history.values().get(reads.value(obs)) + " that " + query + " returned";
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
