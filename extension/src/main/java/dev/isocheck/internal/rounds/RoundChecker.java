package dev.isocheck.internal.rounds;

import dev.isocheck.CheckResult;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.InitialState;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.Session;
import dev.isocheck.history.Transaction;
import dev.isocheck.history.UnknownInitialValues;
import dev.isocheck.history.Value;
import dev.isocheck.history.ValueTable;
import dev.isocheck.internal.graph.ReadExplanations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.BiFunction;

/**
 * Checks a history a batch at a time, holding only what later rounds can need.
 *
 * <p>Each {@link #round} checks, at strict serializability, the stubs and transactions kept from
 * the rounds before together with the batch: the transactions that had not ended by the watermark
 * with their writes only (a read of theirs may yet see a later transaction). Then it folds away
 * ({@code Fold}) the transactions every valid order of the whole history can put first, leaving
 * stubs ({@code FoldedState}) of what they wrote last. A violation a round finds is one of the
 * whole history; a history whose every round is satisfied is strictly serializable, unless keys
 * were let go (the result's caveats say so) (the proof: {@code docs/semantics.md}, "Checking in
 * rounds"). After a violation the rounds go on, with the reads of the transactions it involved
 * left out, so that it is not found again and later ones still are.
 *
 * <p>Strict serializability implies every weaker level. A violation of it found in a round is one
 * of a weaker level only if some of the transactions involved violate that level with reads that
 * nothing else could have given their values ({@link WeakerViolation}); which can be known only once
 * every later write was seen, so such a candidate is decided at {@link #finish}. Where none is, the
 * result at the weaker level is unknown, with the violation of strict serializability in its reason.
 */
public final class RoundChecker {

    /** What the rounds did: for the command's report and the benchmarks. */
    public record Stats(int rounds, long transactions, long committed, int peakHeld, long stubOperations, int held,
            int violations) {
    }

    /**
     * A violation a round found: the round (from 1), the result with its explanation, and the
     * history the round checked, whose first transactions are stubs of what earlier rounds folded
     * (a history that shows the violation again when checked alone).
     */
    public record Found(int round, CheckResult result, History checked) {
    }

    /** Past this many transactions held, a round folds keys whose last writer is undecided (by default). */
    public static final int DEFAULT_MAX_HELD = 200_000;

    /** At most this many candidate violations of a weaker level are held for the last round to decide. */
    static final int MAX_CANDIDATES = 8;
    /** A round of at most this many transactions is checked whole at a weaker level when a violation's own transactions show nothing there. */
    static final int MAX_WHOLE_ROUND_CANDIDATE = 20_000;
    /** At most this many rounds are checked whole at a weaker level in one run. */
    static final int MAX_WHOLE_ROUND_TRIES = 16;

    private final IsolationLevel level;
    private final BiFunction<History, IsolationLevel, CheckResult> check;
    /** What folds forgot; only below strict serializability, where a candidate violation asks it. */
    private final ForgottenWrites forgotten;
    private final List<WeakerViolation> candidates = new ArrayList<>();
    private int wholeRoundTries;
    private Map<String, Value> initialValues;
    private boolean complete;
    private UnknownInitialValues unknownValues;
    private final int maxHeld;
    private final FoldedState state = new FoldedState();
    private final Set<String> quarantined = new HashSet<>();
    /** Every key a transaction of an earlier batch touched: a later batch may not declare its initial value. */
    private final Set<String> touchedBefore = new HashSet<>();
    private final List<String> caveats = new ArrayList<>();
    private long undecidedKeys;
    private History kept;
    private int[] keptIndexes = new int[0];
    private long watermark = Long.MIN_VALUE;
    private long folds;
    private int rounds;
    private long transactions;
    private long committed;
    private int peakHeld;
    private int violations;
    private CheckResult firstViolation;
    private Found firstFound;
    /** The violation the result of {@link #finish} is, below strict serializability: a candidate confirmed. */
    private Found violation;
    private String undecided;
    private Duration checking = Duration.ZERO;
    private Consumer<Found> onViolation = found -> { };
    /** The keys left out of every round from now on: their operations are dropped from what is kept too. */
    private java.util.function.Predicate<String> leftOut = key -> false;
    /** The history of the first round that could not decide; {@code null} when none. */
    private History undecidedRound;

