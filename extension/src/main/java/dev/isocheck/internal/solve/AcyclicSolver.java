package dev.isocheck.internal.solve;

import java.util.Arrays;

/**
 * A CDCL search with the {@link AcyclicityTheory} inside its propagation loop, built for the
 * encodings isocheck solves: tens of thousands of variables, almost all of which the time order
 * already decides, and a few thousand cycles to learn.
 *
 * <p>Why not sat4j with the theory as a constraint (kept as {@link SatChecker.Search#THEORY}, the
 * reference): on VeriStrong's HD-10k it made 5.4 million decisions for 2,148 conflicts over 26,099
 * variables. Learnt cycle clauses are short (binary and ternary), so each conflict backjumps to a
 * level near the top, and the thousands of decisions above it are made again, each paying the
 * generic solver's watch-list and heap overheads. This search differs in three ways:
 *
 * <ul>
 *   <li><b>Chronological backtracking</b> (Nadel and Ryvchin, SAT 2018; in the form of Möhle and
 *       Biere, "Backing Backtracking", SAT 2019): when a conflict would jump back more than
 *       {@link #CHRONO_JUMP} levels, the search undoes only the conflict's level and asserts the
 *       learnt literal at its own (lower) level, out of order on the trail. The decisions below
 *       the conflict's level stay; a conflict whose literals all sit below the decision level (a
 *       cycle closed by literals implied late at low levels, frequent with this theory) still
 *       undoes every level above its own first. The theory allows this because removing an edge never invalidates its topological
 *       order, so literals may leave the graph in any order.</li>
 *   <li><b>Phases from the theory's current order</b> (VeriStrong's polarity), as with sat4j.</li>
 *   <li><b>No generic constraint interface</b>: clauses are int arrays with two watches, the theory
 *       is called once per literal that conditions an edge.</li>
 * </ul>
 *
 * <p>Literals are in sat4j's internal form ({@code 2v} true, {@code 2v+1} false), as the theory
 * uses them; {@link #addClause} takes DIMACS literals. Soundness rests on every stored clause being
 * implied (clauses given, cycle clauses from the theory, and clauses learnt by resolution from
 * those), and on a conflict at level 0 being the only "unsatisfiable". A model is checked against
 * every clause before it is returned ({@link #model()}), and the caller checks its graph again.
 */
final class AcyclicSolver {

    /** Backjumps longer than this many levels become a chronological backtrack of one level. */
    static final int CHRONO_JUMP = 100;
    private static final int DECISION = -1;
    private static final int NO_CONFLICT = -1;
    private static final int THEORY_CONFLICT = -2;
    private static final double VAR_DECAY = 0.95;
    private static final int RESTART_UNIT = 512;
    private static final int FIRST_REDUCE = 4_000;

    /** The result of {@link #solve}. */
    enum Result {
        SATISFIABLE, UNSATISFIABLE, TIMED_OUT
    }

    private final int chronoJump;
    private final int firstReduce;
    private long restarts;
    private long reductions;
    /** Learnt clauses at which the next reduction runs; kept across {@link #solve} calls, like the clauses. */
    private long reduceAt;
    private final int restartUnit;
    private final int variables;
    private final AcyclicityTheory theory;
    private final boolean[] preferredPositive;

    private int[][] clauses = new int[1024][];
    private boolean[] learnt = new boolean[1024];
    private boolean[] deleted = new boolean[1024];
    private int[] lbd = new int[1024];
    private int clauseCount;
    private int learntCount;
    private int originalCount;

    /** Clauses watching a literal, visited when it becomes false. */
    private final int[][] watches;
    private final int[] watchCount;

    /** By variable: 1 true, -1 false, 0 open. */
    private final byte[] value;
    private final int[] level;
    private final int[] reason;
    /** Whether the theory has counted the variable's true literal (it counts once, when propagated). */
    private final boolean[] inTheory;
    private final int[] trail;
    private int trailSize;
    private int propagated;
    private int[] levelStart = new int[64];
    private int decisionLevel;
    private boolean contradiction;

    private final double[] activity;
    private double increment = 1;
    private final int[] heap;
    private final int[] heapIndex;
    private int heapSize;

    private final boolean[] seen;
    private int[] learntBuffer = new int[64];
    private final int[] levelMark;
    private int levelStamp;

