package dev.isocheck.internal.solve;

import org.sat4j.core.LiteralsUtils;
import org.sat4j.minisat.core.IPhaseSelectionStrategy;

/**
 * VeriStrong's order-guided polarity: each variable is first tried with the value the preferred
 * order (a topological order of the pruned graph, guided by time) gives it, so that the first
 * model is that order's own choices wherever nothing forces otherwise, and a history a correct
 * database produced is usually accepted by the first model.
 *
 * <p>The phases stay fixed (no phase saving): the order is the better guess after a conflict too,
 * since learnt cycle clauses only exclude what contradicts it. sat4j's own fixed-phase strategy
 * resets its phases when the solver initialises its order, hence this small implementation.
 */
final class OrderGuidedPhase implements IPhaseSelectionStrategy {

    private static final long serialVersionUID = 1L;

    private final boolean[] positive;
    private AcyclicityTheory theory;

    /** Phases by variable (index 1..n; {@code true}: try true first). */
    OrderGuidedPhase(boolean[] positive) {
        this.positive = positive;
    }

    /** From now on, asks {@code theory} first: its current order may know better than the initial one. */
    void followOrderOf(AcyclicityTheory theory) {
        this.theory = theory;
    }

    @Override
    public int select(int var) {
        int preferred = var < positive.length && positive[var] ? LiteralsUtils.posLit(var) : LiteralsUtils.negLit(var);
        return theory == null ? preferred : theory.phase(var, preferred);
    }

    @Override
    public void init(int nlength) {
        // The phases come from the order, not from the solver.
    }

    @Override
    public void init(int var, int p) {
        // Fixed phases: nothing to record.
    }

    @Override
    public void updateVar(int p) {
        // Fixed phases: nothing to record.
    }

    @Override
    public void assignLiteral(int p) {
        // Fixed phases: nothing to record.
    }

    @Override
    public void updateVarAtDecisionLevel(int q) {
        // Fixed phases: nothing to record.
    }
}
