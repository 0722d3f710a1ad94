package dev.isocheck.internal.solve;

import dev.isocheck.Anomaly;
import dev.isocheck.AnomalyType;
import dev.isocheck.GpuMode;
import dev.isocheck.internal.engine.Checker;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.internal.graph.EdgeKind;
import dev.isocheck.internal.graph.HyperPolygraph;
import dev.isocheck.internal.graph.KnownGraph;
import dev.isocheck.internal.graph.ReadExplanations;
import dev.isocheck.internal.graph.ReadPins;
import dev.isocheck.internal.graph.UnreturnedRows;
import dev.isocheck.internal.limit.LimitExceededException;
import dev.isocheck.internal.limit.Limits;
import dev.isocheck.history.History;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.PredicateRead;
import dev.isocheck.history.Transaction;
import dev.isocheck.internal.predicate.UnsupportedWhere;
import dev.isocheck.internal.predicate.WherePredicate;
import dev.isocheck.internal.prune.PrunedPolygraph;
import dev.isocheck.internal.prune.Pruner;
import dev.isocheck.spi.Reachability;
import dev.isocheck.internal.prune.ReachabilityEngines;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import org.sat4j.core.VecInt;
import org.sat4j.minisat.SolverFactory;
import org.sat4j.specs.ContradictionException;
import org.sat4j.minisat.core.Solver;
import org.sat4j.specs.ISolver;
import org.sat4j.specs.TimeoutException;

/**
 * Decides serializability, strict serializability and snapshot isolation with a SAT solver (sat4j)
 * and an acyclicity theory over the {@link HyperPolygraph}.
 *
 * <p>The solver chooses, for each uncertain observation, which write it read from, and for each
 * pair of writers of a common key, their version order. The {@link AcyclicityTheory}, a constraint
 * inside sat4j's search, adds each edge (known, chosen, derived RW) as its literals become true and
 * turns a cycle, the moment it forms, into a conflict over the literals of its edges. Every model
 * is then checked again from scratch: its {@link DependencyGraph} is built and searched for cycles,
 * which, should any appear, become clauses and the solver runs again (the solve–check–learn loop,
 * also available alone as {@link Search#SOLVE_CHECK_LEARN}).
 * A model whose graph is acyclic gives a topological order: the witness. For snapshot isolation the
 * graph checked is the induced one, {@code (SO ∪ WR ∪ WW) ; RW?} (PolySI, VeriStrong appendix A),
 * and the witness is a commit order.
 *
 * <p><b>Soundness.</b> "Satisfied" is only answered after {@link WitnessReplay} has replayed the
 * witness from the definitions (serially, or for snapshot isolation as a commit order with a
 * snapshot per transaction), so it cannot be wrong whatever the encoding misses (a replay that
 * fails gives {@link Verdict.Unknown}). "Violated" is answered when the clauses are unsatisfiable;
 * every valid serial order induces a model of them (each observation reads from the last writer
 * before it, which is one of its candidates; version order is the order; T⊥ serves only compatible
 * observations; and every learnt clause excludes only graphs with a cycle, which an order's own
 * edges cannot have), so the encoding over-approximates the valid orders and UNSAT means there are
 * none. For snapshot isolation the same holds of valid executions, whose dependency graphs have an
 * acyclic induced graph (Cerone and Gotsman). A predicate read's unreturned rows are observations
 * like any other ({@link dev.isocheck.internal.graph.UnreturnedRows}: the last version before the reader is
 * one the clause does not select); what the encoding leaves out (a clause it cannot evaluate, an
 * unknown initial value only several observations together show selected) only adds
 * valid-looking models, never removes one.
 *
 * <p><b>Real time first.</b> A history with start and end times and a read that may have seen
 * more than one version (duplicate values) is first checked with real-time edges among the certain
 * ones (strict serializability for serializability, strong snapshot isolation for snapshot
 * isolation), which prunes far more; only a pass of that stronger level is kept, its witness
 * replayed at the level asked like any other, and anything else leaves the decision to the check
 * without real time. Not under pins ({@link #check(History, IsolationLevel, Limits, ReadPins)}):
 * the explainer's restrictions are small or have every read of several versions pinned.
 */
public final class SatChecker implements Checker {

    static {
        // sat4j asserts invariants that cost time linear in the trail per assignment; test runners
        // (surefire, so users' suites) enable assertions, which makes the solver quadratic. This
        // must run before the solver classes load.
        ISolver.class.getClassLoader().setPackageAssertionStatus("org.sat4j", false);
    }

    private static final int CYCLES_PER_ROUND = 200;
    /**
     * At most this many passes of narrow cycles over forced edges after the first over certain
     * ones. One: at 100k transactions (ycsb-dup, snapshot isolation) it takes the search from 2.9
     * million decisions to 0.45 million (2.7 s to 0.9 s) for about 0.35 s; a second pass cost as
     * much as it saved (0.2 million decisions).
     */
    private static final int NARROW_PASSES = 1;
    /**
     * Below this many variables no pass over forced edges is made: a pass costs a closure of the
     * whole graph (about 40 ms at 10k transactions), more than the searches it shortens there
     * take in all.
     */
    private static final int FORCED_PASS_VARIABLES = 50_000;
    private static final int NAMED_TRANSACTIONS = 10;

    /**
     * How many times sat4j found a model where {@link AcyclicSolver} had answered "unsatisfiable"
     * (a bug in the latter, which the confirmation kept out of the verdict); tests require 0.
     */
    static final java.util.concurrent.atomic.AtomicInteger OVERRULED = new java.util.concurrent.atomic.AtomicInteger();
    /** How many times {@link AcyclicSolver}'s "unsatisfiable" went to sat4j for confirmation (tests). */
    /**
     * What an {@link Verdict.Unknown}'s reason at serializability or snapshot isolation says when
     * the attempt with real-time order first found the history violated: the explanation stage
     * then looks for a proof at the level asked on a restriction of the history to that cycle's
     * transactions ({@code internal.explain.ProofByRestriction}).
     */
    public static final String REAL_TIME_VIOLATED = "with real-time order (a transaction that ended before another started"
            + " comes first) the history is violated";