    /**
     * Rounds that answer at {@code level}: {@code check} checks a history at a level and explains
     * what it finds; each round is checked at strict serializability, and a candidate violation of a
     * weaker {@code level} at that level.
     */
    public RoundChecker(IsolationLevel level, BiFunction<History, IsolationLevel, CheckResult> check) {
        this(level, check, DEFAULT_MAX_HELD);
    }

    /**
     * As {@link #RoundChecker(IsolationLevel, BiFunction)}; past {@code maxHeld} transactions held, a
     * round also folds keys whose last writer no known order decided, letting later rounds take any
     * of their writers as last: memory stays bounded, and the result says that the check was weaker
     * there (a missed violation is possible, a false one is not).
     */
    public RoundChecker(IsolationLevel level, BiFunction<History, IsolationLevel, CheckResult> check, int maxHeld) {
        this.level = Objects.requireNonNull(level, "level is null");
        this.check = Objects.requireNonNull(check, "check is null");
        if (maxHeld < 1) {
            throw new IllegalArgumentException("maxHeld must be positive, not " + maxHeld);
        }
        this.maxHeld = maxHeld;
        this.forgotten = level == IsolationLevel.STRICT_SERIALIZABLE ? null : new ForgottenWrites();
        if (forgotten != null) {
            state.onForget(forgotten::add);
        }
    }

