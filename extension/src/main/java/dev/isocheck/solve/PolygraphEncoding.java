package dev.isocheck.solve;

import dev.isocheck.graph.EdgeKind;
import dev.isocheck.graph.HyperPolygraph;
import dev.isocheck.graph.KnownGraph;
import java.util.HashMap;
import java.util.Map;
import org.sat4j.core.VecInt;
import org.sat4j.specs.ContradictionException;
import org.sat4j.specs.ISolver;

/**
 * The propositional part of the hyper-polygraph: variables for exactly what is uncertain, and the
 * clauses that do not need the graph.
 *
 * <ul>
 *   <li>a WR variable per candidate of each observation with two or more candidates, and the
 *       clause "at least one of them";</li>
 *   <li>one WW variable per pair of transactions that write a common key (one for all the keys they
 *       share: in an acyclic graph their versions are ordered the same way on every key);</li>
 *   <li>for unknown initial values, a variable per group of equal observations ("T⊥ serves one of
 *       these"), implied by each of its WR literals, and "not both" for incompatible groups.</li>
 * </ul>
 *
 * <p>A WW variable is <em>true when the pair is ordered against the preferred order</em> (a
 * topological order of the known graph). Solvers try false first, so a first model follows that
 * order wherever nothing forces otherwise: a cheap stand-in for order-guided polarity.
 */
final class PolygraphEncoding {

    private final HyperPolygraph polygraph;
    private int[] rank;
    private final int[] wrCandidateStart;
    private final int[] wrVariables;
    private final Map<Long, Integer> wwVariables = new HashMap<>();
    private final long nodes;
    private int variables;

    PolygraphEncoding(HyperPolygraph polygraph) {
        this.polygraph = polygraph;
        this.nodes = polygraph.known().nodeCount();
        rank = new int[(int) nodes];
        int observations = polygraph.observationCount();
        wrCandidateStart = new int[observations + 1];
        for (int o = 0; o < observations; o++) {
            wrCandidateStart[o + 1] = wrCandidateStart[o] + polygraph.candidateCount(o);
        }
        wrVariables = new int[wrCandidateStart[observations]];
        for (int o = 0; o < observations; o++) {
            if (polygraph.candidateCount(o) > 1) {
                for (int i = 0; i < polygraph.candidateCount(o); i++) {
                    wrVariables[wrCandidateStart[o] + i] = ++variables;
                }
            }
        }
        for (int k = 0; k < polygraph.keyCount(); k++) {
            int writers = polygraph.writerCount(k);
            for (int i = 0; i < writers; i++) {
                for (int j = i + 1; j < writers; j++) {
                    wwVariables.computeIfAbsent(pair(polygraph.writer(k, i), polygraph.writer(k, j)), p -> ++variables);
                }
            }
        }
    }

    /**
     * Makes {@code order} (every node once) the order WW variables follow when false; call before
     * {@link #addTo(ISolver)}.
     */
    void prefer(int[] order) {
        rank = new int[order.length];
        for (int p = 0; p < order.length; p++) {
            rank[order[p]] = p;
        }
    }

    /** Adds the clauses to {@code solver}; throws when they are contradictory already. */
    void addTo(ISolver solver) throws ContradictionException {
        int groups = polygraph.initialGroupCount();
        int groupBase = variables;
        solver.newVar(variables + groups);
        for (int o = 0; o < polygraph.observationCount(); o++) {
            if (polygraph.candidateCount(o) > 1) {
                VecInt atLeastOne = new VecInt(polygraph.candidateCount(o));
                for (int i = 0; i < polygraph.candidateCount(o); i++) {
                    atLeastOne.push(wrVariables[wrCandidateStart[o] + i]);
                }
                solver.addClause(atLeastOne);
            }
        }
        for (int g = 0; g < groups; g++) {
            int served = groupBase + g + 1;
            for (int o : polygraph.initialGroup(g)) {
                // T⊥, when a candidate, is always listed first.
                int literal = readsFrom(o, 0);
                solver.addClause(literal == 0 ? new VecInt(new int[] {served}) : new VecInt(new int[] {-literal, served}));
            }
        }
        int[] incompatible = polygraph.incompatibleInitialGroups();
        for (int i = 0; i < incompatible.length; i += 2) {
            solver.addClause(new VecInt(new int[] {-(groupBase + incompatible[i] + 1), -(groupBase + incompatible[i + 1] + 1)}));
        }
    }

