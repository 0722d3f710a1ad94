package dev.isocheck.internal.engine;

import dev.isocheck.Anomaly;
import dev.isocheck.CheckOptions;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.internal.graph.ReadAnomalies;
import dev.isocheck.history.History;
import dev.isocheck.internal.reference.ReferenceChecker;
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

    /** The pipeline with the standard search, under {@link CheckOptions#defaults()}. */
    public CheckPipeline() {
        this(CheckOptions.defaults());
    }

    /**
     * The pipeline with the standard search, under the options that concern checking: the
     * {@linkplain CheckOptions#gpuMode() GPU mode} (the explanation options are the explainer's).
     */
    public CheckPipeline(CheckOptions options) {
        this(new SatChecker(Objects.requireNonNull(options, "options is null").gpuMode()), new ReferenceChecker());
    }

    /** A pipeline that screens, then asks {@code search} alone (for each independent part; see the class comment). */
    public CheckPipeline(Checker search) {
        this(search, null);
    }

    private CheckPipeline(Checker search, Checker fallback) {
        this(search, fallback, Decomposition.DEFAULT_BUNDLE_OPERATIONS);
    }

    /**
     * A pipeline whose decomposition bundles components into parts of at least {@code bundleOperations}
     * operations ({@code 1}: a part per component), so that tests can split small histories.
     */
    CheckPipeline(Checker search, Checker fallback, int bundleOperations) {
        this.search = search;
        this.fallback = fallback;
        this.bundleOperations = bundleOperations;
    }

    @Override
    public Verdict check(History history, IsolationLevel level) {
        List<Anomaly> screened = ReadAnomalies.find(history);
        if (!screened.isEmpty()) {
            return new Verdict.Violated(level, screened.get(0));
        }
        Decomposition decomposition = Decomposition.of(history, level, bundleOperations);
        Verdict verdict = decomposition.isSplit() ? searchParts(decomposition.parts(), level) : search.check(history, level);
        if (verdict instanceof Verdict.Satisfied satisfied && decomposition.isSplit() && !replays(history, satisfied)) {
            // Cannot happen if the parts share nothing (see Decomposition); should it, the whole
            // history is searched as it would be without decomposition, so no wrong pass comes of it.
            verdict = search.check(history, level);
        }
        if (verdict instanceof Verdict.Unknown unknown && fallback != null) {
            // As without decomposition: the reference decides the whole history if it is small enough.
            Verdict second = fallback.check(history, level);
            return second instanceof Verdict.Unknown ? unknown : second;
        }
        return verdict;
    }

    /**
     * Whether the merged witness replays on the whole history, as the engine's own witnesses do on
     * what it checked: every "satisfied" this pipeline gives was replayed on the history it names.
     * Linear in the operations.
     */
    private static boolean replays(History history, Verdict.Satisfied satisfied) {
        WitnessReplay replay = new WitnessReplay(history);
        Optional<String> failure = satisfied.level() == IsolationLevel.SNAPSHOT_ISOLATION
                ? replay.snapshotFailure(satisfied.witness()) : replay.failure(satisfied.witness(), false);
        return failure.isEmpty();
    }

    /** Searches each part, in parallel where there are cores, and merges the verdicts in part order. */
    private Verdict searchParts(List<History> parts, IsolationLevel level) {
        Verdict[] verdicts = new Verdict[parts.size()];
        // The smallest index of a part found violated so far: parts after it need not be searched,
        // parts before it must be (one of them may be violated too, and the first one is reported).
        AtomicInteger firstViolated = new AtomicInteger(Integer.MAX_VALUE);
        int threads = Math.min(parts.size(), Runtime.getRuntime().availableProcessors());
        if (threads <= 1) {
            for (int p = 0; p < parts.size(); p++) {
                searchPart(parts, level, p, verdicts, firstViolated);
            }
        } else {
            ForkJoinPool pool = new ForkJoinPool(threads);
            try {
                List<ForkJoinTask<?>> tasks = new ArrayList<>(parts.size());
                for (int p = 0; p < parts.size(); p++) {
                    int part = p;
                    tasks.add(pool.submit(() -> searchPart(parts, level, part, verdicts, firstViolated)));
                }
                for (ForkJoinTask<?> task : tasks) {
                    task.join();
                }
            } finally {
                pool.shutdownNow();
            }
        }
        return merge(parts, level, verdicts);
    }

    private void searchPart(List<History> parts, IsolationLevel level, int part, Verdict[] verdicts,
            AtomicInteger firstViolated) {
        if (part > firstViolated.get()) {
            return;
        }
        Verdict verdict = search.check(parts.get(part), level);
        verdicts[part] = verdict;
        if (verdict.isViolated()) {
            firstViolated.accumulateAndGet(part, Math::min);
        }
    }

    /**
     * The first violated part's verdict; else the first unknown part's, naming the part; else the
     * witnesses concatenated in part order. Parts skipped after a violation (a {@code null} verdict)
     * come after the first violated part, so they are never looked at.
     */
    private static Verdict merge(List<History> parts, IsolationLevel level, Verdict[] verdicts) {
        for (Verdict verdict : verdicts) {
            if (verdict != null && verdict.isViolated()) {
                return verdict;
            }
        }
        List<String> witness = new ArrayList<>();
        for (int p = 0; p < verdicts.length; p++) {
            if (verdicts[p] instanceof Verdict.Unknown unknown) {
                History part = parts.get(p);
                return new Verdict.Unknown(level, "independent part " + (p + 1) + " of " + parts.size() + " ("
                        + part.committedCount() + " committed transactions, the first " + part.transaction(0).id()
                        + "): " + unknown.reason());
            }
            witness.addAll(((Verdict.Satisfied) verdicts[p]).witness());
        }
        return new Verdict.Satisfied(level, witness);
    }
}
