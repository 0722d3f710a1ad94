package dev.isocheck.internal.solve;

import dev.isocheck.internal.graph.EdgeKind;
import java.util.Arrays;
import java.util.PriorityQueue;
import org.sat4j.core.LiteralsUtils;
import org.sat4j.minisat.core.ILits;
import org.sat4j.minisat.core.Solver;
import org.sat4j.specs.Constr;
import org.sat4j.specs.MandatoryLiteralListener;
import org.sat4j.specs.Propagatable;
import org.sat4j.specs.UnitPropagationListener;
import org.sat4j.specs.VarMapper;
import org.sat4j.minisat.core.Undoable;

/**
 * The acyclicity theory inside sat4j's search: a constraint that watches every literal that puts
 * an edge in the dependency graph, adds the edge the moment its last literal becomes true, and
 * reports a conflict the moment an edge closes a cycle. The conflict's reason is the literals of
 * that cycle's edges, so sat4j learns "not all of these" through its own conflict analysis, at
 * the decision level where the cycle appeared, instead of after a whole model was built (the
 * solve–check–learn loop, which the caller keeps as an independent check of every model).
 *
 * <p>Cycle detection is incremental, keeping a topological order of the current edges
 * (Pearce–Kelly, "A dynamic topological sort algorithm for directed acyclic graphs", 2006): an
 * edge that goes forward in the order costs nothing; one that goes backward searches only the
 * nodes between its ends, and either finds the cycle (a breadth-first search, so the cycle and
 * the clause are as short as that edge allows) or moves those nodes so that the order holds
 * again. Removing edges on backtracking never breaks the order, so it costs no search at all.
 *
 * <p>For snapshot isolation the graph is {@code (SO ∪ WR ∪ WW) ; RW?} without building that
 * composition: every node has a second copy "entered by a read-write edge". Other edges leave
 * both copies and enter the first; read-write edges leave only the first copy and enter the
 * second. A walk may then never take two read-write edges in a row, and its cycles are exactly
 * the cycles snapshot isolation forbids (VeriStrong, appendix; a read-write edge alone, like write
 * skew's two, never closes one).
 */
final class AcyclicityTheory implements Constr, Propagatable, Undoable {

    private final int nodes;
    private final int edgeCount;
    private final int[] from;
    private final int[] to;
    private final int[] literalA;
    private final int[] literalB;
    private final byte[] needed;
    private final byte[] trueCount;
    private final boolean[] active;
    private final int[] outStart;
    private final int[] outEdges;
    private final int[] inStart;
    private final int[] inEdges;
    /** Edges by the internal (sat4j) literal that conditions them. */
    private final int[] literalStart;
    private final int[] literalEdges;
    private final int[] order;
    private final int[] mark;
    private int stamp;
    private final int[] via;
    private final int[] queue;
    private final int[] forward;
    private int forwardSize;
    private final int[] backward;
    private int backwardSize;
    private ILits vocabulary;
    private int[] conflict = new int[0];
    static final int NAMED = 10;
    private final int[] named = new int[NAMED];
    private int namedSize;
    private final int transactionNodes;
    private int conflicts;