    static final java.util.concurrent.atomic.AtomicInteger CONFIRMATIONS = new java.util.concurrent.atomic.AtomicInteger();

    private final Duration budget;
    private final Search search;

    /** The search this checker runs (tests). */
    Search search() {
        return search;
    }

    private final boolean narrowCycles;
    private final int forcedPassVariables;
    /** Which engine computes the closures of pruning and of the narrow-cycle passes. */
    private final GpuMode gpu;

    /**
     * How the search keeps the dependency graph acyclic. Both check every model the solver
     * returns with an independent cycle search before it is accepted.
     */
    public enum Search {
        /**
         * The {@link AcyclicityTheory} inside isocheck's own CDCL search ({@link AcyclicSolver}),
         * with chronological backtracking; an "unsatisfiable" is confirmed by {@link #THEORY}
         * before it becomes a violation.
         */
        OWN,
        /** The {@link AcyclicityTheory} inside sat4j: a cycle is a conflict the moment it forms. */
        THEORY,
        /** Solve, then look for cycles in the model's graph and learn them as clauses, repeatedly. */
        SOLVE_CHECK_LEARN
    }

    /** A checker that gives up (answering {@link Verdict.Unknown}) after ten minutes of solving. */
    public SatChecker() {
        this(GpuMode.AUTO);
    }

    /**
     * A checker that gives up after ten minutes of solving, computing closures with the engine
     * that {@code gpu} selects ({@link ReachabilityEngines}).
     */
    public SatChecker(GpuMode gpu) {
        this(Duration.ofMinutes(10), Search.OWN, true, gpu);
    }

    /** A checker that gives up (answering {@link Verdict.Unknown}) after {@code budget} of solving. */
    public SatChecker(Duration budget) {
        this(budget, Search.OWN);
    }

    /** A checker with the given budget and search, and VeriStrong's narrow-cycle clauses. */
    public SatChecker(Duration budget, Search search) {
        this(budget, search, true);
    }

    /**
     * A checker with the given budget and search, with or without the clauses of cycles of width
     * one and two added before the search (benchmarks compare these options; verdicts do not
     * depend on them).
     */
    public SatChecker(Duration budget, Search search, boolean narrowCycles) {
        this(budget, search, narrowCycles, GpuMode.AUTO);
    }

    /**
     * As {@link #SatChecker(Duration, Search, boolean)}, computing closures with the engine that
     * {@code gpu} selects ({@link ReachabilityEngines}).
     */
    public SatChecker(Duration budget, Search search, boolean narrowCycles, GpuMode gpu) {
        this(budget, search, narrowCycles, FORCED_PASS_VARIABLES, gpu);
    }

    /**
     * As {@link #SatChecker(Duration, Search, boolean)}, making the narrow-cycle pass over forced
     * edges from {@code forcedPassVariables} variables on (tests: 0, so that small histories take
     * it too).
     */
    SatChecker(Duration budget, Search search, boolean narrowCycles, int forcedPassVariables) {
        this(budget, search, narrowCycles, forcedPassVariables, GpuMode.AUTO);
    }

    private SatChecker(Duration budget, Search search, boolean narrowCycles, int forcedPassVariables, GpuMode gpu) {
        this.budget = Objects.requireNonNull(budget, "budget is null");
        this.search = Objects.requireNonNull(search, "search is null");
        this.narrowCycles = narrowCycles;
        this.forcedPassVariables = forcedPassVariables;
        this.gpu = Objects.requireNonNull(gpu, "gpu is null");
    }

    /**
     * What one check did, stage by stage, for benchmarks.
     *
     * @param verdict       the answer
     * @param buildMillis   explanations, known graph and hyper-polygraph
     * @param pruneMillis   write combining and pruning to a fixpoint
     * @param encodeMillis  the residual clauses
     * @param solveMillis   the solve–check–learn loop and the witness replay
     * @param pruning       what pruning did, or {@code null} when it did not run
     * @param variables     SAT variables of the residual
     * @param cyclesLearnt  conflict clauses learnt from cycles
     */
    public record Report(Verdict verdict, long buildMillis, long pruneMillis, long encodeMillis, long solveMillis,
            PrunedPolygraph.Statistics pruning, int variables, int cyclesLearnt) {

        /** This report with {@code verdict} and {@code solveMillis} in place of its own. */
        Report with(Verdict verdict, long solveMillis) {
            return new Report(verdict, buildMillis, pruneMillis, encodeMillis, solveMillis, pruning, variables, cyclesLearnt);
        }
    }

    @Override
    public Verdict check(History history, IsolationLevel level) {
        return run(history, level).verdict();
    }

    @Override
    public Verdict check(History history, IsolationLevel level, Limits limits) {
        return run(history, level, limits).verdict();
    }

    /**
     * Checks {@code history} at {@code level} within {@code limits} under {@code pins}: each pinned
     * read has only its pinned source as a candidate ({@link HyperPolygraph#of(KnownGraph,
     * ReadExplanations, ReadPins)}), so "violated" means that no valid order has every pinned read
     * see its source. A pass is replayed on the history like any other, so it is a pass of the
     * history whatever the pins.
     */
    @Override
    public Verdict check(History history, IsolationLevel level, Limits limits, ReadPins pins) {
        return run(history, level, limits, pins).verdict();
    }

    /** Checks {@code history} at {@code level} and says what each stage cost. */
    public Report run(History history, IsolationLevel level) {
        return run(history, level, Limits.none());
    }

    /**
     * Checks {@code history} at {@code level} within {@code limits} and says what each stage
     * cost. A stage that would go past a limit, or a history with more constraints than the
     * engine holds, gives {@link Verdict.Unknown} naming the limit and the stage, unless the
     * transactions in the order of their recorded times, or of the file, replay as a witness
     * ({@link #recordedOrder}: a linear replay, so it is tried before giving up).
     */
    public Report run(History history, IsolationLevel level, Limits limits) {
        return run(history, level, limits, ReadPins.none());
    }