    /**
     * Checks one more batch. Every transaction of it must start at or after the watermark of the
     * round before; {@code watermark} promises that every transaction of later batches starts at or
     * after it.
     *
     * @throws RoundInputException if the batch breaks the promise of an earlier round, or has what
     *                             rounds cannot check (a transaction without times, a predicate read)
     */
    public void round(History batch, long watermark) {
        Objects.requireNonNull(batch, "batch is null");
        initialState(batch);
        for (Transaction t : batch.transactions()) {
            if (t.start().isEmpty() || t.end().isEmpty()) {
                throw new RoundInputException("transaction " + t.id() + " has no " + (t.start().isEmpty() ? "start" : "end")
                        + " time: checking in rounds needs every transaction's start and end");
            }
            if (t.hasPredicateReads()) {
                throw new RoundInputException("transaction " + t.id() + " has a predicate read: checking in rounds does not"
                        + " fold predicate reads yet; check the history whole");
            }
            if (t.startTime() < this.watermark) {
                throw new RoundInputException("transaction " + t.id() + " starts at " + t.startTime() + ", before "
                        + this.watermark + ", the time up to which earlier rounds had every transaction that started:"
                        + " the history is not in the order transactions ended, or a transaction ran longer than the"
                        + " rounds look back");
            }
        }
        long w = Math.max(watermark, this.watermark);
        // A candidate of an earlier round hears of every later write: one may have given its reads.
        if (!candidates.isEmpty()) {
            for (Transaction t : batch.transactions()) {
                for (int op = 0; op < t.size(); op++) {
                    if (t.kind(op) == OpKind.WRITE) {
                        String key = batch.keys().name(t.key(op));
                        Value value = batch.values().get(t.value(op));
                        candidates.forEach(c -> c.laterWrite(key, value));
                    }
                }
            }
        }
        Set<String> touched = new HashSet<>();
        for (int i : keptIndexes) {
            touch(touched, kept, kept.transaction(i));
        }
        for (Transaction t : batch.transactions()) {
            touch(touched, batch, t);
        }
        HistoryBuilder builder = newBuilder(touched);
        // The kept transactions' keys are there already: this adds the batch's.
        touchedBefore.addAll(touched);
        int stubCount = state.addStubs(builder, touched);
        for (int i : keptIndexes) {
            copy(builder, kept, kept.transaction(i));
        }
        for (Transaction t : batch.transactions()) {
            copy(builder, batch, t);
        }
        History full = builder.build();
        transactions += batch.size();
        committed += batch.committedCount();
        peakHeld = Math.max(peakHeld, full.size());
        int[] all = new int[full.size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        long readsUntil = w;
        History checked = full.restrictedTo(all, (t, op) -> t.kind(op) != OpKind.READ
                || t.index() < stubCount || (t.endTime() < readsUntil && !quarantined.contains(t.id())));
        CheckResult result = check.apply(checked, IsolationLevel.STRICT_SERIALIZABLE);
        rounds++;
        checking = checking.plus(result.checkDuration());
        if (result.verdict() instanceof Verdict.Violated violated) {
            violations++;
            Found found = new Found(rounds, result, checked);
            if (firstViolation == null) {
                firstViolation = result;
                // Below strict serializability its round is the history of an undecided result;
                // at strict serializability the listener has it, and a long run need not hold it.
                firstFound = forgotten == null ? null : found;
            }
            quarantined.addAll(violated.anomaly().transactions());
            if (forgotten == null) {
                onViolation.accept(found);
            } else if (candidates.size() < MAX_CANDIDATES) {
                weakerCandidate(full, stubCount, violated.anomaly().transactions(), touched);
            }
        } else if (result.verdict() instanceof Verdict.Unknown unknown && undecided == null) {
            undecided = "round " + rounds + ": " + unknown.reason();
            undecidedRound = checked;
        }
        ReadExplanations explanations = ReadExplanations.of(checked);
        boolean overfull = full.size() - stubCount > maxHeld;
        // Past the bound, or where a violation found already involves them, a key's undecided last
        // writers fold too: both weaken the check, never make one up.
        Fold fold = Fold.of(full, stubCount, KnownOrder.of(full, explanations), w, writers -> overfull
                || writers.stream().anyMatch(t -> quarantined.contains(full.transaction(t).id())));
        keepWhatFoldLeaves(full, stubCount, fold, explanations, w);
        List<Integer> stillKept = new ArrayList<>();
        for (int i = stubCount; i < full.size(); i++) {
            if (!fold.folded[i]) {
                stillKept.add(i);
            } else {
                quarantined.remove(full.transaction(i).id());
            }
        }
        kept = full;
        keptIndexes = stillKept.stream().mapToInt(Integer::intValue).toArray();
        this.watermark = w;
    }

    /**
     * Keeps the candidate violation of the weaker level that a violation of strict serializability
     * found in this round points to, if it violates that level with what is known now (later writes
     * can only make fewer of its reads sure, never more): first the transactions of the violation
     * with the writers of what they read; failing that, the whole round's (the violation of the
     * weaker level may be another cycle than the one found, which real time may have closed), where
     * the round is small enough to check again.
     */
    private void weakerCandidate(History full, int stubCount, List<String> involved, Set<String> touched) {
        // The whole round is a check as long as the round's own: a few tries at most in a long run.
        List<List<String>> tries = new ArrayList<>();
        if (!involved.isEmpty()) {
            tries.add(involved);
        }
        if (full.size() <= MAX_WHOLE_ROUND_CANDIDATE && wholeRoundTries < MAX_WHOLE_ROUND_TRIES) {
            tries.add(List.of());
        }
        for (List<String> transactions : tries) {
            WeakerViolation candidate = WeakerViolation.of(rounds, full, stubCount, transactions, forgotten,
                    newBuilder(touched), this::copy);
            if (candidate == null) {
                continue;
            }
            History now = candidate.history(leftOut);
            CheckResult atLevel = check.apply(now, level);
            checking = checking.plus(atLevel.checkDuration());
            if (atLevel.verdict().isViolated()) {
                candidates.add(candidate);
                onViolation.accept(new Found(rounds, atLevel, now));
                return;
            }
            if (transactions.isEmpty()) {
                wholeRoundTries++;
            }
        }
    }

    /**
     * Checks what is left (every transaction has ended) and answers for the whole history.
     *
     * @return never {@code null}
     */
    public CheckResult finish() {
        if (initialValues == null || keptIndexes.length > 0 || rounds == 0) {
            History empty = History.builder().initialStateComplete(initialValues == null || complete)
                    .unknownInitialValues(initialValues == null ? UnknownInitialValues.UNWRITTEN : unknownValues).build();
            round(empty, Long.MAX_VALUE);
        }
        if (firstViolation != null) {
            if (level == IsolationLevel.STRICT_SERIALIZABLE) {
                return firstViolation;
            }
            // Every write has been heard of: a candidate that still violates the level decides it.
            for (WeakerViolation candidate : candidates) {
                History h = candidate.history(leftOut);
                CheckResult atLevel = check.apply(h, level);
                checking = checking.plus(atLevel.checkDuration());
                if (atLevel.verdict().isViolated()) {
                    violation = new Found(candidate.round(), atLevel, h);
                    return atLevel;
                }
            }
            Verdict.Violated strict = (Verdict.Violated) firstViolation.verdict();
            return new CheckResult(new Verdict.Unknown(level, "not strictly serializable: " + strict.anomaly().explanation()
                    + " (checking in rounds decides " + level + " where the history is strictly serializable, or where"
                    + " the transactions of a violation found, with the writes their reads may have seen, violate "
                    + level + " too: none did; a check of the whole history decides " + level + ")"),
                    Optional.empty(), checking, Duration.ZERO);
        }
        if (undecided != null) {
            return new CheckResult(new Verdict.Unknown(level, undecided), Optional.empty(), checking, Duration.ZERO);
        }
        List<String> said = new ArrayList<>(caveats);
        if (undecidedKeys > caveats.size()) {
            said.add("and " + (undecidedKeys - caveats.size()) + " more keys so");
        }
        return new CheckResult(new Verdict.Satisfied(level, List.of(), said), Optional.empty(), checking, Duration.ZERO);
    }

    /**
     * Tells {@code listener} of each violation a round finds, as it finds it: to fail a long run
     * early, or count what it found. At strict serializability each is one of the whole history, the
     * first the result's; at a weaker level each is a candidate that violates the level with what is
     * known then, which only a write of a later round could still explain away.
     */
    public RoundChecker onViolation(Consumer<Found> listener) {
        this.onViolation = Objects.requireNonNull(listener, "listener is null");
        return this;
    }

    /** What the rounds so far did. */
    public Stats stats() {
        return new Stats(rounds, transactions, committed, peakHeld, state.size(), keptIndexes.length, violations);
    }

    /**
     * Leaves the keys {@code keys} accepts out of this round and every later one: their operations
     * are dropped from the transactions kept and from every batch, and their stubs are no longer
     * added. For a source that learns that what it gave of some keys cannot be trusted (a recorder
     * that could not see a table's writes exactly): dropping operations only relaxes constraints,
     * so a later round's violation is one of the history without those keys.
     */
    public void leaveOut(java.util.function.Predicate<String> keys) {
        leftOut = leftOut.or(Objects.requireNonNull(keys, "keys is null"));
    }

    /** The history of the first round that could not decide, to check again alone. */
    public Optional<History> undecidedRound() {
        return Optional.ofNullable(undecidedRound);
    }

    /** The first violation of strict serializability found so far, explained. */
    public Optional<CheckResult> firstViolation() {
        return Optional.ofNullable(firstViolation);
    }

    /**
     * Below strict serializability, the first violation of strict serializability found so far,
     * with its round's history (at strict serializability {@link #onViolation} hears of it).
     */
    public Optional<Found> firstFound() {
        return Optional.ofNullable(firstFound);
    }

    /**
     * After {@link #finish}, below strict serializability, the violation its result is, with the
     * history that shows it: the transactions of the violation that decided it, with the reads
     * whose sources are sure. Empty when none (at strict serializability the result's violation is
     * the first {@link #onViolation} heard of).
     */
    public Optional<Found> violation() {
        return Optional.ofNullable(violation);
    }

    /**
     * Takes the initial values {@code batch} declares: the first batch says whether the initial
     * state is complete and what unknown values may be; each batch may declare the initial values
     * of more keys (a generator's keys as it comes to them), none in contradiction with another's.
     */
    private void initialState(History batch) {
        InitialState state = batch.initialState();
        if (initialValues == null) {
            initialValues = new HashMap<>();
            complete = state.isComplete();
            unknownValues = state.unknownValues();
        } else if (state.isComplete() != complete || state.unknownValues() != unknownValues) {
            throw new RoundInputException("a batch declares the initial state " + (state.isComplete() ? "complete" : "incomplete")
                    + " with unknown values " + state.unknownValues() + "; the first declared it "
                    + (complete ? "complete" : "incomplete") + " with unknown values " + unknownValues);
        }
        for (int key = 0; key < batch.keys().size(); key++) {
            int value = state.valueOf(key);
            if (complete ? value > ValueTable.ABSENT : value != InitialState.UNKNOWN) {
                String name = batch.keys().name(key);
                Value declared = batch.values().get(value);
                Value before = initialValues.putIfAbsent(name, declared);
                if (before != null && !before.equals(declared)) {
                    throw new RoundInputException("two batches declare different initial values of " + name + ": "
                            + before + " and " + declared);
                }
                if (before == null && touchedBefore.contains(name)) {
                    throw new RoundInputException("a batch declares the initial value of " + name + ", which transactions of"
                            + " earlier batches touched when it was not declared: an initial value is declared before the"
                            + " first transaction that touches its key");
                }
            }
        }
    }

    /** A builder of a round's history, declaring the initial values of the keys its transactions touch only. */
    private HistoryBuilder newBuilder(Set<String> touched) {
        HistoryBuilder builder = History.builder().initialStateComplete(complete).unknownInitialValues(unknownValues);
        for (String key : touched) {
            Value value = initialValues.get(key);
            if (value != null) {
                builder.initialValue(key, value);
            }
        }
        return builder;
    }

    /**
     * Keeps what a fold leaves: each key's last version in the folded prefix, the reads that pinned
     * an unknown initial value no write in the prefix can explain, and aborted writes that an
     * unknown initial value, one no transaction writes, must still not be.
     */
    private void keepWhatFoldLeaves(History full, int stubCount, Fold fold, ReadExplanations explanations, long watermark) {
        long thisFold = folds++;
        InitialState initial = full.initialState();
        // A stub keeps its transaction's times where they put it before every transaction kept
        // (and so before every later one, which starts after the watermark): explanations then
        // show real times. One that overlaps a kept transaction keeps its start and ends just
        // before the first kept one starts: the fold puts it before them all, and these times,
        // never decreasing from fold to fold, order stubs of later folds after earlier ones.
        long firstKept = watermark;
        for (int i = stubCount; i < full.size(); i++) {
            if (!fold.folded[i]) {
                firstKept = Math.min(firstKept, full.transaction(i).startTime());
            }
        }
        long before = firstKept - 1;
        java.util.function.Function<Transaction, long[]> times = t -> t.endTime() <= before
                ? new long[] {t.startTime(), t.endTime()}
                : new long[] {Math.min(t.startTime(), before), before};
        // Pins first: whether a key was written before this fold decides them.
        for (int obs = 0; obs < explanations.size(); obs++) {
            int reader = explanations.transaction(obs);
            int key = explanations.key(obs);
            if (reader < stubCount || !fold.folded[reader] || initial.isKnown(key)
                    || state.written(full.keys().name(key)) || !explanations.initialStateExplains(obs)) {
                continue;
            }
            boolean prefixWriter = false;
            for (int i = 0; i < explanations.writerCount(obs) && !prefixWriter; i++) {
                int w = explanations.writer(obs, i);
                prefixWriter = w >= stubCount && fold.folded[w];
            }
            if (prefixWriter) {
                // The read may have seen the prefix's write: nothing to pin.
                continue;
            }
            // Pinned even where the prefix overwrote the key and its initial value may be any
            // value: no later read can see it, but an explanation says what rules it out of a later
            // read of an equal value ("not x's initial value, which T1 read as 0"), as the whole
            // check's does, where without the pin it would offer it as a source.
            Transaction t = full.transaction(reader);
            long[] at = times.apply(t);
            state.pin(full.keys().name(key), new FoldedState.Version(t.id(), t.hasNumericId(), at[0], at[1],
                    full.values().get(explanations.value(obs))), thisFold);
        }
        for (Map.Entry<Integer, List<Integer>> e : fold.lastWriters.entrySet()) {
            int key = e.getKey();
            List<FoldedState.Version> writers = new ArrayList<>();
            for (int w : e.getValue()) {
                Transaction writer = full.transaction(w);
                long[] at = times.apply(writer);
                writers.add(new FoldedState.Version(writer.id(), writer.hasNumericId(), at[0], at[1],
                        full.values().get(writer.finalValue(key))));
            }
            String name = full.keys().name(key);
            state.overwrite(name, writers, thisFold);
            if (writers.size() > 1) {
                undecidedKeys++;
                if (caveats.size() < 5) {
                    caveats.add("which of " + writers.stream().map(FoldedState.Version::transaction).toList() + " wrote " + name
                            + " last before round " + rounds + ": no known order decided it, and later reads of " + name
                            + " were checked against each (the rounds held more than " + maxHeld
                            + " transactions and let it go: a violation there may be missed, none is made up)");
                }
            }
        }
        // The aborted writes a stub holds from now on, as (transaction, operation).
        Set<Long> heldAborted = new HashSet<>();
        for (int i = stubCount; i < full.size(); i++) {
            Transaction t = full.transaction(i);
            if (!fold.folded[i] || t.isCommitted()) {
                continue;
            }
            for (int op = 0; op < t.size(); op++) {
                int key = t.key(op);
                String name = full.keys().name(key);
                if (t.kind(op) == OpKind.WRITE && !initial.isKnown(key) && !initial.mayBeAnyValue(key) && !state.written(name)) {
                    // A value written, even by an aborted transaction, is not an unknown initial value.
                    long[] at = times.apply(t);
                    state.abortedWrite(name, new FoldedState.Version(t.id(), t.hasNumericId(), at[0], at[1],
                            full.values().get(t.value(op))), thisFold);
                    heldAborted.add(operation(i, op));
                }
            }
        }
        if (forgotten != null) {
            // Every write of a folded transaction that no stub holds is forgotten: a weaker
            // level's candidate asks whether one may have given a read its value.
            for (int i = stubCount; i < full.size(); i++) {
                Transaction t = full.transaction(i);
                for (int op = 0; fold.folded[i] && op < t.size(); op++) {
                    if (t.kind(op) != OpKind.WRITE || heldAborted.contains(operation(i, op))) {
                        continue;
                    }
                    boolean held = t.isCommitted() && t.isFinalWrite(op)
                            && fold.lastWriters.getOrDefault(t.key(op), List.of()).contains(i);
                    if (!held) {
                        forgotten.add(full.keys().name(t.key(op)), full.values().get(t.value(op)));
                    }
                }
            }
        }
    }

    private static long operation(int transaction, int op) {
        return ((long) transaction << 32) | op;
    }

    private void touch(Set<String> touched, History from, Transaction t) {
        for (int op = 0; op < t.size(); op++) {
            String key = from.keys().name(t.key(op));
            if (!leftOut.test(key)) {
                touched.add(key);
            }
        }
    }

    /** Adds {@code t} of {@code from} to {@code builder}: its session, status, times, provenance and operations on keys not left out. */
    private void copy(HistoryBuilder builder, History from, Transaction t) {
        HistoryBuilder.TransactionBuilder copy = builder.transaction(t.hasNumericId() ? (Object) Long.parseLong(t.id()) : t.id());
        Session session = from.sessionOf(t);
        if (!session.isImplicit()) {
            copy.session(session.name());
        }
        if (!t.isCommitted()) {
            copy.aborted();
        }
        copy.times(t.startTime(), t.endTime());
        t.thread().ifPresent(copy::thread);
        boolean statements = !t.statements().isEmpty();
        t.statements().forEach(copy::statement);
        for (int op = 0; op < t.size(); op++) {
            String key = from.keys().name(t.key(op));
            if (leftOut.test(key)) {
                continue;
            }
            if (statements) {
                copy.fromStatement(t.statementOf(op).orElse(-1));
            }
            Value value = from.values().get(t.value(op));
            if (t.kind(op) == OpKind.READ) {
                copy.read(key, value);
            } else {
                copy.write(key, value);
            }
        }
    }
}