    private AcyclicityTheory(int nodes, Edges edges, int variables, boolean snapshot, int[] rank) {
        this.nodes = nodes;
        this.transactionNodes = snapshot ? nodes / 2 : nodes;
        this.edgeCount = edges.size;
        // Edges sized exactly (as of() sizes them) are taken as they are: no second copy.
        this.from = edges.from.length == edgeCount ? edges.from : Arrays.copyOf(edges.from, edgeCount);
        this.to = edges.to.length == edgeCount ? edges.to : Arrays.copyOf(edges.to, edgeCount);
        this.literalA = edges.a.length == edgeCount ? edges.a : Arrays.copyOf(edges.a, edgeCount);
        this.literalB = edges.b.length == edgeCount ? edges.b : Arrays.copyOf(edges.b, edgeCount);
        needed = new byte[edgeCount];
        trueCount = new byte[edgeCount];
        active = new boolean[edgeCount];
        int literals = 2 * (variables + 1);
        literalStart = new int[literals + 1];
        for (int e = 0; e < edgeCount; e++) {
            if (literalA[e] != 0) {
                literalStart[LiteralsUtils.toInternal(literalA[e]) + 1]++;
                needed[e]++;
            }
            if (literalB[e] != 0 && literalB[e] != literalA[e]) {
                literalStart[LiteralsUtils.toInternal(literalB[e]) + 1]++;
                needed[e]++;
            }
        }
        for (int l = 0; l < literals; l++) {
            literalStart[l + 1] += literalStart[l];
        }
        literalEdges = new int[literalStart[literals]];
        int[] fill = Arrays.copyOf(literalStart, literals);
        for (int e = 0; e < edgeCount; e++) {
            if (literalA[e] != 0) {
                literalEdges[fill[LiteralsUtils.toInternal(literalA[e])]++] = e;
            }
            if (literalB[e] != 0 && literalB[e] != literalA[e]) {
                literalEdges[fill[LiteralsUtils.toInternal(literalB[e])]++] = e;
            }
        }
        outStart = new int[nodes + 1];
        inStart = new int[nodes + 1];
        for (int e = 0; e < edgeCount; e++) {
            outStart[from[e] + 1]++;
            inStart[to[e] + 1]++;
        }
        for (int n = 0; n < nodes; n++) {
            outStart[n + 1] += outStart[n];
            inStart[n + 1] += inStart[n];
        }
        outEdges = new int[edgeCount];
        inEdges = new int[edgeCount];
        int[] outFill = Arrays.copyOf(outStart, nodes);
        int[] inFill = Arrays.copyOf(inStart, nodes);
        for (int e = 0; e < edgeCount; e++) {
            outEdges[outFill[from[e]]++] = e;
            inEdges[inFill[to[e]]++] = e;
        }
        for (int e = 0; e < edgeCount; e++) {
            active[e] = needed[e] == 0;
        }
        order = initialOrder(rank, snapshot);
        mark = new int[nodes];
        via = new int[nodes];
        queue = new int[nodes];
        forward = new int[nodes];
        backward = new int[nodes];
    }

    /**
     * The theory over every edge {@code encoding} can choose. {@code rank} is the preferred order's
     * position of each transaction node; it seeds the topological order, so that the models the
     * order-guided phases produce mostly add edges that go forward.
     *
     * @throws IllegalStateException when the certain edges alone form a cycle (the caller checks
     *                               that first)
     */
    static AcyclicityTheory of(ResidualEncoding encoding, int transactionNodes, boolean snapshot, int[] rank) {
        int[] count = new int[1];
        encoding.edges((u, v, kind, a, b) -> count[0] += snapshot && kind != EdgeKind.READ_WRITE ? 2 : 1);
        Edges edges = new Edges(count[0]);
        if (snapshot) {
            encoding.edges((u, v, kind, a, b) -> {
                if (kind == EdgeKind.READ_WRITE) {
                    edges.add(u, v + transactionNodes, a, b);
                } else {
                    edges.add(u, v, a, b);
                    edges.add(u + transactionNodes, v, a, b);
                }
            });
        } else {
            encoding.edges((u, v, kind, a, b) -> edges.add(u, v, a, b));
        }
        return new AcyclicityTheory(snapshot ? 2 * transactionNodes : transactionNodes, edges, encoding.variableCount(),
                snapshot, rank);
    }

    /**
     * The theory over {@code nodes} nodes and edges given as {@code {from, to, literalA, literalB}}
     * (literals in DIMACS form over variables {@code 1..variables}, 0 for none), seeded with node
     * order; for tests.
     */
    static AcyclicityTheory over(int nodes, int variables, int[][] edgeList) {
        Edges edges = new Edges(edgeList.length);
        for (int[] e : edgeList) {
            edges.add(e[0], e[1], e[2], e[3]);
        }
        int[] rank = new int[nodes];
        for (int n = 0; n < nodes; n++) {
            rank[n] = n;
        }
        return new AcyclicityTheory(nodes, edges, variables, false, rank);
    }

    /** Growable parallel arrays of candidate edges. */
    private static final class Edges {
        int size;
        int[] from;
        int[] to;
        int[] a;
        int[] b;

        /** Room for {@code capacity} edges: when that is all of them, no array is copied. */
        Edges(int capacity) {
            from = new int[capacity];
            to = new int[capacity];
            a = new int[capacity];
            b = new int[capacity];
        }

        void add(int u, int v, int literalA, int literalB) {
            if (size == from.length) {
                int grown = Math.max(16, size * 2);
                from = Arrays.copyOf(from, grown);
                to = Arrays.copyOf(to, grown);
                a = Arrays.copyOf(a, grown);
                b = Arrays.copyOf(b, grown);
            }
            from[size] = u;
            to[size] = v;
            a[size] = literalA;
            b[size] = literalB;
            size++;
        }
    }