    private long decisions;
    private long conflicts;
    private long chronological;

    /**
     * A search over {@code variables} variables (1-based) with {@code theory} watching the
     * literals that put edges in the graph; {@code preferredPositive[v]} is the phase tried when
     * the theory's order does not choose one.
     */
    AcyclicSolver(int variables, AcyclicityTheory theory, boolean[] preferredPositive) {
        this(variables, theory, preferredPositive, CHRONO_JUMP, RESTART_UNIT, FIRST_REDUCE);
    }

    /**
     * As {@link #AcyclicSolver(int, AcyclicityTheory, boolean[])}, backtracking chronologically
     * past jumps of more than {@code chronoJump} levels and restarting after
     * {@code restartUnit} times the Luby sequence's conflicts, and halving the learnt clauses
     * first at {@code firstReduce} of them (tests use small numbers, so that small problems take
     * those paths too).
     */
    AcyclicSolver(int variables, AcyclicityTheory theory, boolean[] preferredPositive, int chronoJump, int restartUnit,
            int firstReduce) {
        if (chronoJump < 0 || restartUnit < 1 || firstReduce < 1) {
            // restartUnit 0 restarts before every decision and never ends; firstReduce 0 halves the
            // learnt clauses before every decision.
            throw new IllegalArgumentException("chronoJump " + chronoJump + ", restartUnit " + restartUnit
                    + ", firstReduce " + firstReduce);
        }
        this.firstReduce = firstReduce;
        this.reduceAt = firstReduce;
        this.chronoJump = chronoJump;
        this.restartUnit = restartUnit;
        this.variables = variables;
        this.theory = theory;
        this.preferredPositive = preferredPositive;
        int literals = 2 * (variables + 1);
        watches = new int[literals][];
        watchCount = new int[literals];
        value = new byte[variables + 1];
        level = new int[variables + 1];
        reason = new int[variables + 1];
        inTheory = new boolean[variables + 1];
        trail = new int[variables + 1];
        activity = new double[variables + 1];
        heap = new int[variables + 1];
        heapIndex = new int[variables + 1];
        seen = new boolean[variables + 1];
        levelMark = new int[variables + 2];
        Arrays.fill(heapIndex, -1);
        for (int v = 1; v <= variables; v++) {
            heapInsert(v);
        }
    }

    /** Statistics for the stage report: decisions, conflicts and chronological backtracks so far. */
    long decisions() {
        return decisions;
    }

    long conflicts() {
        return conflicts;
    }

    long chronologicalBacktracks() {
        return chronological;
    }

    long restarts() {
        return restarts;
    }

    long reductions() {
        return reductions;
    }

    /**
     * Adds a clause of DIMACS literals, at level 0 (the search backtracks there first). A clause
     * false at level 0 makes the problem unsatisfiable.
     */
    void addClause(int[] dimacs) {
        backtrack(0);
        if (contradiction) {
            return;
        }
        int[] lits = new int[dimacs.length];
        int size = 0;
        for (int d : dimacs) {
            if (d == 0 || Math.abs(d) > variables) {
                throw new IllegalArgumentException("literal " + d + " outside variables 1.." + variables);
            }
            int lit = d > 0 ? d << 1 : ((-d) << 1) | 1;
            int v = valueOf(lit);
            if (v == 1 && level[lit >> 1] == 0) {
                return; // satisfied for good
            }
            if (v == -1 && level[lit >> 1] == 0) {
                continue; // false for good
            }
            boolean duplicate = false;
            for (int i = 0; i < size; i++) {
                if (lits[i] == lit) {
                    duplicate = true;
                } else if (lits[i] == (lit ^ 1)) {
                    return; // a tautology
                }
            }
            if (!duplicate) {
                lits[size++] = lit;
            }
        }
        if (size == 0) {
            contradiction = true;
        } else if (size == 1) {
            assign(lits[0], 0, DECISION);
        } else {
            store(Arrays.copyOf(lits, size), false, 0);
            originalCount++;
        }
    }