    /** As {@link #run(History, IsolationLevel, Limits)}, under {@code pins} ({@link #check(History, IsolationLevel, Limits, ReadPins)}). */
    public Report run(History history, IsolationLevel level, Limits limits, ReadPins pins) {
        Objects.requireNonNull(pins, "pins is null");
        if (level.compareTo(IsolationLevel.SNAPSHOT_ISOLATION) > 0) {
            throw new IllegalArgumentException("the search decides strict serializability, serializability and snapshot"
                    + " isolation, not " + level + " (the check pipeline decides the weaker levels)");
        }
        ReadExplanations explanations = null;
        String[] realTimeViolated = new String[1];
        // Under pins (the explainer's restrictions, small or with every read of several sources
        // pinned) real time first only delays the answer: a third less time in all on the
        // explanation benchmark's checks, passes included.
        if (level != IsolationLevel.STRICT_SERIALIZABLE && hasIntervals(history) && pins.isEmpty()) {
            long t0 = System.nanoTime();
            try {
                limits.enter("building the constraints");
                explanations = ReadExplanations.of(history);
            } catch (LimitExceededException e) {
                return withCaveats(history, new Report(gaveUp(history, level, e.getMessage(), null),
                        millis(t0, System.nanoTime()), 0, 0, 0, null, 0, 0), null);
            }
            if (hasChoices(explanations)) {
                Report withRealTime = realTimeFirst(history, level, explanations, limits, realTimeViolated);
                if (withRealTime != null) {
                    return withRealTime;
                }
            }
        }
        Report report = runAt(history, level, limits, level == IsolationLevel.STRICT_SERIALIZABLE, explanations, pins);
        if (realTimeViolated[0] != null && report.verdict() instanceof Verdict.Unknown unknown) {
            // Not a verdict at the level asked, but what the developer can act on.
            return report.with(new Verdict.Unknown(level, unknown.reason() + "; " + REAL_TIME_VIOLATED + ": it is not "
                    + realTimeViolated[0]), report.solveMillis());
        }
        return report;
    }