    /** Kahn's algorithm over the certain edges, taking ready nodes by preferred rank. */
    private int[] initialOrder(int[] rank, boolean snapshot) {
        int transactions = snapshot ? nodes / 2 : nodes;
        int[] indegree = new int[nodes];
        for (int e = 0; e < edgeCount; e++) {
            if (active[e]) {
                indegree[to[e]]++;
            }
        }
        // The copy entered by read-write edges sorts just before its transaction.
        PriorityQueue<Integer> ready = new PriorityQueue<>((x, y) -> {
            long kx = 2L * rank[x % transactions] + (x < transactions ? 1 : 0);
            long ky = 2L * rank[y % transactions] + (y < transactions ? 1 : 0);
            return kx != ky ? Long.compare(kx, ky) : Integer.compare(x, y);
        });
        for (int n = 0; n < nodes; n++) {
            if (indegree[n] == 0) {
                ready.add(n);
            }
        }
        int[] position = new int[nodes];
        int placed = 0;
        while (!ready.isEmpty()) {
            int u = ready.poll();
            position[u] = placed++;
            for (int i = outStart[u]; i < outStart[u + 1]; i++) {
                int e = outEdges[i];
                if (active[e] && --indegree[to[e]] == 0) {
                    ready.add(to[e]);
                }
            }
        }
        if (placed != nodes) {
            throw new IllegalStateException("the certain edges form a cycle");
        }
        return position;
    }

    /**
     * Watches the literals of every conditional edge; call after the solver has its variables and
     * before it has clauses, so that no assignment goes unseen.
     */
    void attachTo(Solver<?> solver) {
        vocabulary = solver.getVocabulary();
        // sat4j creates a variable's watch lists when a constraint first uses it; pair variables
        // may be in no clause at all, only here.
        for (int v = 1; 2 * v + 1 < literalStart.length; v++) {
            vocabulary.getFromPool(v);
        }
        for (int l = 2; l + 1 < literalStart.length; l++) {
            if (literalStart[l] != literalStart[l + 1]) {
                vocabulary.watch(l, this);
            }
        }
        solver.addConstr(this);
    }

    /**
     * Adds to {@code transactions} the transactions (history indexes) on the first cycles the
     * search ran into, at most {@link #NAMED} of them, for the verdict's text.
     */
    void nodesOnCycles(java.util.Set<Integer> transactions, dev.isocheck.internal.graph.KnownGraph known) {
        for (int i = 0; i < namedSize; i++) {
            transactions.add(known.transaction(named[i]));
        }
    }

    /**
     * The phase to try for {@code var} (internal literals): the polarity whose edges would all go
     * forward in the current topological order, when exactly one does; otherwise
     * {@code preferred}. VeriStrong picks polarity from the Pearce–Kelly levels the same way: the
     * order is the search's best guess of the serial order so far, and following it avoids most
     * cycles before they form.
     */
    int phase(int var, int preferred) {
        int positive = var << 1;
        int negative = positive | 1;
        if (positive + 1 >= literalStart.length) {
            return preferred;
        }
        boolean positiveForward = forward(positive);
        boolean negativeForward = forward(negative);
        if (positiveForward == negativeForward) {
            return preferred;
        }
        return positiveForward ? positive : negative;
    }

    /** Whether every edge that literal {@code p} would put in the graph goes forward in the order. */
    private boolean forward(int p) {
        for (int i = literalStart[p]; i < literalStart[p + 1]; i++) {
            int e = literalEdges[i];
            if (!active[e] && trueCount[e] + 1 == needed[e] && order[from[e]] >= order[to[e]]) {
                return false;
            }
        }
        return true;
    }

    /** Conflicts found so far: cycles the search ran into. */
    int conflicts() {
        return conflicts;
    }

    @Override
    public boolean propagate(UnitPropagationListener solver, int p) {
        vocabulary.watch(p, this);
        vocabulary.undos(p).push(this);
        return assign(p);
    }

    @Override
    public void undo(int p) {
        unassign(p);
    }

    /**
     * Literal {@code p} (internal form) became true: adds the edges it completes. Returns false
     * when one closes a cycle; {@link #conflict()} then holds that cycle's literals. The edges
     * after the one that closed the cycle are counted but not inserted, as {@link #unassign}
     * expects.
     */
    boolean assign(int p) {
        boolean consistent = true;
        for (int i = literalStart[p]; i < literalStart[p + 1]; i++) {
            int e = literalEdges[i];
            if (++trueCount[e] == needed[e] && consistent) {
                consistent = insert(e);
            }
        }
        return consistent;
    }