    /**
     * Searches for a model until {@code deadlineNanos} ({@link System#nanoTime()}); may be called
     * again after {@link #addClause}.
     */
    Result solve(long deadlineNanos) {
        if (contradiction) {
            return Result.UNSATISFIABLE;
        }
        backtrack(0);
        long restartAt = conflicts + restartUnit * luby(1);
        int lubyIndex = 1;
        long steps = 0;
        while (true) {
            if ((++steps & 1023) == 0 && System.nanoTime() - deadlineNanos > 0) {
                return Result.TIMED_OUT;
            }
            int conflict = propagate();
            if (conflict != NO_CONFLICT) {
                conflicts++;
                int levelBefore = decisionLevel;
                if (!resolve(conflict)) {
                    contradiction = true;
                    return Result.UNSATISFIABLE;
                }
                // propagate() stopped at a literal of the decision level and skipped the watches and
                // the theory of it and of those after it; they are propagated again only because
                // every way through resolve() backtracks at least one level, which moves them to
                // levelStart[target] or later. A way that kept the decision level would lose them.
                assert decisionLevel < levelBefore : "a conflict resolved without backtracking";
                varDecay();
                continue;
            }
            if (conflicts >= restartAt) {
                backtrack(0);
                restarts++;
                restartAt = conflicts + restartUnit * luby(++lubyIndex);
                continue;
            }
            if (learntCount >= reduceAt) {
                reduceLearnt();
                reduceAt += Math.max(1, firstReduce / 2);
            }
            int v = nextVariable();
            if (v == 0) {
                return Result.SATISFIABLE;
            }
            decisions++;
            newLevel();
            int preferred = preferredPositive != null && v < preferredPositive.length && preferredPositive[v] ? v << 1
                    : (v << 1) | 1;
            assign(theory == null ? preferred : theory.phase(v, preferred), decisionLevel, DECISION);
        }
    }

    /**
     * The model of the last satisfiable {@link #solve}, by variable, after checking it against
     * every clause (an unsatisfied clause is a bug in this search and is reported as one).
     */
    boolean[] model() {
        boolean[] model = new boolean[variables + 1];
        for (int v = 1; v <= variables; v++) {
            if (value[v] == 0) {
                throw new IllegalStateException("variable " + v + " has no value");
            }
            model[v] = value[v] == 1;
        }
        for (int c = 0; c < clauseCount; c++) {
            if (deleted[c]) {
                continue;
            }
            boolean satisfied = false;
            for (int lit : clauses[c]) {
                satisfied |= model[lit >> 1] == ((lit & 1) == 0);
            }
            if (!satisfied) {
                throw new IllegalStateException("the search's model leaves a clause unsatisfied");
            }
        }
        return model;
    }

    private int valueOf(int lit) {
        int v = value[lit >> 1];
        return (lit & 1) == 0 ? v : -v;
    }

    private void assign(int lit, int atLevel, int why) {
        int v = lit >> 1;
        value[v] = (byte) ((lit & 1) == 0 ? 1 : -1);
        level[v] = atLevel;
        reason[v] = why;
        trail[trailSize++] = lit;
    }

    private void newLevel() {
        if (decisionLevel == levelStart.length) {
            levelStart = Arrays.copyOf(levelStart, decisionLevel * 2);
        }
        levelStart[decisionLevel++] = trailSize;
    }

    /**
     * Unit propagation over the clauses, and the theory on each literal propagated. Returns the
     * conflicting clause, {@link #THEORY_CONFLICT} (a cycle, in {@code theory.conflict()}) or
     * {@link #NO_CONFLICT}.
     */
    private int propagate() {
        while (propagated < trailSize) {
            int p = trail[propagated++];
            int falseLit = p ^ 1;
            int[] list = watches[falseLit];
            int n = watchCount[falseLit];
            int kept = 0;
            for (int i = 0; i < n; i++) {
                int c = list[i];
                if (deleted[c]) {
                    continue;
                }
                int[] lits = clauses[c];
                if (lits[0] == falseLit) {
                    lits[0] = lits[1];
                    lits[1] = falseLit;
                }
                int first = lits[0];
                if (valueOf(first) == 1) {
                    list[kept++] = c;
                    continue;
                }
                boolean moved = false;
                for (int k = 2; k < lits.length; k++) {
                    if (valueOf(lits[k]) != -1) {
                        lits[1] = lits[k];
                        lits[k] = falseLit;
                        watch(lits[1], c);
                        moved = true;
                        break;
                    }
                }
                if (moved) {
                    continue;
                }
                list[kept++] = c;
                if (valueOf(first) == -1) {
                    while (++i < n) {
                        list[kept++] = list[i];
                    }
                    watchCount[falseLit] = kept;
                    propagated = trailSize;
                    return c;
                }
                // Implied at the highest level among the others: lower than the current one
                // when chronological backtracking left lower-level literals late on the trail.
                int at = 0;
                for (int k = 1; k < lits.length; k++) {
                    at = Math.max(at, level[lits[k] >> 1]);
                }
                assign(first, at, c);
            }
            watchCount[falseLit] = kept;
            int v = p >> 1;
            if (theory != null && !inTheory[v] && theory.conditionsEdges(p)) {
                if (theory.assign(p)) {
                    inTheory[v] = true;
                } else {
                    // The literal's edges leave again: it is counted once, when propagated anew.
                    theory.unassign(p);
                    propagated = trailSize;
                    return THEORY_CONFLICT;
                }
            }
        }
        return NO_CONFLICT;
    }