    /**
     * Whether every committed transaction has both a start and an end time: what real-time edges
     * need (with starts only, or ends only, there would be none, and the attempt with real time
     * would repeat the check without it).
     */
    private static boolean hasIntervals(History history) {
        for (Transaction t : history.transactions()) {
            if (t.isCommitted() && (t.startTime() == Transaction.NO_TIME || t.endTime() == Transaction.NO_TIME)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether some read may have seen more than one version (a value written twice, or written
     * and possibly the initial one): what makes the constraints without real time explode on hot
     * rows. With unique values they stay few, and the attempt with real time would cost more
     * than it saves (a second graph with its real-time edges).
     */
    private static boolean hasChoices(ReadExplanations explanations) {
        for (int o = 0; o < explanations.size(); o++) {
            if (explanations.writerCount(o) + (explanations.initialStateExplains(o) ? 1 : 0) > 1) {
                return true;
            }
        }
        return false;
    }

    /**
     * The history checked with real time first, within a quarter of the budget: serializability
     * as strict serializability, snapshot isolation as strong snapshot isolation (a transaction's
     * snapshot holds every transaction that ended before it started: real-time edges join the
     * session order among the base edges). Both are stronger than the level asked for, and are
     * what a database whose commits take effect while their clients wait gives; and real-time
     * order decides most of what the level leaves open (a few hot rows rewritten with repeated
     * values leave the serializability encoding millions of read-write constraints; real time
     * prunes all but thousands). The witness is replayed at {@code level} as every witness is.
     *
     * <p>Only where some read has a choice of writers ({@link #hasChoices}).
     *
     * @param violated set to the stronger level, in words, when the attempt at it (not a serial
     *                 order tried for snapshot isolation) found the history violated: no verdict at
     *                 {@code level}, but a reason an Unknown there can give
     *
     * @return the report at {@code level} when the history satisfies the stronger level, else
     *         {@code null} (nothing is concluded: the check at {@code level} decides)
     */
    private Report realTimeFirst(History history, IsolationLevel level, ReadExplanations explanations, Limits limits,
            String[] violated) {
        long t0 = System.nanoTime();
        SatChecker first = new SatChecker(budget.dividedBy(4), search, narrowCycles, forcedPassVariables, gpu);
        Limits quarter = limits.firstPart(4);
        // Snapshot isolation tries a serial order first too: it is found in half the time of a
        // commit order with snapshots (one node per transaction, not two), and is one. Both
        // attempts share the quarter.
        for (IsolationLevel stronger : level == IsolationLevel.SNAPSHOT_ISOLATION
                ? List.of(IsolationLevel.SERIALIZABLE, level) : List.of(level)) {
            // runAt answers a limit reached with Unknown: nothing concluded.
            Report attempt = first.runAt(history, stronger, quarter, true, explanations, ReadPins.none());
            if (attempt.verdict() instanceof Verdict.Satisfied) {
                return passAt(level, attempt, t0);
            }
            if (stronger == level && attempt.verdict() instanceof Verdict.Violated) {
                violated[0] = level == IsolationLevel.SNAPSHOT_ISOLATION
                        ? "strong snapshot isolation (each snapshot holding every transaction that ended before it started)"
                        : "strictly serializable (checking it at strict-serializable shows the cycle)";
            }
        }
        // A transaction that only read, and read a version older than real time allows (a stale
        // read, serializable all the same), breaks real-time order for the whole history: then real
        // time among the writers only. A serial order of that is one of the history (times are
        // not part of serializability), and it still orders every hot key's writers.
        if (hasTimedReadOnly(history)) {
            Report attempt = first.runAt(history.withoutTimes(Transaction::isReadOnly), IsolationLevel.SERIALIZABLE, quarter,
                    true, null, ReadPins.none());
            if (attempt.verdict() instanceof Verdict.Satisfied) {
                return passAt(level, attempt, t0);
            }
        }
        return null;
    }

    /**
     * The pass of a stronger attempt, as a pass at {@code level}; its solve time counts every
     * attempt made since {@code t0}.
     */
    private static Report passAt(IsolationLevel level, Report attempt, long t0) {
        Verdict.Satisfied satisfied = (Verdict.Satisfied) attempt.verdict();
        return attempt.with(new Verdict.Satisfied(level, satisfied.witness(), satisfied.caveats()),
                millis(t0, System.nanoTime()) - attempt.buildMillis() - attempt.pruneMillis() - attempt.encodeMillis());
    }

    private static boolean hasTimedReadOnly(History history) {
        return history.transactions().stream().anyMatch(t -> t.isCommitted() && t.isReadOnly()
                && (t.startTime() != Transaction.NO_TIME || t.endTime() != Transaction.NO_TIME));
    }

    /**
     * The check at {@code level}, with real-time edges among the certain ones when {@code realTime},
     * over {@code built}, the history's read explanations when already built, else {@code null}.
     */
    private Report runAt(History history, IsolationLevel level, Limits limits, boolean realTime, ReadExplanations built,
            ReadPins pins) {
        long t0 = System.nanoTime();
        HyperPolygraph polygraph = null;
        Report report;
        try {
            limits.enter("building the constraints");
            ReadExplanations explanations = built != null ? built : ReadExplanations.of(history);
            limits.checkTime();
            KnownGraph known = KnownGraph.of(history, explanations, realTime);
            limits.checkTime();
            UnreturnedRows.TooManyException tooMany = null;
            try {
                polygraph = HyperPolygraph.of(known, explanations, pins);
            } catch (UnreturnedRows.TooManyException e) {
                tooMany = e;
            }
            report = tooMany != null
                    ? new Report(gaveUp(history, level, "too many constraints for the SAT engine: " + tooMany.getMessage(), null),
                            millis(t0, System.nanoTime()), 0, 0, 0, null, 0, 0)
                    : run(history, level, explanations, known, polygraph, t0, limits);
        } catch (LimitExceededException e) {
            report = new Report(gaveUp(history, level, e.getMessage(), polygraph == null ? null : polygraph.unreturnedRows()),
                    millis(t0, System.nanoTime()), 0, 0, 0, null, 0, 0);
        }
        return withCaveats(history, report, polygraph == null ? null : polygraph.unreturnedRows());
    }

    /**
     * {@code report}, its pass (if it is one) with a caveat for each predicate read whose clause
     * the engine cannot evaluate: only its returned rows were checked. From {@code unreturned} when
     * the constraints were built, else from the clauses themselves, so that a pass found by giving
     * up early (a recorded order replayed) says so as well.
     */
    private static Report withCaveats(History history, Report report, UnreturnedRows unreturned) {
        if (!(report.verdict() instanceof Verdict.Satisfied satisfied)) {
            return report;
        }
        List<UnreturnedRows.PredicateReadRef> unmodelled = unreturned != null ? unreturned.unmodelled() : unmodelled(history);
        if (unmodelled.isEmpty()) {
            return report;
        }
        return report.with(new Verdict.Satisfied(satisfied.level(), satisfied.witness(), caveats(history, unmodelled)),
                report.solveMillis());
    }

    /** The committed transactions' predicate reads whose clause the engine cannot evaluate, from the clauses. */
    private static List<UnreturnedRows.PredicateReadRef> unmodelled(History history) {
        List<UnreturnedRows.PredicateReadRef> refs = new ArrayList<>();
        for (Transaction t : history.transactions()) {
            if (t.isCommitted() && t.hasPredicateReads()) {
                for (int op = 0; op < t.size(); op++) {
                    if (t.kind(op) == OpKind.PREDICATE && !(WherePredicate.parse(t.predicate(op).where()) instanceof WherePredicate)) {
                        refs.add(new UnreturnedRows.PredicateReadRef(t.index(), op));
                    }
                }
            }
        }
        return refs;
    }

    /**
     * The answer when the engine gives up for {@code reason}: "satisfied" if the committed
     * transactions in the order of their recorded times or in the order of the file replay as a
     * witness (a correct database's history often does: a serial run, or commits in real-time
     * order), else {@link Verdict.Unknown} with the reason.
     *
     * @param unreturned the unreturned rows when they were computed (the replay is faster with
     *                   them), else {@code null}
     */
    private static Verdict gaveUp(History history, IsolationLevel level, String reason, UnreturnedRows unreturned) {
        Optional<Verdict.Satisfied> witness = recordedOrder(history, level, unreturned);
        if (witness.isPresent()) {
            return witness.get();
        }
        return new Verdict.Unknown(level, reason + "; replaying the transactions in the order of "
                + (isTimed(history) ? "their recorded times, or of the file," : "the file") + " does not explain the history"
                + " either");
    }

    /** Whether every committed transaction has a recorded time (an end, else a start). */
    private static boolean isTimed(History history) {
        for (Transaction t : history.transactions()) {
            if (t.isCommitted() && time(t) == Transaction.NO_TIME) {
                return false;
            }
        }
        return true;
    }

    /**
     * The first of these orders of the committed transactions that replays as a witness at
     * {@code level} ({@link WitnessReplay}: the same test every "satisfied" passes): by recorded
     * end time (else start time), when every committed transaction has one, ties in file order;
     * then the order of the file. Linear in the operations (and a sort).
     */
    static Optional<Verdict.Satisfied> recordedOrder(History history, IsolationLevel level, UnreturnedRows unreturned) {
        List<Transaction> committed = new ArrayList<>(history.committedCount());
        for (Transaction t : history.transactions()) {
            if (t.isCommitted()) {
                committed.add(t);
            }
        }
        List<List<String>> orders = new ArrayList<>(2);
        if (isTimed(history)) {
            List<Transaction> byTime = new ArrayList<>(committed);
            byTime.sort(java.util.Comparator.comparingLong(SatChecker::time).thenComparingInt(Transaction::index));
            orders.add(byTime.stream().map(Transaction::id).toList());
        }
        List<String> fileOrder = committed.stream().map(Transaction::id).toList();
        if (orders.isEmpty() || !orders.get(0).equals(fileOrder)) {
            orders.add(fileOrder);
        }
        WitnessReplay replay = new WitnessReplay(history, unreturned);
        for (List<String> order : orders) {
            Optional<String> failure = level == IsolationLevel.SNAPSHOT_ISOLATION ? replay.snapshotFailure(order)
                    : replay.failure(order, level == IsolationLevel.STRICT_SERIALIZABLE);
            if (failure.isEmpty()) {
                return Optional.of(new Verdict.Satisfied(level, order));
            }
        }
        return Optional.empty();
    }

    /** A transaction's end time, else its start time, else {@link Transaction#NO_TIME}. */
    private static long time(Transaction t) {
        return t.endTime() != Transaction.NO_TIME ? t.endTime() : t.startTime();
    }

    private Report run(History history, IsolationLevel level, ReadExplanations explanations, KnownGraph known,
            HyperPolygraph polygraph, long t0, Limits limits) {
        boolean snapshots = level == IsolationLevel.SNAPSHOT_ISOLATION;
        long t1 = System.nanoTime();
        int unexplained = polygraph.firstUnexplained();
        if (unexplained >= 0) {
            return new Report(violated(level, List.of(history.transaction(polygraph.transaction(unexplained)).id()),
                    polygraph.describe(unexplained) + (unexplained >= polygraph.itemObservationCount()
                            ? ": every version of the row satisfies the clause, so in any order the read would have returned it"
                            : " is explained by no committed final write and not by the initial state"
                                    + (explanations.row(unexplained) >= 0 ? " that the clause selects" : ""))),
                    millis(t0, t1), 0, 0, 0, null, 0, 0);
        }
        PrunedPolygraph pruned;
        try {
            limits.enter("pruning");
            pruned = Pruner.prune(polygraph, snapshots, gpu, limits);
        } catch (Pruner.TooLargeException e) {
            return new Report(gaveUp(history, level, "too many constraints for the SAT engine: " + e.getMessage(),
                    polygraph.unreturnedRows()), millis(t0, t1), millis(t1, System.nanoTime()), 0, 0, null, 0, 0);
        }
        long t2 = System.nanoTime();
        if (pruned.isViolated()) {
            return new Report(conflict(level, known, pruned.conflicts().get(0)), millis(t0, t1), millis(t1, t2), 0, 0,
                    pruned.statistics(), 0, 0);
        }
        limits.enter("encoding what pruning left open");
        // Weighed before anything of the encoding's size is built: first what its constructor
        // holds (per open pair and per candidate), then its edges and variables, counted.
        long candidateSum = 0;
        for (int o = 0; o < polygraph.observationCount(); o++) {
            // The encoding lists the live candidates of reads left more than one.
            candidateSum += pruned.liveCount(o) > 1 ? pruned.liveCount(o) : 0;
        }
        long candidates = candidateSum;
        long openPairs = pruned.statistics().pairsAfter();
        long tableBytes = EncodingSize.tableBytes(openPairs, candidates);
        ResidualEncoding encoding;
        long edges;
        try (Limits.Reservation tables = limits.reserve(tableBytes, () -> "the SAT encoding's tables ("
                + count(openPairs) + " open pairs of write chains, " + count(candidates) + " candidate writes of reads left open)")) {
            encoding = new ResidualEncoding(pruned, limits);
            edges = encoding.edgeBound();
        }
        int variables = encoding.variableCount();
        long edgeCount = edges;
        // Reserved again, tables and all: a part waits for memory only while it holds none, so
        // parts never wait for each other in a circle.
        try (Limits.Reservation all = limits.reserve(EncodingSize.sum(tableBytes, EncodingSize.bytes(edges, variables, snapshots)),
                () -> "the SAT encoding (" + count(edgeCount) + " edges of the dependency graph over " + count(variables)
                        + " variables" + (snapshots ? ", for snapshot isolation" : "") + ")")) {
            if (2 * edges + 2L * known.nodeCount() > dev.isocheck.spi.JavaArrays.MAX_LENGTH) {
                return new Report(gaveUp(history, level, "too many constraints for the SAT engine: " + count(edges)
                        + " edges of the dependency graph (more than an array holds)", polygraph.unreturnedRows()),
                        millis(t0, t1), millis(t1, t2), 0, 0, pruned.statistics(), 0, 0);
            }
            return encodeAndSolve(history, level, known, polygraph, pruned, encoding, t0, t1, t2, limits);
        }
    }

    /** {@code 1,234,567}: a count for messages. */
    private static String count(long n) {
        return String.format(java.util.Locale.ROOT, "%,d", n);
    }

    private Report encodeAndSolve(History history, IsolationLevel level, KnownGraph known, HyperPolygraph polygraph,
            PrunedPolygraph pruned, ResidualEncoding encoding, long t0, long t1, long t2, Limits limits) {
        boolean snapshots = level == IsolationLevel.SNAPSHOT_ISOLATION;
        DependencyGraph certain = snapshots ? encoding.snapshotGraphOf(null) : encoding.graphOf(null);
        long[] priority = timePriority(known);
        int[] preferred = snapshots ? DependencyGraph.snapshotOrder(certain.topologicalOrder(doubled(priority)))
                : certain.topologicalOrder(priority);
        if (preferred == null) {
            // Reads left one candidate add read-write edges over decided pairs that pruning's own
            // graph lacks; every one of them is certain, so a cycle among them is a violation.
            int[] cycle = certain.cycles(1).get(0);
            List<PrunedPolygraph.Step> steps = new ArrayList<>();
            int transactions = known.nodeCount();
            for (int e : cycle) {
                if (!snapshots || !certain.isCopyLink(e)) {
                    steps.add(new PrunedPolygraph.Step(certain.from(e) % transactions, certain.to(e) % transactions,
                            certain.kind(e), -1));
                }
            }
            return new Report(conflict(level, known, new PrunedPolygraph.Conflict(
                    "the dependencies that every valid order must have form a cycle", List.of(steps))),
                    millis(t0, t1), millis(t1, t2), 0, 0, pruned.statistics(), 0, 0);
        }
        encoding.prefer(preferred);
        long t3 = System.nanoTime();
        if (encoding.isEmpty()) {
            Verdict verdict = witness(history, level, known, preferred, polygraph.unreturnedRows());
            return new Report(verdict, millis(t0, t1), millis(t1, t2), millis(t2, t3), millis(t3, System.nanoTime()),
                    pruned.statistics(), 0, 0);
        }
        int[] learnt = new int[1];
        limits.checkTime();
        Reachability certainClosure = narrowCycles ? ReachabilityEngines.closureOf(certain.dag(), gpu) : null;
        certain = null; // not needed any more: its memory is the solver's
        limits.enter("solving");
        Verdict verdict = solve(history, level, known, polygraph.unreturnedRows(), encoding, snapshots, preferred,
                certainClosure, learnt, limits);
        return new Report(verdict, millis(t0, t1), millis(t1, t2), millis(t2, t3), millis(t3, System.nanoTime()),
                pruned.statistics(), encoding.variableCount(), learnt[0]);
    }

    private static long millis(long from, long to) {
        return (to - from) / 1_000_000;
    }

    private Verdict solve(History history, IsolationLevel level, KnownGraph known, UnreturnedRows unreturned,
            ResidualEncoding encoding, boolean snapshots, int[] preferred, Reachability closure, int[] learntOut,
            Limits limits) {
        List<int[]> narrow = closure == null ? List.of() : narrowCycles(encoding, closure, snapshots, limits);
        if (search != Search.OWN) {
            return solveWithSat4j(history, level, known, unreturned, encoding, snapshots, preferred, narrow, learntOut,
                    limits, search, System.nanoTime() + budget.toNanos());
        }
        int[] rank = new int[preferred.length];
        for (int p = 0; p < preferred.length; p++) {
            rank[preferred[p]] = p;
        }
        long deadline = System.nanoTime() + budget.toNanos();
        AcyclicityTheory theory = AcyclicityTheory.of(encoding, known.nodeCount(), snapshots, rank);
        AcyclicSolver solver = new AcyclicSolver(encoding.variableCount(), theory, encoding.preferredPhases());
        for (int[] clause : encoding.clauseList()) {
            solver.addClause(clause);
        }
        for (int[] clause : narrow) {
            solver.addClause(clause);
        }
        TreeSet<Integer> onCycles = new TreeSet<>();
        int learnt = 0;
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return new Verdict.Unknown(level, "the SAT engine gave up after " + budget + " (" + learntOut[0] + " cycles learnt)");
            }
            long checkLeft = limits.remainingNanos();
            boolean timedByCheck = checkLeft <= left;
            AcyclicSolver.Result result = solver.solve(System.nanoTime() + Math.min(left, checkLeft));
            theory.nodesOnCycles(onCycles, known);
            learntOut[0] = learnt + theory.conflicts();
            if (result == AcyclicSolver.Result.TIMED_OUT) {
                limits.remainingNanos();
                if (timedByCheck) {
                    throw limits.timeExceeded();
                }
                return new Verdict.Unknown(level, "the SAT engine gave up after " + budget + " (" + learntOut[0] + " cycles learnt)");
            }
            if (result == AcyclicSolver.Result.UNSATISFIABLE) {
                // A violation fails a user's test: the reference engine proves it again. Its
                // verdict is the one returned (a model it finds is replayed like any other),
                // within what is left of the engine's budget, not a budget of its own: a proof
                // that takes sat4j longer ends Unknown, as the search would have without the
                // own engine, rather than outlasting the budget the check was given.
                Verdict confirmed = solveWithSat4j(history, level, known, unreturned, encoding, snapshots, preferred, narrow,
                        learntOut, limits, Search.THEORY, deadline);
                CONFIRMATIONS.incrementAndGet();
                if (confirmed instanceof Verdict.Satisfied) {
                    OVERRULED.incrementAndGet();
                }
                if (confirmed instanceof Verdict.Unknown) {
                    return new Verdict.Unknown(level, "isocheck's search found no valid order, and its proof by sat4j, which"
                            + " every violation the search finds must have, did not end within the engine's budget of " + budget);
                }
                return confirmed;
            }
            boolean[] model = solver.model();
            DependencyGraph graph = snapshots ? encoding.snapshotGraphOf(model) : encoding.graphOf(model);
            List<int[]> cycles = graph.cycles(CYCLES_PER_ROUND);
            if (cycles.isEmpty()) {
                return witnessOf(history, level, known, graph, snapshots, unreturned);
            }
            // The theory saw every edge, so this is a bug in the search; learning the cycle keeps
            // the answer right all the same.
            for (int[] cycle : cycles) {
                learnt++;
                solver.addClause(conflictClause(graph, cycle).toArray());
            }
        }
    }

    private Verdict solveWithSat4j(History history, IsolationLevel level, KnownGraph known, UnreturnedRows unreturned,
            ResidualEncoding encoding, boolean snapshots, int[] preferred, List<int[]> narrow, int[] learntOut,
            Limits limits, Search search, long deadline) {
        int[] rank = new int[preferred.length];
        for (int p = 0; p < preferred.length; p++) {
            rank[preferred[p]] = p;
        }
        Solver<?> solver = (Solver<?>) SolverFactory.newDefault();
        OrderGuidedPhase phases = new OrderGuidedPhase(encoding.preferredPhases());
        solver.getOrder().setPhaseSelectionStrategy(phases);
        TreeSet<Integer> onCycles = new TreeSet<>();
        int learnt = 0;
        // Whether the solver's last timeout was the check's time limit rather than the engine's budget.
        boolean[] timedByCheck = new boolean[1];
        AcyclicityTheory theory = null;
        try {
            solver.newVar(encoding.variableCount());
            if (search == Search.THEORY) {
                theory = AcyclicityTheory.of(encoding, known.nodeCount(), snapshots, rank);
                theory.attachTo(solver);
                phases.followOrderOf(theory);
            }
            encoding.addTo(solver);
            for (int[] clause : narrow) {
                solver.addClause(new VecInt(clause));
            }
            while (true) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return new Verdict.Unknown(level, "the SAT engine gave up after " + budget + " (" + learnt + " cycles learnt)");
                }
                // Throws when the check's own time limit has passed.
                long checkLeft = limits.remainingNanos();
                timedByCheck[0] = checkLeft <= left;
                left = Math.min(left, checkLeft);
                solver.setTimeoutMs(Math.max(1, left / 1_000_000));
                boolean satisfiable = solver.isSatisfiable();
                if (theory != null) {
                    theory.nodesOnCycles(onCycles, known);
                    learntOut[0] = learnt + theory.conflicts();
                }
                if (!satisfiable) {
                    return unsatisfiable(history, level, known, onCycles, learntOut[0]);
                }
                boolean[] model = new boolean[encoding.variableCount() + 1];
                for (int literal : solver.model()) {
                    if (literal > 0) {
                        model[literal] = true;
                    }
                }
                DependencyGraph graph = snapshots ? encoding.snapshotGraphOf(model) : encoding.graphOf(model);
                List<int[]> cycles = graph.cycles(CYCLES_PER_ROUND);
                if (cycles.isEmpty()) {
                    return witnessOf(history, level, known, graph, snapshots, unreturned);
                }
                for (int[] cycle : cycles) {
                    for (int e : cycle) {
                        int node = graph.from(e) % known.nodeCount();
                        if (node != KnownGraph.INITIAL) {
                            onCycles.add(known.transaction(node));
                        }
                    }
                    learnt++;
                    learntOut[0] = learnt + (theory == null ? 0 : theory.conflicts());
                    solver.addClause(conflictClause(graph, cycle));
                }
            }
        } catch (ContradictionException e) {
            if (theory != null) {
                theory.nodesOnCycles(onCycles, known);
            }
            return unsatisfiable(history, level, known, onCycles, learntOut[0]);
        } catch (TimeoutException e) {
            // The check's time limit, if that came first (remainingNanos throws then), or if the
            // solver's timeout was the check's: sat4j's millisecond clock may fire a little early.
            limits.remainingNanos();
            if (timedByCheck[0]) {
                throw limits.timeExceeded();
            }
            return new Verdict.Unknown(level, "the SAT engine gave up after " + budget + " (" + learntOut[0] + " cycles learnt)");
        }
    }

    /** The witness of a model's acyclic graph: its topological order (for snapshot isolation, of the commits). */
    private static Verdict witnessOf(History history, IsolationLevel level, KnownGraph known, DependencyGraph graph,
            boolean snapshots, UnreturnedRows unreturned) {
        return witness(history, level, known, snapshots ? DependencyGraph.snapshotOrder(graph.topologicalOrder())
                : graph.topologicalOrder(), unreturned);
    }

    /**
     * VeriStrong's narrow-cycle clauses ({@link ResidualEncoding#narrowCycleClauses}), over the
     * certain graph, then again over the graph of what unit propagation forces from the clauses
     * and those narrow cycles (a read left one candidate by a width-one clause, say, has edges
     * in every model), until a pass forces nothing new or after {@link #NARROW_PASSES} passes
     * (none below {@link #FORCED_PASS_VARIABLES} variables, unless a test says otherwise).
     * A clause whose cycle runs through forced edges is otherwise learnt in the search as a unit
     * clause, and sat4j then backjumps to level 0 and makes every decision again: at 100k
     * transactions (ycsb-dup, snapshot isolation) such conflicts made 2.9 million
     * decisions of 276 thousand variables. Every clause holds in every model: forced literals
     * are true in all of them, so their edges are there, and a cycle with them is excluded.
     */
    private List<int[]> narrowCycles(ResidualEncoding encoding, Reachability certainClosure, boolean snapshots, Limits limits) {
        List<int[]> all = new ArrayList<>(encoding.narrowCycleClauses(certainClosure, null));
        if (encoding.variableCount() < forcedPassVariables) {
            return all;
        }
        java.util.Set<Long> seen = new java.util.HashSet<>();
        for (int[] clause : all) {
            seen.add(clauseId(clause));
        }
        int forcedBefore = 0;
        for (int pass = 0; pass < NARROW_PASSES; pass++) {
            limits.checkTime();
            int[] forced = encoding.forcedValues(all);
            if (forced == null) {
                break; // contradictory already: the solver finds it
            }
            int forcedNow = 0;
            for (int v : forced) {
                forcedNow += v != 0 ? 1 : 0;
            }
            if (forcedNow == forcedBefore) {
                break; // the same graph as the last pass
            }
            forcedBefore = forcedNow;
            dev.isocheck.spi.Dag dag = encoding.forcedGraph(forced, snapshots).dag();
            if (dag == null) {
                break; // a forced cycle: the solver finds it
            }
            boolean grew = false;
            for (int[] clause : encoding.narrowCycleClauses(ReachabilityEngines.closureOf(dag, gpu), forced)) {
                if (seen.add(clauseId(clause))) {
                    all.add(clause);
                    grew = true;
                }
            }
            if (!grew) {
                break;
            }
        }
        return all;
    }

    /** A narrow-cycle clause (one or two literals) as one number, to add each once. */
    private static long clauseId(int[] clause) {
        if (clause.length == 1) {
            return clause[0];
        }
        return Math.min(clause[0], clause[1]) * (1L << 32) + (Math.max(clause[0], clause[1]) & 0xffffffffL);
    }

    /** The violation pruning proved, with the cycle each option closes. */
    private static Verdict conflict(IsolationLevel level, KnownGraph known, PrunedPolygraph.Conflict conflict) {
        TreeSet<Integer> involved = new TreeSet<>();
        StringBuilder text = new StringBuilder(conflict.description());
        for (List<PrunedPolygraph.Step> cycle : conflict.cycles()) {
            text.append(conflict.cycles().size() > 1 ? "; " : ": ");
            text.append(describeCycle(known, cycle));
            for (PrunedPolygraph.Step step : cycle) {
                if (step.from() != KnownGraph.INITIAL) {
                    involved.add(known.transaction(step.from()));
                }
            }
        }
        List<String> ids = new ArrayList<>();
        for (int t : involved) {
            ids.add(known.history().transaction(t).id());
        }
        return violated(level, ids, text.toString());
    }

    /**
     * When every committed transaction has a recorded time, its end (else start): a serial order
     * guess that a correct database's history mostly follows. Otherwise {@code null} (node order).
     */
    private static long[] timePriority(KnownGraph known) {
        long[] priority = new long[known.nodeCount()];
        priority[KnownGraph.INITIAL] = Long.MIN_VALUE;
        for (int node = 1; node < known.nodeCount(); node++) {
            Transaction t = known.history().transaction(known.transaction(node));
            long time = t.endTime() != Transaction.NO_TIME ? t.endTime() : t.startTime();
            if (time == Transaction.NO_TIME) {
                return null;
            }
            priority[node] = time;
        }
        return priority;
    }

    /** The priority of each transaction for both its nodes in a snapshot graph; {@code null} stays {@code null}. */
    private static long[] doubled(long[] priority) {
        if (priority == null) {
            return null;
        }
        long[] both = java.util.Arrays.copyOf(priority, 2 * priority.length);
        System.arraycopy(priority, 0, both, priority.length, priority.length);
        return both;
    }

    /** "Not all of the literals that put these edges in the graph", without repeats. */
    private static VecInt conflictClause(DependencyGraph graph, int[] cycle) {
        TreeSet<Integer> negated = new TreeSet<>();
        for (int e : cycle) {
            if (graph.reasonA(e) != 0) {
                negated.add(-graph.reasonA(e));
            }
            if (graph.reasonB(e) != 0) {
                negated.add(-graph.reasonB(e));
            }
        }
        // A cycle of known edges only would have been found before solving.
        if (negated.isEmpty()) {
            throw new IllegalStateException("a cycle of known edges appeared during the search");
        }
        return new VecInt(negated.stream().mapToInt(Integer::intValue).toArray());
    }

    private static Verdict witness(History history, IsolationLevel level, KnownGraph known, int[] order,
            UnreturnedRows unreturned) {
        List<String> ids = new ArrayList<>(order.length);
        for (int node : order) {
            if (node != KnownGraph.INITIAL) {
                ids.add(history.transaction(known.transaction(node)).id());
            }
        }
        WitnessReplay replay = new WitnessReplay(history, unreturned);
        Optional<String> failure = level == IsolationLevel.SNAPSHOT_ISOLATION ? replay.snapshotFailure(ids)
                : replay.failure(ids, level == IsolationLevel.STRICT_SERIALIZABLE);
        if (failure.isPresent()) {
            boolean predicates = history.hasCommittedPredicateReads();
            return new Verdict.Unknown(level, (predicates
                    ? "the order the SAT engine found does not replay (it does not model unknown initial values that only"
                            + " several observations together show a predicate read should have returned): "
                    : "the order the SAT engine found does not replay (it does not model internal reads, which the screening checks): ")
                    + failure.get());
        }
        return new Verdict.Satisfied(level, ids);
    }

    /** Says, for each predicate read whose {@code where} the engine cannot evaluate, what was not checked. */
    static List<String> caveats(History history, List<UnreturnedRows.PredicateReadRef> unmodelled) {
        List<String> caveats = new ArrayList<>(unmodelled.size());
        for (UnreturnedRows.PredicateReadRef ref : unmodelled) {
            Transaction t = history.transaction(ref.transaction());
            PredicateRead read = t.predicate(ref.operation());
            String reason = WherePredicate.parse(read.where()) instanceof UnsupportedWhere unsupported ? unsupported.reason() : "";
            caveats.add(t.id() + "'s predicate read of " + read.table() + " where " + read.where()
                    + ": only its returned rows were checked (" + reason + ")");
        }
        return caveats;
    }

    private static Verdict unsatisfiable(History history, IsolationLevel level, KnownGraph known, TreeSet<Integer> onCycles,
            int learnt) {
        List<String> ids = new ArrayList<>();
        for (int t : onCycles) {
            if (ids.size() == NAMED_TRANSACTIONS) {
                break;
            }
            ids.add(history.transaction(t).id());
        }
        String explanation = "every choice of which write each read observed, and of the order of each key's versions, "
                + (learnt == 0 ? "contradicts what the reads of unknown initial values say"
                        : "closes a cycle of dependencies (" + learnt + " cycles ruled out"
                                + (ids.isEmpty() ? "" : "; transactions on them include " + String.join(", ", ids)) + ")");
        return violated(level, ids, explanation);
    }

    private static Verdict violated(IsolationLevel level, List<String> ids, String explanation) {
        return new Verdict.Violated(level, new Anomaly(AnomalyType.NO_VALID_ORDER, ids, explanation + " (at " + level + ")"));
    }

    private static String describeCycle(KnownGraph known, List<PrunedPolygraph.Step> cycle) {
        StringBuilder out = new StringBuilder();
        for (PrunedPolygraph.Step step : cycle) {
            out.append(name(known, step.from())).append(" -");
            if (step.kind() == EdgeKind.READ_WRITE && step.key() >= 0 && onlyPredicateReads(known, step.from(), step.key())) {
                // The reader never read the row as an item: a predicate read of its table left it out.
                out.append("did not return ").append(known.history().keys().name(step.key()))
                        .append(" (a predicate read), a later version of which was written by");
            } else {
                out.append(edgeName(step.kind()));
                if (step.key() >= 0) {
                    out.append(' ').append(known.history().keys().name(step.key()));
                }
            }
            out.append("-> ");
        }
        return out.append(name(known, cycle.get(0).from())).toString();
    }

    /** Whether the transaction of {@code node} observed {@code key} only through predicate reads. */
    private static boolean onlyPredicateReads(KnownGraph known, int node, int key) {
        if (node == KnownGraph.INITIAL) {
            return false;
        }
        Transaction t = known.history().transaction(known.transaction(node));
        boolean predicate = false;
        for (int op = 0; op < t.size(); op++) {
            if (t.kind(op) == OpKind.READ && t.key(op) == key) {
                return false;
            }
            predicate |= t.kind(op) == OpKind.PREDICATE && t.predicate(op).covers(key);
        }
        return predicate;
    }

    private static String name(KnownGraph known, int node) {
        return node == KnownGraph.INITIAL ? "the initial state" : known.history().transaction(known.transaction(node)).id();
    }

    private static String edgeName(EdgeKind kind) {
        return switch (kind) {
            case SESSION -> "session order";
            case REAL_TIME -> "real time";
            case WRITE_READ -> "read by";
            case WRITE_WRITE -> "overwritten by";
            case READ_WRITE -> "read a version overwritten by";
        };
    }
}