    /**
     * Literal {@code p} is no longer true: its edges leave. Order-independent (unlike a trail),
     * since removing an edge never invalidates the topological order, so a solver may unassign
     * literals out of the order it assigned them.
     */
    void unassign(int p) {
        for (int i = literalStart[p]; i < literalStart[p + 1]; i++) {
            int e = literalEdges[i];
            if (trueCount[e]-- == needed[e]) {
                active[e] = false;
            }
        }
    }

    /** The true internal literals of the cycle the last failed {@link #assign} ran into. */
    int[] conflict() {
        return conflict;
    }

    /** Whether internal literal {@code p} puts or helps put an edge in the graph. */
    boolean conditionsEdges(int p) {
        return p + 1 < literalStart.length && literalStart[p] != literalStart[p + 1];
    }

    /**
     * Adds edge {@code e} unless it closes a cycle, in which case the cycle's literals become the
     * conflict and the edge stays out.
     */
    private boolean insert(int e) {
        int u = from[e];
        int v = to[e];
        if (u == v) {
            setConflict(e, -1);
            return false;
        }
        if (order[u] < order[v]) {
            active[e] = true;
            return true;
        }
        int upper = order[u];
        int lower = order[v];
        // Forward from v, breadth first, through nodes placed no later than u.
        stamp++;
        forwardSize = 0;
        int head = 0;
        int tail = 0;
        queue[tail++] = v;
        mark[v] = stamp;
        via[v] = -1;
        while (head < tail) {
            int x = queue[head++];
            forward[forwardSize++] = x;
            for (int i = outStart[x]; i < outStart[x + 1]; i++) {
                int f = outEdges[i];
                if (!active[f]) {
                    continue;
                }
                int y = to[f];
                if (y == u) {
                    via[y] = f;
                    setConflict(e, y);
                    return false;
                }
                if (mark[y] != stamp && order[y] < upper) {
                    mark[y] = stamp;
                    via[y] = f;
                    queue[tail++] = y;
                }
            }
        }
        // Backward from u through nodes placed after v (disjoint from the forward set: a node
        // in both would be on a path v ⇝ x ⇝ u, found above).
        int backStamp = ++stamp;
        backwardSize = 0;
        head = 0;
        tail = 0;
        queue[tail++] = u;
        mark[u] = backStamp;
        while (head < tail) {
            int x = queue[head++];
            backward[backwardSize++] = x;
            for (int i = inStart[x]; i < inStart[x + 1]; i++) {
                int f = inEdges[i];
                if (!active[f]) {
                    continue;
                }
                int y = from[f];
                if (mark[y] != backStamp && order[y] > lower) {
                    mark[y] = backStamp;
                    queue[tail++] = y;
                }
            }
        }
        reorder();
        active[e] = true;
        return true;
    }

    /** Pearce–Kelly: the backward set, then the forward set, into the positions both held. */
    private void reorder() {
        sortByOrder(backward, backwardSize);
        sortByOrder(forward, forwardSize);
        int total = backwardSize + forwardSize;
        int[] positions = new int[total];
        for (int i = 0; i < backwardSize; i++) {
            positions[i] = order[backward[i]];
        }
        for (int i = 0; i < forwardSize; i++) {
            positions[backwardSize + i] = order[forward[i]];
        }
        Arrays.sort(positions);
        for (int i = 0; i < backwardSize; i++) {
            order[backward[i]] = positions[i];
        }
        for (int i = 0; i < forwardSize; i++) {
            order[forward[i]] = positions[backwardSize + i];
        }
    }

    private void sortByOrder(int[] set, int size) {
        long[] keyed = new long[size];
        for (int i = 0; i < size; i++) {
            keyed[i] = ((long) order[set[i]] << 32) | set[i];
        }
        Arrays.sort(keyed);
        for (int i = 0; i < size; i++) {
            set[i] = (int) keyed[i];
        }
    }

    /**
     * The conflict: edge {@code e} and the path the forward search took from its target to
     * {@code reached} (its source), as the true internal literals that put those edges there.
     */
    private void setConflict(int e, int reached) {
        conflicts++;
        name(from[e]);
        int[] literals = new int[8];
        int size = collect(e, literals, 0);
        if (reached >= 0) {
            int node = reached;
            int steps = 0;
            while (node != to[e]) {
                int f = via[node];
                if (f < 0 || !active[f] || to[f] != node || steps++ > nodes) {
                    throw new IllegalStateException("a cycle's path is not made of present edges");
                }
                if (size + 2 > literals.length) {
                    literals = Arrays.copyOf(literals, literals.length * 2);
                }
                size = collect(f, literals, size);
                node = from[f];
                name(node);
            }
        }
        if (size == 0) {
            throw new IllegalStateException("a cycle of certain edges appeared during the search");
        }
        conflict = Arrays.copyOf(literals, size);
    }