    /**
     * Handles a conflict: learns a clause and backtracks, or asserts a missed implication.
     * Returns false when the conflict is at level 0 (unsatisfiable).
     */
    private boolean resolve(int conflict) {
        int[] lits;
        if (conflict == THEORY_CONFLICT) {
            int[] cycle = theory.conflict();
            lits = new int[cycle.length];
            for (int i = 0; i < cycle.length; i++) {
                lits[i] = cycle[i] ^ 1;
            }
        } else {
            lits = clauses[conflict];
        }
        int top = 0;
        int atTop = 0;
        for (int lit : lits) {
            int l = level[lit >> 1];
            if (l > top) {
                top = l;
                atTop = 1;
            } else if (l == top) {
                atTop++;
            }
        }
        if (top == 0) {
            return false;
        }
        if (atTop == 1 && lits.length == 1) {
            // A self-loop: its literal is false for good.
            backtrack(top - 1);
            assign(lits[0], 0, DECISION);
            return true;
        }
        if (atTop == 1) {
            // One literal at the top level: the clause implied it at a lower level, which the
            // trail missed. Assert it there; nothing to learn.
            int clause = conflict == THEORY_CONFLICT ? storeCycleClause(lits) : conflict;
            int[] stored = clauses[clause];
            watchHighest(clause, stored);
            backtrack(top - 1);
            int at = 0;
            for (int k = 1; k < stored.length; k++) {
                at = Math.max(at, level[stored[k] >> 1]);
            }
            assign(stored[0], at, clause);
            return true;
        }
        backtrack(top);
        int size = analyze(lits, top);
        int[] learntClause = Arrays.copyOf(learntBuffer, size);
        int jumpTo = 0;
        if (size > 1) {
            int highest = 1;
            for (int k = 2; k < size; k++) {
                if (level[learntClause[k] >> 1] > level[learntClause[highest] >> 1]) {
                    highest = k;
                }
            }
            int swap = learntClause[1];
            learntClause[1] = learntClause[highest];
            learntClause[highest] = swap;
            jumpTo = level[learntClause[1] >> 1];
        }
        if (top - jumpTo > chronoJump) {
            chronological++;
            backtrack(top - 1);
        } else {
            backtrack(jumpTo);
        }
        if (size == 1) {
            assign(learntClause[0], 0, DECISION);
        } else {
            int clause = store(learntClause, true, blockCount(learntClause));
            assign(learntClause[0], jumpTo, clause);
        }
        return true;
    }

    /** A cycle's clause (two literals or more) stored as learnt (the theory implies it), so that it can be a reason. */
    private int storeCycleClause(int[] lits) {
        return store(lits.clone(), true, blockCount(lits));
    }

    /**
     * Puts the clause's highest-level literal first and the next highest second, and watches
     * those two, so that after backtracking below the first it is unit on it with a correct watch.
     */
    private void watchHighest(int clause, int[] lits) {
        if (lits.length < 2) {
            return;
        }
        int w0 = lits[0];
        int w1 = lits[1];
        for (int i = 0; i < 2; i++) {
            int best = i;
            for (int k = i + 1; k < lits.length; k++) {
                if (level[lits[k] >> 1] > level[lits[best] >> 1]) {
                    best = k;
                }
            }
            int swap = lits[i];
            lits[i] = lits[best];
            lits[best] = swap;
        }
        if (lits[0] != w0 && lits[0] != w1 || lits[1] != w0 && lits[1] != w1) {
            unwatch(w0, clause);
            unwatch(w1, clause);
            watch(lits[0], clause);
            watch(lits[1], clause);
        }
    }