    /** The literal "observation {@code o} reads from its {@code i}-th candidate", or 0 when that is certain. */
    int readsFrom(int o, int i) {
        return wrVariables[wrCandidateStart[o] + i];
    }

    /** The literal "{@code a}'s versions precede {@code b}'s" for two writers of a common key. */
    int before(int a, int b) {
        int variable = wwVariables.get(pair(a, b));
        return rank[a] < rank[b] ? -variable : variable;
    }

    /**
     * The graph a model (indexed by variable, {@code true} = assigned true) chooses: the known
     * edges, the chosen WR and WW edges, and the RW edges they derive.
     */
    DependencyGraph graphOf(boolean[] model) {
        KnownGraph known = polygraph.known();
        DependencyGraph graph = new DependencyGraph(known.nodeCount());
        for (int e = 0; e < known.edgeCount(); e++) {
            graph.add(known.from(e), known.to(e), known.kind(e), 0, 0);
        }
        for (Map.Entry<Long, Integer> entry : wwVariables.entrySet()) {
            int a = (int) (entry.getKey() / nodes);
            int b = (int) (entry.getKey() % nodes);
            int aFirst = before(a, b);
            if (holds(aFirst, model)) {
                graph.add(a, b, EdgeKind.WRITE_WRITE, aFirst, 0);
            } else {
                graph.add(b, a, EdgeKind.WRITE_WRITE, -aFirst, 0);
            }
        }
        for (int k = 0; k < polygraph.keyCount(); k++) {
            for (int at = 0; at < polygraph.observationCount(k); at++) {
                int o = polygraph.observationOf(k, at);
                int reader = polygraph.reader(o);
                for (int c = 0; c < polygraph.candidateCount(o); c++) {
                    int readsFrom = readsFrom(o, c);
                    if (readsFrom != 0 && !holds(readsFrom, model)) {
                        continue;
                    }
                    int writer = polygraph.candidate(o, c);
                    if (writer != KnownGraph.INITIAL && readsFrom != 0) {
                        // Single-candidate WR edges are in the known graph already.
                        graph.add(writer, reader, EdgeKind.WRITE_READ, readsFrom, 0);
                    }
                    addReadWrites(graph, k, reader, writer, readsFrom, model);
                }
            }
        }
        graph.seal();
        return graph;
    }

    private void addReadWrites(DependencyGraph graph, int key, int reader, int writer, int readsFrom, boolean[] model) {
        for (int i = 0; i < polygraph.writerCount(key); i++) {
            int overwriter = polygraph.writer(key, i);
            if (overwriter == reader || overwriter == writer) {
                continue;
            }
            if (writer == KnownGraph.INITIAL) {
                graph.add(reader, overwriter, EdgeKind.READ_WRITE, readsFrom, 0);
            } else {
                int order = before(writer, overwriter);
                if (holds(order, model)) {
                    graph.add(reader, overwriter, EdgeKind.READ_WRITE, readsFrom, order);
                }
            }
        }
    }

    /**
     * The edges certain before any choice: the known graph, and the RW edges of observations that
     * only the initial state explains.
     */
    DependencyGraph fixedGraph() {
        KnownGraph known = polygraph.known();
        DependencyGraph graph = new DependencyGraph(known.nodeCount());
        for (int e = 0; e < known.edgeCount(); e++) {
            graph.add(known.from(e), known.to(e), known.kind(e), 0, 0);
        }
        for (int o = 0; o < polygraph.observationCount(); o++) {
            if (polygraph.candidateCount(o) == 1 && polygraph.candidate(o, 0) == KnownGraph.INITIAL) {
                addReadWrites(graph, polygraph.key(o), polygraph.reader(o), KnownGraph.INITIAL, 0, null);
            }
        }
        graph.seal();
        return graph;
    }

    private static boolean holds(int literal, boolean[] model) {
        return literal == 0 || (literal > 0 ? model[literal] : !model[-literal]);
    }

    int variableCount() {
        return variables + polygraph.initialGroupCount();
    }

    private long pair(int a, int b) {
        return a < b ? a * nodes + b : b * nodes + a;
    }
}
