package dev.isocheck.internal.engine;

import dev.isocheck.Anomaly;
import dev.isocheck.CheckOptions;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.internal.graph.ReadAnomalies;
import dev.isocheck.internal.graph.ReadPins;
import dev.isocheck.history.History;
import dev.isocheck.history.Transaction;
import dev.isocheck.internal.limit.LimitExceededException;
import dev.isocheck.internal.limit.Limits;
import dev.isocheck.internal.reference.ReferenceChecker;
import dev.isocheck.internal.saturate.SaturationChecker;
import dev.isocheck.internal.saturate.WeakLevel;
import dev.isocheck.internal.solve.SatChecker;
import dev.isocheck.internal.solve.WitnessReplay;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The standard checker: first the anomalies every level forbids and that need no search (aborted
 * and intermediate reads, internal inconsistency, values from thin air, conflicting initial
 * values), then the fast engine ({@link SatChecker}: hyper-polygraph, pruning, SAT).
 *
 * <p>Before the search, the history is split into independent parts ({@link Decomposition}: no
 * shared key, no shared session) at the levels where the parts decide the whole (serializability,
 * snapshot isolation; not strict serializability). The parts are searched in parallel, on at most
 * {@link Runtime#availableProcessors()} threads, and their verdicts merged: the violation of the
 * first violated part (in the order of the parts' first transactions, whichever part finishes
 * first), else the first part's "unknown", else "satisfied" with the parts' witnesses one after
 * another, which is a witness of the whole since the parts share nothing (and is replayed on the
 * whole history before it is given).
 *
 * <p>When the engine cannot decide (an order it found fails the replay, or the history has more
 * constraints than it holds, and it says so), a history small enough for the {@link ReferenceChecker} is decided by it
 * instead; otherwise the engine's {@link Verdict.Unknown} stands: never a pass.
 *
 * <p>The search checker is called from several threads at once when a history splits: it must be
 * thread-safe (the {@link SatChecker} is).
 */
public final class CheckPipeline implements Checker {

    private final Checker search;
    private final Checker fallback;
    private final int bundleOperations;
    /** The work budget of the saturation's search over candidate writers at the weak levels. */
    private final long saturationBudget;
    /** The time limit and memory budget of each check, from the options. */
    private final CheckOptions options;

    /** The pipeline with the standard search, under {@link CheckOptions#defaults()}. */
    public CheckPipeline() {
        this(CheckOptions.defaults());
    }

    /**
     * The pipeline with the standard search, under the options that concern checking: the
     * {@linkplain CheckOptions#gpuMode() GPU mode}, the {@linkplain CheckOptions#timeLimit() time
     * limit} and the {@linkplain CheckOptions#memoryBudget() memory budget} (the explanation
     * options are the explainer's).
     */
    public CheckPipeline(CheckOptions options) {
        this(new SatChecker(Objects.requireNonNull(options, "options is null").gpuMode()), new ReferenceChecker(),
                Decomposition.DEFAULT_BUNDLE_OPERATIONS, options);
    }

    /**
     * A pipeline that screens, then asks {@code search} alone (for each independent part; see the
     * class comment), within the default limits.
     */
    public CheckPipeline(Checker search) {
        this(search, null, Decomposition.DEFAULT_BUNDLE_OPERATIONS);
    }

    /**
     * A pipeline whose decomposition bundles components into parts of at least {@code bundleOperations}
     * operations ({@code 1}: a part per component), so that tests can split small histories.
     */
    CheckPipeline(Checker search, Checker fallback, int bundleOperations) {
        this(search, fallback, bundleOperations, SaturationChecker.DEFAULT_WORK_BUDGET, CheckOptions.defaults());
    }

    /**
     * The standard search whose saturation at the weak levels gives up after {@code saturationBudget}
     * units of work (tests: so that what stands in for it when it gives up is exercised).
     */
    CheckPipeline(long saturationBudget) {
        this(new SatChecker(), new ReferenceChecker(), Decomposition.DEFAULT_BUNDLE_OPERATIONS, saturationBudget,
                CheckOptions.defaults());
    }

    private CheckPipeline(Checker search, Checker fallback, int bundleOperations, CheckOptions options) {
        this(search, fallback, bundleOperations, SaturationChecker.DEFAULT_WORK_BUDGET, options);
    }

    private CheckPipeline(Checker search, Checker fallback, int bundleOperations, long saturationBudget,
            CheckOptions options) {
        this.search = search;
        this.fallback = fallback;
        this.bundleOperations = bundleOperations;
        this.saturationBudget = saturationBudget;
        this.options = options;
    }

    /**
     * The limits of one check under the options, starting now: the time limit, and the memory
     * budget set or else {@link CheckOptions#DEFAULT_MEMORY_SHARE} of the maximum heap.
     */
    @Override
    public Limits limits() {
        if (options.memoryBudget().isPresent()) {
            return Limits.startingNow(options.timeLimit(), options.memoryBudget().getAsLong(), "as set");
        }
        long heap = Runtime.getRuntime().maxMemory();
        return Limits.startingNow(options.timeLimit(), Math.max(1, (long) (heap * CheckOptions.DEFAULT_MEMORY_SHARE)),
                "half of the maximum heap of " + Limits.bytes(heap));
    }

    /** Checks {@code history} at {@code level} within the {@linkplain #limits() limits} of the options. */
    @Override
    public Verdict check(History history, IsolationLevel level) {
        return check(history, level, limits());
    }

    /**
     * Checks {@code history} at {@code level} within {@code limits}. A limit exceeded, or the
     * heap exhausted all the same (the estimates cover the SAT encoding, not every structure),
     * gives {@link Verdict.Unknown} with the reason and the stage: what was built for the check
     * is unreachable once it returns, so the caller can go on with another history. A pass comes
     * with a caveat for what was not checked: a history without committed transactions, and real
     * time at strict serializability where times are missing ({@link #caveats}).
     */
    @Override
    public Verdict check(History history, IsolationLevel level, Limits limits) {
        return check(history, level, limits, ReadPins.none());
    }

    /**
     * Checks {@code history} at {@code level} within {@code limits}, under {@code pins} at the levels
     * the search decides (serializability, strict serializability, snapshot isolation): there the
     * search is asked about the whole history under the pins, without splitting it into parts.
     * Elsewhere, and in the reference checker that stands in when the search gives up, the pins
     * are ignored, which is sound ({@link Checker#check(History, IsolationLevel, Limits, ReadPins)}).
     */
    @Override
    public Verdict check(History history, IsolationLevel level, Limits limits, ReadPins pins) {
        Objects.requireNonNull(pins, "pins is null");
        Verdict verdict;
        try {
            verdict = decide(history, level, limits, pins);
        } catch (LimitExceededException e) {
            verdict = new Verdict.Unknown(level, e.getMessage());
        } catch (OutOfMemoryError | StackOverflowError e) {
            verdict = new Verdict.Unknown(level, exhausted(e, limits));
        }
        if (verdict instanceof Verdict.Satisfied satisfied) {
            List<String> caveats = caveats(history, level);
            if (!caveats.isEmpty()) {
                List<String> all = new ArrayList<>(caveats);
                all.addAll(satisfied.caveats());
                verdict = new Verdict.Satisfied(level, satisfied.witness(), all);
            }
        }
        return verdict;
    }

    /**
     * The reason of a check that ran out of memory, or of stack, in words, naming the stage. An
     * out-of-memory error is the last resort: the memory budget weighs the SAT encoding before it
     * is built, not the constraints built before it.
     */
    static String exhausted(Throwable e, Limits limits) {
        if (e instanceof OutOfMemoryError) {
            return "the check ran out of memory while " + limits.stage() + " (the maximum heap is "
                    + Limits.bytes(Runtime.getRuntime().maxMemory()) + "; a larger one, -Xmx, may decide it)";
        }
        return "the check ran out of stack while " + limits.stage() + " (" + e.getClass().getName() + "; please report)";
    }

    /**
     * What a pass at {@code level} did not check, in words: nothing at all when the history has
     * no committed transaction; real-time order at strict serializability, where committed
     * transactions lack a start or an end time (real time orders a transaction that ended before
     * another started; without both times, what it is ordered with is unknown).
     */
    public static List<String> caveats(History history, IsolationLevel level) {
        if (history.committedCount() == 0) {
            return List.of("the history has no committed transactions, so there was nothing to check");
        }
        if (level != IsolationLevel.STRICT_SERIALIZABLE) {
            return List.of();
        }
        int untimed = 0;
        int timeless = 0;
        String first = null;
        for (Transaction t : history.transactions()) {
            if (!t.isCommitted()) {
                continue;
            }
            boolean start = t.startTime() != Transaction.NO_TIME;
            boolean end = t.endTime() != Transaction.NO_TIME;
            if (!start || !end) {
                untimed++;
                first = first == null ? t.id() : first;
            }
            if (!start && !end) {
                timeless++;
            }
        }
        if (untimed == 0) {
            return List.of();
        }
        if (timeless == history.committedCount()) {
            return List.of("real-time order: no transaction has a start or end time, so real-time order is unknown"
                    + " and only serializability was checked");
        }
        return List.of("real-time order: " + untimed + " of " + history.committedCount() + " committed transactions (the first "
                + first + ") lack a start or end time, so real-time order involving them is unknown and was not checked");
    }

    private Verdict decide(History history, IsolationLevel level, Limits limits) {
        return decide(history, level, limits, ReadPins.none());
    }

    private Verdict decide(History history, IsolationLevel level, Limits limits, ReadPins pins) {
        Optional<WeakLevel> weak = WeakLevel.of(level);
        if (weak.isPresent()) {
            return saturate(history, level, weak.get(), limits);
        }
        if (level == IsolationLevel.PREFIX) {
            return prefix(history, limits, true);
        }
        Optional<Verdict> screened = screened(history, level, limits);
        if (screened.isPresent()) {
            return screened.get();
        }
        if (!pins.isEmpty()) {
            // The parts would number the reads afresh; a history checked under pins is a small
            // restriction (the explainer's), searched whole.
            limits.enter("searching for an order that explains the history under assumed sources of reads");
            Verdict verdict = search.check(history, level, limits, pins);
            if (verdict instanceof Verdict.Unknown unknown && fallback != null) {
                // The reference ignores the pins: its violation is one under them too.
                Verdict second = fallback.check(history, level, limits);
                return second instanceof Verdict.Unknown ? unknown : second;
            }
            return verdict;
        }
        limits.enter("splitting the history into independent parts");
        Decomposition decomposition = Decomposition.of(history, level, bundleOperations);
        limits.enter("searching for an order that explains the history");
        Verdict verdict = decomposition.isSplit() ? searchParts(decomposition.parts(), level, limits)
                : search.check(history, level, limits);
        if (verdict instanceof Verdict.Satisfied satisfied && decomposition.isSplit() && !replays(history, satisfied)) {
            // Cannot happen if the parts share nothing (see Decomposition); should it, the whole
            // history is searched as it would be without decomposition, so no wrong pass comes of it.
            verdict = search.check(history, level, limits);
        }
        if (verdict instanceof Verdict.Unknown unknown && fallback != null) {
            // As without decomposition: the reference decides the whole history if it is small enough.
            Verdict second = fallback.check(history, level, limits);
            return second instanceof Verdict.Unknown ? unknown : second;
        }
        return verdict;
    }

    /** The violation the screening finds (the first anomaly found without search), if any. */
    private static Optional<Verdict> screened(History history, IsolationLevel level, Limits limits) {
        limits.enter("screening for anomalies found without search");
        List<Anomaly> anomalies = ReadAnomalies.find(history);
        return anomalies.isEmpty() ? Optional.empty() : Optional.of(new Verdict.Violated(level, anomalies.get(0)));
    }

    /**
     * Prefix consistency: a snapshot-isolation commit order if there is one (found within a quarter
     * of the time left), which is a prefix-consistent one; otherwise as the serializability of the
     * history with each transaction split into its snapshot and its commit ({@link ReadWriteSplit}), decided as any serializable check is
     * (screening, independent parts, the search, each pass replayed on the split). The screening
     * runs on the original history first, since the split leaves out the reads of a transaction's
     * own writes. A serial order of the split gives a commit order of the original and each
     * transaction's snapshot, replayed on the original where the split's replay does not already
     * cover it; one that fails (a predicate read the split left out may show a violation)
     * gives {@link Verdict.Unknown}, never a pass, unless the reference, for a small history,
     * decides the original history at prefix consistency itself. A violation names the original
     * transactions; its words are the split's.
     */
    private Verdict prefix(History history, Limits limits, boolean snapshotFirst) {
        IsolationLevel level = IsolationLevel.PREFIX;
        Optional<Verdict> screened = screened(history, level, limits);
        if (screened.isPresent()) {
            return screened.get();
        }
        if (snapshotFirst) {
            // A snapshot-isolation commit order is a prefix-consistent one (its snapshots satisfy
            // the weaker rule too), and the history unsplit keeps its read-modify-write chains: on
            // a history of many writers per key the split's pairs of writes to order are far more.
            try {
                Verdict snapshot = decide(history, IsolationLevel.SNAPSHOT_ISOLATION, limits.firstPart(4));
                if (snapshot instanceof Verdict.Satisfied satisfied) {
                    return new Verdict.Satisfied(level, satisfied.witness(), satisfied.caveats());
                }
            } catch (LimitExceededException e) {
                // A quarter of the time at most: the split decides.
            }
        }
        limits.enter("splitting each transaction into its snapshot and its commit");
        ReadWriteSplit split = ReadWriteSplit.of(history);
        Verdict verdict = decide(split.split(), IsolationLevel.SERIALIZABLE, limits);
        if (verdict instanceof Verdict.Violated violated) {
            Anomaly anomaly = violated.anomaly();
            return new Verdict.Violated(level, new Anomaly(anomaly.type(), split.originalIds(anomaly.transactions()),
                    "with each transaction split into its snapshot (its reads) and its commit (its writes), which"
                            + " prefix consistency needs to be serializable: " + anomaly.explanation()));
        }
        if (verdict instanceof Verdict.Satisfied satisfied) {
            ReadWriteSplit.Snapshots snapshots = split.snapshots(satisfied.witness());
            List<String> order = snapshots.order();
            Optional<String> failure = Optional.empty();
            boolean predicates = history.hasCommittedPredicateReads();
            // The split's order was replayed on the split (every pass is), which checks each
            // snapshot's reads; the reads of a transaction's own writes were screened. What is left
            // is a predicate read the split left out: then the original is replayed too. Without
            // predicate reads that replay is linear and is done anyway, a second line of defence;
            // with them, and none left out, it would visit every row of each read's table.
            if (split.predicateReadsLeftOut() > 0 || !predicates) {
                WitnessReplay replay = new WitnessReplay(history);
                failure = replay.prefixFailure(order, snapshots.snapshots());
                if (failure.isPresent() && split.predicateReadsLeftOut() > 0) {
                    // The snapshots the split's order gives need not serve the reads it left out.
                    failure = replay.prefixFailure(order);
                }
            }
            if (failure.isEmpty()) {
                List<String> caveats = new ArrayList<>(satisfied.caveats());
                if (split.predicateReadsLeftOut() > 0) {
                    caveats.add(split.predicateReadsLeftOut() + " predicate read(s) after their transaction's own write of a"
                            + " row of their table were not checked at " + level);
                }
                return new Verdict.Satisfied(level, order, caveats);
            }
            verdict = new Verdict.Unknown(level, "the commit order found for the split history does not replay with"
                    + " snapshots on the original (" + failure.get() + ")" + (split.predicateReadsLeftOut() > 0
                            ? ", which can happen when a predicate read the split left out shows a violation" : "; please report"));
        }
        if (fallback != null) {
            // Small enough, the reference decides the original history at prefix consistency itself.
            Verdict second = fallback.check(history, level, limits);
            if (!(second instanceof Verdict.Unknown)) {
                return second;
            }
        }
        return new Verdict.Unknown(level, ((Verdict.Unknown) verdict).reason());
    }

    /**
     * The levels below snapshot isolation: saturation ({@link SaturationChecker}) decides the whole
     * history, screening included (a non-repeatable read is no anomaly at read committed). A pass
     * over predicate reads says that the rows they did not return were not checked.
     *
     * <p>Before its search over candidate writers (repeated values on a few hot rows may make it
     * give up), the saturation asks for a commit order from the search engine, within half the
     * time left: a serial order, else a snapshot-isolation commit order, else a prefix-consistent
     * one. A serializable history satisfies every weaker level, and so does one with snapshot
     * isolation or prefix consistency (snapshot isolation implies prefix consistency, which
     * implies causal consistency, with the same commit order): each read sees the latest write of
     * the order before it, or before its snapshot. At read committed, after the saturation's
     * guess from the recorded times, the read-by-read order ({@link #readByRead}). Anything but a
     * pass concludes nothing.
     */
    private Verdict saturate(History history, IsolationLevel level, WeakLevel weak, Limits limits) {
        String[] serialFailure = new String[1];
        SaturationChecker.SerialOrders serialOrders = (h, l) -> {
            Limits half = l.firstPart(2);
            for (IsolationLevel stronger : List.of(IsolationLevel.SERIALIZABLE, IsolationLevel.SNAPSHOT_ISOLATION,
                    IsolationLevel.PREFIX)) {
                Verdict verdict;
                try {
                    verdict = stronger == IsolationLevel.PREFIX ? prefix(h, half, false) : search.check(h, stronger, half);
                } catch (LimitExceededException e) {
                    serialFailure[0] = "was not found in the half of the time left given to it";
                    return Optional.empty();
                } catch (RuntimeException e) {
                    // The saturation decides without it: a failure here must not cost the answer.
                    serialFailure[0] = "was not found (the search failed: " + e + ")";
                    return Optional.empty();
                }
                if (verdict instanceof Verdict.Satisfied satisfied) {
                    // Replayed here too, whatever the search is: the weak level's pass rests on it.
                    if (replays(h, satisfied)) {
                        return Optional.of(satisfied.witness());
                    }
                    serialFailure[0] = "was not found (the search's order does not replay)";
                    return Optional.empty();
                }
                if (verdict instanceof Verdict.Unknown unknown) {
                    serialFailure[0] = "was not found (" + unknown.reason() + ")";
                    return Optional.empty();
                }
                serialFailure[0] = "does not exist";
            }
            return Optional.empty();
        };
        // After the timed guess, which decides most recorded read-committed histories at once.
        SaturationChecker.SerialOrders readByRead = weak == WeakLevel.READ_COMMITTED ? (h, l) -> readByRead(h, l.firstPart(2))
                : null;
        SaturationChecker.Outcome outcome = new SaturationChecker(saturationBudget, serialOrders, true, readByRead)
                .check(history, weak, limits);
        if (outcome instanceof SaturationChecker.Outcome.Satisfied satisfied) {
            boolean predicates = history.hasCommittedPredicateReads();
            return new Verdict.Satisfied(level, satisfied.order(), predicates
                    ? List.of("predicate reads at " + level + ": the rows they returned were checked, the rows they did not"
                            + " return were not") : List.of());
        }
        if (outcome instanceof SaturationChecker.Outcome.Violated violated) {
            SaturationChecker.Violation violation = violated.violation();
            return new Verdict.Violated(level, new Anomaly(violation.type(), violation.transactions(), violation.explanation()));
        }
        String reason = ((SaturationChecker.Outcome.Unknown) outcome).reason();
        return new Verdict.Unknown(level, serialFailure[0] == null ? reason
                : reason + "; a serial, snapshot-isolation or prefix-consistent commit order, which would satisfy every"
                        + " weaker level, "
                        + serialFailure[0]);
    }

    /**
     * A read-committed commit order of {@code history} from a serial order of its split with every
     * read apart ({@link ReadWriteSplit#perRead}): what a database gives whose every statement reads
     * the latest committed state, such as PostgreSQL at READ COMMITTED, which neither a serial nor
     * a snapshot order explains once a transaction sees a write committed while it ran. The
     * split's serial order is replayed on the split before it is used; anything but a pass
     * concludes nothing, and a history with a predicate read after its transaction's own write of
     * a row of its table (which the split leaves out) is not tried. Public for the differential tests, which hold its passes to the reference.
     */
    public Optional<List<String>> readByRead(History history, Limits limits) {
        try {
            ReadWriteSplit split = ReadWriteSplit.perRead(history);
            if (split.predicateReadsLeftOut() > 0) {
                // The rows they returned would not be held to the order: no pass rests on it.
                return Optional.empty();
            }
            Verdict verdict = decide(split.split(), IsolationLevel.SERIALIZABLE, limits);
            if (verdict instanceof Verdict.Satisfied satisfied && replays(split.split(), satisfied)) {
                return Optional.of(split.snapshots(satisfied.witness()).order());
            }
        } catch (RuntimeException e) {
            // A limit reached, or a failure: the saturation decides without it.
        }
        return Optional.empty();
    }

    /**
     * Whether the merged witness replays on the whole history, as the engine's own witnesses do on
     * what it checked: every "satisfied" this pipeline gives was replayed on the history it names.
     * Linear in the operations.
     */
    private static boolean replays(History history, Verdict.Satisfied satisfied) {
        WitnessReplay replay = new WitnessReplay(history);
        Optional<String> failure = switch (satisfied.level()) {
            case SNAPSHOT_ISOLATION -> replay.snapshotFailure(satisfied.witness());
            case PREFIX -> replay.prefixFailure(satisfied.witness());
            default -> replay.failure(satisfied.witness(), false);
        };
        return failure.isEmpty();
    }

    /** Searches each part, in parallel where there are cores, and merges the verdicts in part order. */
    private Verdict searchParts(List<History> parts, IsolationLevel level, Limits limits) {
        Verdict[] verdicts = new Verdict[parts.size()];
        // The smallest index of a part found violated so far: parts after it need not be searched,
        // parts before it must be (one of them may be violated too, and the first one is reported).
        AtomicInteger firstViolated = new AtomicInteger(Integer.MAX_VALUE);
        int threads = Math.min(parts.size(), Runtime.getRuntime().availableProcessors());
        if (threads <= 1) {
            for (int p = 0; p < parts.size(); p++) {
                searchPart(parts, level, p, verdicts, firstViolated, limits);
            }
        } else {
            ForkJoinPool pool = new ForkJoinPool(threads);
            try {
                List<ForkJoinTask<?>> tasks = new ArrayList<>(parts.size());
                for (int p = 0; p < parts.size(); p++) {
                    int part = p;
                    tasks.add(pool.submit(() -> searchPart(parts, level, part, verdicts, firstViolated, limits)));
                }
                // Every task is joined before a failure is rethrown: none is left running, holding
                // memory, after the check returns.
                RuntimeException failure = null;
                for (ForkJoinTask<?> task : tasks) {
                    try {
                        task.join();
                    } catch (RuntimeException e) {
                        failure = failure == null ? e : failure;
                    }
                }
                if (failure != null) {
                    throw failure;
                }
            } finally {
                pool.shutdownNow();
            }
        }
        return merge(parts, level, verdicts);
    }

    /**
     * Searches one part. Whatever stops it (a limit, the heap or the stack exhausted) makes its
     * verdict {@link Verdict.Unknown} here, in its own task: every task ends normally, so none is
     * left running, holding memory, after the check returns.
     */
    private void searchPart(List<History> parts, IsolationLevel level, int part, Verdict[] verdicts,
            AtomicInteger firstViolated, Limits limits) {
        if (part > firstViolated.get()) {
            return;
        }
        Verdict verdict;
        try {
            verdict = search.check(parts.get(part), level, limits);
        } catch (LimitExceededException e) {
            verdict = new Verdict.Unknown(level, e.getMessage());
        } catch (OutOfMemoryError | StackOverflowError e) {
            verdict = new Verdict.Unknown(level, exhausted(e, limits));
        }
        verdicts[part] = verdict;
        if (verdict.isViolated()) {
            firstViolated.accumulateAndGet(part, Math::min);
        }
    }

    /**
     * The first violated part's verdict; else the first unknown part's, naming the part; else the
     * witnesses concatenated in part order, with the parts' caveats. Parts skipped after a
     * violation (a {@code null} verdict) come after the first violated part, so they are never
     * looked at.
     */
    private static Verdict merge(List<History> parts, IsolationLevel level, Verdict[] verdicts) {
        for (Verdict verdict : verdicts) {
            if (verdict != null && verdict.isViolated()) {
                return verdict;
            }
        }
        List<String> witness = new ArrayList<>();
        List<String> caveats = new ArrayList<>();
        for (int p = 0; p < verdicts.length; p++) {
            if (verdicts[p] instanceof Verdict.Unknown unknown) {
                History part = parts.get(p);
                return new Verdict.Unknown(level, "independent part " + (p + 1) + " of " + parts.size() + " ("
                        + part.committedCount() + " committed transactions, the first " + part.transaction(0).id()
                        + "): " + unknown.reason());
            }
            witness.addAll(((Verdict.Satisfied) verdicts[p]).witness());
            caveats.addAll(((Verdict.Satisfied) verdicts[p]).caveats());
        }
        return new Verdict.Satisfied(level, witness, caveats);
    }
}