    /**
     * First-UIP analysis of a conflict whose literals are all false, the highest at level
     * {@code top} (the current one). Leaves the learnt clause in {@code learntBuffer[0..size)},
     * the asserting literal first.
     */
    private int analyze(int[] conflictLits, int top) {
        int size = 1;
        int pending = 0;
        int p = -1;
        int index = trailSize - 1;
        int[] lits = conflictLits;
        while (true) {
            for (int q : lits) {
                int v = q >> 1;
                if (p >= 0 && v == (p >> 1)) {
                    continue;
                }
                if (!seen[v] && level[v] > 0) {
                    seen[v] = true;
                    bump(v);
                    if (level[v] >= top) {
                        pending++;
                    } else {
                        if (size == learntBuffer.length) {
                            learntBuffer = Arrays.copyOf(learntBuffer, size * 2);
                        }
                        learntBuffer[size++] = q;
                    }
                }
            }
            while (true) {
                int lit = trail[index--];
                if (seen[lit >> 1] && level[lit >> 1] == top) {
                    p = lit;
                    break;
                }
            }
            seen[p >> 1] = false;
            pending--;
            if (pending == 0) {
                break;
            }
            int why = reason[p >> 1];
            if (why < 0) {
                throw new IllegalStateException("a decision is not the last literal of its level to analyse");
            }
            lits = clauses[why];
        }
        learntBuffer[0] = p ^ 1;
        // Drop literals whose reason's other literals are all in the clause already (or fixed);
        // decided on the marks of the whole clause, which are cleared before compacting it.
        boolean[] drop = new boolean[size];
        for (int i = 1; i < size; i++) {
            drop[i] = redundant(learntBuffer[i]);
        }
        int kept = 1;
        for (int i = 1; i < size; i++) {
            seen[learntBuffer[i] >> 1] = false;
            if (!drop[i]) {
                learntBuffer[kept++] = learntBuffer[i];
            }
        }
        return kept;
    }

    private boolean redundant(int q) {
        int why = reason[q >> 1];
        if (why < 0) {
            return false;
        }
        for (int r : clauses[why]) {
            int v = r >> 1;
            if (v != (q >> 1) && !seen[v] && level[v] > 0) {
                return false;
            }
        }
        return true;
    }

    /** Literal block distance: how many decision levels the clause spans. */
    private int blockCount(int[] lits) {
        levelStamp++;
        int count = 0;
        for (int lit : lits) {
            int l = level[lit >> 1];
            if (levelMark[Math.min(l, levelMark.length - 1)] != levelStamp) {
                levelMark[Math.min(l, levelMark.length - 1)] = levelStamp;
                count++;
            }
        }
        return count;
    }

    /**
     * Undoes every level above {@code target}, keeping the literals at or below it in trail order
     * (chronological backtracking leaves some of them after higher ones).
     */
    private void backtrack(int target) {
        if (decisionLevel <= target) {
            return;
        }
        int start = levelStart[target];
        int kept = start;
        for (int i = trailSize - 1; i >= start; i--) {
            int lit = trail[i];
            int v = lit >> 1;
            if (level[v] > target) {
                if (inTheory[v]) {
                    theory.unassign(lit);
                    inTheory[v] = false;
                }
                value[v] = 0;
                reason[v] = DECISION;
                if (heapIndex[v] < 0) {
                    heapInsert(v);
                }
            }
        }
        for (int i = start; i < trailSize; i++) {
            int lit = trail[i];
            if (value[lit >> 1] != 0) {
                trail[kept++] = lit;
            }
        }
        trailSize = kept;
        // The kept literals after the cut are propagated again: their watches are idempotent, the
        // theory counts each literal once.
        propagated = Math.min(propagated, start);
        decisionLevel = target;
    }

    private int store(int[] lits, boolean isLearnt, int blocks) {
        if (clauseCount == clauses.length) {
            int grown = clauseCount * 2;
            clauses = Arrays.copyOf(clauses, grown);
            learnt = Arrays.copyOf(learnt, grown);
            deleted = Arrays.copyOf(deleted, grown);
            lbd = Arrays.copyOf(lbd, grown);
        }
        int c = clauseCount++;
        clauses[c] = lits;
        learnt[c] = isLearnt;
        lbd[c] = blocks;
        if (isLearnt) {
            learntCount++;
        }
        watch(lits[0], c);
        if (lits.length > 1) {
            watch(lits[1], c);
        }
        return c;
    }