    private void name(int node) {
        int transaction = node % transactionNodes;
        if (namedSize == NAMED || transaction == dev.isocheck.internal.graph.KnownGraph.INITIAL) {
            return;
        }
        for (int i = 0; i < namedSize; i++) {
            if (named[i] == transaction) {
                return;
            }
        }
        named[namedSize++] = transaction;
    }

    /** Appends the internal literals of edge {@code e} not yet in {@code literals[0..size)}; room for two is there. */
    private int collect(int e, int[] literals, int size) {
        for (int literal : new int[] {literalA[e], literalB[e]}) {
            if (literal == 0) {
                continue;
            }
            int internal = LiteralsUtils.toInternal(literal);
            if (vocabulary != null && !vocabulary.isSatisfied(internal)) {
                throw new IllegalStateException("an edge of a cycle rests on a literal that is not true");
            }
            boolean seen = false;
            for (int i = 0; i < size && !seen; i++) {
                seen = literals[i] == internal;
            }
            if (!seen) {
                literals[size++] = internal;
            }
        }
        return size;
    }

    @Override
    public void calcReason(int p, org.sat4j.specs.IVecInt outReason) {
        if (p != ILits.UNDEFINED) {
            throw new IllegalStateException("the acyclicity theory implies no literal, so it is no literal's reason");
        }
        for (int literal : conflict) {
            outReason.push(literal);
        }
    }

    @Override
    public Constr toConstraint() {
        return this;
    }

    @Override
    public boolean propagatePI(MandatoryLiteralListener listener, int p) {
        throw new UnsupportedOperationException("prime implicants are not computed with the acyclicity theory");
    }

    @Override
    public void calcReasonOnTheFly(int p, org.sat4j.specs.IVecInt trail, org.sat4j.specs.IVecInt outReason) {
        throw new UnsupportedOperationException("no on-the-fly reasons for the acyclicity theory");
    }

    @Override
    public void remove(UnitPropagationListener upl) {
        // Never removed: the theory holds for the whole search.
    }

    @Override
    public boolean simplify() {
        return false;
    }

    @Override
    public void incActivity(double claInc) {
        // Not a learnt clause: no activity.
    }

    @Override
    public void forwardActivity(double claInc) {
        // Not a learnt clause: no activity.
    }

    @Override
    public boolean locked() {
        return true;
    }

    @Override
    public void setLearnt() {
        throw new UnsupportedOperationException("the acyclicity theory is not learnt");
    }

    @Override
    public void register() {
        // Watches are placed by attachTo.
    }

    @Override
    public void rescaleBy(double d) {
        // Not a learnt clause: no activity.
    }

    @Override
    public void setActivity(double d) {
        // Not a learnt clause: no activity.
    }

    @Override
    public void assertConstraint(UnitPropagationListener s) {
        throw new UnsupportedOperationException("the acyclicity theory is not asserted as a unit");
    }

    @Override
    public void assertConstraintIfNeeded(UnitPropagationListener s) {
        // Nothing to assert.
    }

    @Override
    public boolean canBeSatisfiedByCountingLiterals() {
        return false;
    }

    @Override
    public int requiredNumberOfSatisfiedLiterals() {
        return 0;
    }

    /** Asked once every variable is assigned: the edges present then form no cycle, or propagation would have failed. */
    @Override
    public boolean isSatisfied() {
        return true;
    }

    @Override
    public int getAssertionLevel(org.sat4j.specs.IVecInt trail, int decisionLevel) {
        throw new UnsupportedOperationException("the acyclicity theory asserts nothing");
    }

    @Override
    public boolean learnt() {
        return false;
    }

    @Override
    public int size() {
        return conflict.length;
    }

    @Override
    public int get(int i) {
        return conflict[i];
    }

    @Override
    public double getActivity() {
        return 0;
    }

    @Override
    public boolean canBePropagatedMultipleTimes() {
        return false;
    }

    @Override
    public String toString(VarMapper mapper) {
        return toString();
    }

    @Override
    public String dump() {
        return toString();
    }

    @Override
    public String toString() {
        return "acyclicity over " + nodes + " nodes and " + edgeCount + " edges";
    }
}
