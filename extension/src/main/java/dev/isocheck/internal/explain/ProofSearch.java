package dev.isocheck.internal.explain;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The search for a proof by cases over an {@link ExplanationSpace}: a tree of choices (the order of
 * two versions of a key; whether a read saw one write) whose leaves each have a forbidden cycle
 * certain under the choices leading there. Since every choice is split both ways, the leaves cover
 * every explanation.
 *
 * <p>First {@link #worstShortest()}: the largest, over all explanations, of the shortest forbidden
 * cycle, by branch and bound (a set of explanations whose certain cycles are no longer than the
 * largest found so far cannot raise it, so it is not split further). No proof can do with shorter
 * cycles: the worst explanation has none shorter. Then {@link #proof(int, int)} looks for a tree
 * with the fewest leaves whose cycles are no longer than that: exactly up to a few leaves, then
 * greedily (splitting where one side closes a cycle at once, as a person reasons: "if T2's version
 * came first, T2 -ww-> T1 -wr-> T2, so T1's came first").
 *
 * <p>Every look at a set of explanations (building its certain graph) counts against a budget; a
 * search that runs out says so, and the explainer answers that it could not explain.
 */
final class ProofSearch {

    /** {@link #worstShortest()}: some explanation has no forbidden cycle. */
    static final int NO_CYCLE = -1;
    /** {@link #worstShortest()}: the budget ran out. */
    static final int EXHAUSTED = -2;

    /** Exact search for the fewest leaves up to this many; beyond, greedy. */
    private static final int EXACT_LEAVES = 4;

    private final ExplanationSpace space;
    private final long budget;
    private long spent;
    private Facts counterexample;
    private int worst;
    private final Map<Facts.Key, Integer> failed = new HashMap<>();

    /** A {@link System#nanoTime()} after which the search counts as out of budget, if {@link #timed}. */
    private final long deadline;
    private final boolean timed;

    ProofSearch(ExplanationSpace space, long budget) {
        this(space, budget, OptionalLong.empty());
    }

    /** A search that also runs out at {@code deadlineNanos} when given (a {@link System#nanoTime()}). */
    ProofSearch(ExplanationSpace space, long budget, OptionalLong deadlineNanos) {
        this.space = space;
        this.budget = budget;
        this.timed = deadlineNanos.isPresent();
        this.deadline = deadlineNanos.orElse(0);
    }

    /** Whether the budget ran out. */
    boolean exhausted() {
        return spent > budget;
    }

    /** How many sets of explanations were looked at. */
    long spent() {
        return spent;
    }

    /** An explanation without a forbidden cycle, once {@link #worstShortest()} answered {@link #NO_CYCLE}. */
    Facts counterexample() {
        return counterexample;
    }

    /**
     * The largest, over every explanation, of its shortest forbidden cycle's length; or
     * {@link #NO_CYCLE}, or {@link #EXHAUSTED}.
     */
    int worstShortest() {
        Facts root = space.unconstrained();
        worst = 2;
        visit(root, shortest(root));
        if (counterexample != null) {
            return NO_CYCLE;
        }
        return exhausted() ? EXHAUSTED : worst;
    }

    private void visit(Facts facts, int length) {
        if (exhausted() || counterexample != null || length <= worst) {
            return;
        }
        List<Evaluated> splits = evaluatedSplits(facts, worst);
        if (splits.isEmpty()) {
            if (length == CertainGraph.NONE) {
                counterexample = facts;
            } else {
                worst = length;
            }
            return;
        }
        Evaluated split = splits.get(0);
        visit(split.yes(), split.yesLength());
        visit(split.no(), split.noLength());
    }

    /**
     * A tree of at most {@code maxLeaves} leaves whose cycles have at most {@code bound} edges, with
     * as few leaves as found; {@code null} if the search needs more leaves or runs out of budget.
     */
    Node proof(int bound, int maxLeaves) {
        Facts root = space.unconstrained();
        int length = shortest(root);
        for (int leaves = 1; leaves <= Math.min(EXACT_LEAVES, maxLeaves); leaves++) {
            Node found = exact(root, length, bound, leaves, List.of());
            if (found != null || exhausted()) {
                return found;
            }
        }
        int[] budgetLeft = {maxLeaves};
        Node found = greedy(root, length, bound, List.of(), budgetLeft);
        return exhausted() || budgetLeft[0] < 0 ? null : found;
    }

    private Node exact(Facts facts, int length, int bound, int maxLeaves, List<Choice> path) {
        if (length <= bound) {
            return new Leaf(facts, length, path);
        }
        if (maxLeaves < 2 || exhausted()) {
            return null;
        }
        Facts.Key key = facts.key();
        if (failed.getOrDefault(key, 0) >= maxLeaves) {
            return null;
        }
        for (Evaluated split : evaluatedSplits(facts, bound)) {
            Node yes = null;
            for (int leaves = 1; leaves < maxLeaves && yes == null; leaves++) {
                yes = exact(split.yes(), split.yesLength(), bound, leaves, append(path, split.split().yes()));
            }
            if (yes == null) {
                continue;
            }
            Node no = exact(split.no(), split.noLength(), bound, maxLeaves - yes.leaves(), append(path, split.split().no()));
            if (no != null) {
                return new Branch(yes, no);
            }
            if (exhausted()) {
                return null;
            }
        }
        failed.merge(key, maxLeaves, Math::max);
        return null;
    }

    private Node greedy(Facts facts, int length, int bound, List<Choice> path, int[] leavesLeft) {
        if (length <= bound) {
            leavesLeft[0]--;
            return new Leaf(facts, length, path);
        }
        if (exhausted() || leavesLeft[0] < 0) {
            return null;
        }
        List<Evaluated> splits = evaluatedSplits(facts, bound);
        if (splits.isEmpty()) {
            // Cannot happen when bound is the worst shortest cycle: every complete explanation has
            // a cycle that short. Treated as a failed search rather than trusted.
            leavesLeft[0] = -1;
            return null;
        }
        Evaluated split = splits.get(0);
        Node yes = greedy(split.yes(), split.yesLength(), bound, append(path, split.split().yes()), leavesLeft);
        if (yes == null) {
            return null;
        }
        Node no = greedy(split.no(), split.noLength(), bound, append(path, split.split().no()), leavesLeft);
        return no == null ? null : new Branch(yes, no);
    }

    private static List<Choice> append(List<Choice> path, Choice choice) {
        List<Choice> out = new ArrayList<>(path.size() + 1);
        out.addAll(path);
        out.add(choice);
        return List.copyOf(out);
    }

    /** The shortest forbidden cycle certain under {@code facts}, counted against the budget. */
    int shortest(Facts facts) {
        spent++;
        if (timed && (spent & 255) == 0 && System.nanoTime() - deadline >= 0) {
            // Out of time: the search stops as if out of budget.
            spent = Math.max(spent, budget + 1);
        }
        return CertainGraph.of(space, facts).shortestForbidden();
    }

    /**
     * Every open choice with both sides evaluated, best first: most sides that close a cycle of at
     * most {@code bound} edges, then the shortest cycle on either side, then the shorter other side,
     * then in the order the choices are listed (keys, then observations).
     */
    private List<Evaluated> evaluatedSplits(Facts facts, int bound) {
        List<Evaluated> out = new ArrayList<>();
        for (Split split : splits(facts)) {
            Facts yes = split.yes().apply(space, facts);
            Facts no = split.no().apply(space, facts);
            out.add(new Evaluated(split, yes, shortest(yes), no, shortest(no), out.size()));
        }
        out.sort(Comparator.comparingInt((Evaluated e) -> -e.closing(bound))
                .thenComparingInt(e -> Math.min(e.yesLength(), e.noLength()))
                .thenComparingInt(e -> Math.max(e.yesLength(), e.noLength()))
                .thenComparingInt(Evaluated::order));
        return out;
    }

    /** The choices still open under {@code facts}: unordered pairs of versions, and reads with several sources left. */
    List<Split> splits(Facts facts) {
        List<Split> out = new ArrayList<>();
        for (int key = 0; key < space.keyCount(); key++) {
            int installers = space.installers(key);
            for (int a = 0; a < space.size(); a++) {
                for (int b = a + 1; b < space.size(); b++) {
                    if ((installers & (1 << a)) != 0 && (installers & (1 << b)) != 0
                            && !facts.ordered(key, a, b) && !facts.ordered(key, b, a)) {
                        out.add(new Split(true, key, a, b));
                    }
                }
            }
        }
        for (int o = 0; o < space.observations().size(); o++) {
            int remaining = facts.remaining(o);
            int count = Integer.bitCount(remaining);
            if (count < 2) {
                continue;
            }
            int[] candidates = space.observations().get(o).candidates();
            for (int rest = remaining; rest != 0; rest &= rest - 1) {
                int at = Integer.numberOfTrailingZeros(rest);
                if (candidates[at] == ExplanationSpace.OUTSIDE) {
                    // Never a split's subject (it is listed last, so a split on another candidate
                    // can always leave it alone): an assumption names a transaction shown, or the
                    // initial state.
                    continue;
                }
                out.add(new Split(false, o, at, 0));
                if (count == 2) {
                    // "Saw the first" and "saw the second" are one split.
                    break;
                }
            }
        }
        return out;
    }

    /**
     * A choice that splits a set of explanations in two.
     *
     * @param order   an order of two versions ({@code subject} a local key, {@code a} before
     *                {@code b} on the yes side), or else a source ({@code subject} an observation,
     *                {@code a} a candidate position: the only source on the yes side, excluded on
     *                the no side)
     * @param subject the key or the observation
     * @param a       a node, or a candidate position
     * @param b       a node, or unused
     */
    record Split(boolean order, int subject, int a, int b) {
        Choice yes() {
            return new Choice(this, true);
        }

        Choice no() {
            return new Choice(this, false);
        }
    }

    /**
     * One side of a split: a fact assumed on the way to a leaf.
     *
     * @param split the split
     * @param yes   which side
     */
    record Choice(Split split, boolean yes) {
        /** {@code facts} with this choice made, and what it implies in {@code space} ({@link ExplanationSpace#settle}). */
        Facts apply(ExplanationSpace space, Facts facts) {
            if (split.order()) {
                return yes ? facts.order(split.subject(), split.a(), split.b()) : facts.order(split.subject(), split.b(), split.a());
            }
            int bit = 1 << split.a();
            int remaining = facts.remaining(split.subject());
            return space.settle(facts.sources(split.subject(), yes ? remaining & bit : remaining & ~bit));
        }
    }

    private record Evaluated(Split split, Facts yes, int yesLength, Facts no, int noLength, int order) {
        int closing(int bound) {
            return (yesLength <= bound ? 1 : 0) + (noLength <= bound ? 1 : 0);
        }
    }

    /** A proof tree. */
    sealed interface Node permits Leaf, Branch {
        /** How many leaves. */
        int leaves();

        /** The leaves, yes sides first. */
        default List<Leaf> leafList() {
            List<Leaf> out = new ArrayList<>();
            collect(this, out);
            return out;
        }

        private static void collect(Node node, List<Leaf> out) {
            if (node instanceof Leaf leaf) {
                out.add(leaf);
            } else if (node instanceof Branch branch) {
                collect(branch.yes(), out);
                collect(branch.no(), out);
            }
        }
    }

    /**
     * A set of explanations with a certain forbidden cycle.
     *
     * @param facts  the facts there
     * @param length the length of its shortest certain forbidden cycle
     * @param path   the choices that lead there from the root
     */
    record Leaf(Facts facts, int length, List<Choice> path) implements Node {
        @Override
        public int leaves() {
            return 1;
        }
    }

    /**
     * A split with the proofs of both sides.
     *
     * @param yes the proof under the split's yes side
     * @param no  the proof under its no side
     */
    record Branch(Node yes, Node no) implements Node {
        @Override
        public int leaves() {
            return yes.leaves() + no.leaves();
        }
    }
}