    private void watch(int lit, int clause) {
        int[] list = watches[lit];
        if (list == null) {
            list = new int[4];
            watches[lit] = list;
        } else if (watchCount[lit] == list.length) {
            list = Arrays.copyOf(list, list.length * 2);
            watches[lit] = list;
        }
        list[watchCount[lit]++] = clause;
    }

    private void unwatch(int lit, int clause) {
        int[] list = watches[lit];
        int n = watchCount[lit];
        for (int i = 0; i < n; i++) {
            if (list[i] == clause) {
                list[i] = list[n - 1];
                watchCount[lit] = n - 1;
                return;
            }
        }
    }

    /** Deletes half of the learnt clauses, those spanning the most levels, except reasons. */
    private void reduceLearnt() {
        reductions++;
        int candidates = 0;
        int[] order = new int[learntCount];
        for (int c = 0; c < clauseCount; c++) {
            if (learnt[c] && !deleted[c] && lbd[c] > 2 && !isReason(c)) {
                order[candidates++] = c;
            }
        }
        Integer[] boxed = new Integer[candidates];
        for (int i = 0; i < candidates; i++) {
            boxed[i] = order[i];
        }
        Arrays.sort(boxed, (a, b) -> lbd[b] != lbd[a] ? Integer.compare(lbd[b], lbd[a]) : Integer.compare(a, b));
        for (int i = 0; i < candidates / 2; i++) {
            int c = boxed[i];
            deleted[c] = true;
            clauses[c] = null;
            learntCount--;
        }
    }

    private boolean isReason(int c) {
        int[] lits = clauses[c];
        for (int lit : lits) {
            int v = lit >> 1;
            if (value[v] != 0 && reason[v] == c) {
                return true;
            }
        }
        return false;
    }

    private int nextVariable() {
        while (heapSize > 0) {
            int v = heapRemoveTop();
            if (value[v] == 0) {
                return v;
            }
        }
        return 0;
    }

    private void bump(int v) {
        activity[v] += increment;
        if (activity[v] > 1e100) {
            for (int u = 1; u <= variables; u++) {
                activity[u] *= 1e-100;
            }
            increment *= 1e-100;
        }
        if (heapIndex[v] >= 0) {
            heapUp(heapIndex[v]);
        }
    }

    private void varDecay() {
        increment /= VAR_DECAY;
    }

    private static long luby(int i) {
        // The i-th element (1-based) of the Luby sequence 1 1 2 1 1 2 4 ...
        int k = 1;
        while ((1L << k) - 1 < i) {
            k++;
        }
        while (i != (1L << k) - 1) {
            i -= (int) ((1L << (k - 1)) - 1);
            k = 1;
            while ((1L << k) - 1 < i) {
                k++;
            }
        }
        return 1L << (k - 1);
    }

    private boolean before(int a, int b) {
        return activity[a] > activity[b] || activity[a] == activity[b] && a < b;
    }

    private void heapInsert(int v) {
        heap[heapSize] = v;
        heapIndex[v] = heapSize;
        heapUp(heapSize++);
    }

    private void heapUp(int i) {
        int v = heap[i];
        while (i > 0) {
            int parent = (i - 1) >> 1;
            if (!before(v, heap[parent])) {
                break;
            }
            heap[i] = heap[parent];
            heapIndex[heap[i]] = i;
            i = parent;
        }
        heap[i] = v;
        heapIndex[v] = i;
    }

    private int heapRemoveTop() {
        int top = heap[0];
        heapIndex[top] = -1;
        int last = heap[--heapSize];
        if (heapSize > 0) {
            int i = 0;
            while (true) {
                int child = 2 * i + 1;
                if (child >= heapSize) {
                    break;
                }
                if (child + 1 < heapSize && before(heap[child + 1], heap[child])) {
                    child++;
                }
                if (!before(heap[child], last)) {
                    break;
                }
                heap[i] = heap[child];
                heapIndex[heap[i]] = i;
                i = child;
            }
            heap[i] = last;
            heapIndex[last] = i;
        }
        return top;
    }
}
