package dev.isocheck.internal.explain;

import dev.isocheck.AnomalyType;
import dev.isocheck.explain.AnomalyCycle;
import dev.isocheck.explain.DependencyType;
import dev.isocheck.IsolationLevel;
import java.util.Arrays;

/**
 * The dependencies certain under some {@link Facts}: edges that every explanation they allow has,
 * per {@link DependencyType}, as masks of successor nodes. Small on purpose (at most 30 nodes): the
 * proof search builds one per set of facts it looks at.
 *
 * <ul>
 *   <li>session order and real time (strict serializability): always;</li>
 *   <li>{@code c -wr-> r}: every source still possible for an observation of {@code r} is {@code c};</li>
 *   <li>{@code a -ww-> b}: {@code a}'s version of some key is known to precede {@code b}'s;</li>
 *   <li>{@code r -rw-> w}: for an observation of {@code r}, every source still possible is the
 *       initial state or a node whose version is known to precede {@code w}'s ({@code w != r}); a
 *       source outside the nodes gives none.</li>
 * </ul>
 *
 * <p>A cycle is <em>forbidden</em> at the level: any cycle at the serializable levels; at snapshot
 * isolation, one without two adjacent anti-dependencies (see {@link AnomalyType#isForbiddenAt}).
 */
final class CertainGraph {

    /** The length of the shortest forbidden cycle when there is none. */
    static final int NONE = Integer.MAX_VALUE;

    private static final DependencyType[] TYPES = DependencyType.values();

    private final int size;
    private final boolean snapshot;
    /** {@code edges[type][node]}: the successors of {@code node} by edges of that type. */
    private final int[][] edges;
    private final int[] any;
    private final int[] antiDependencies;
    private final int[] others;

    private CertainGraph(int size, boolean snapshot, int[][] edges) {
        this.size = size;
        this.snapshot = snapshot;
        this.edges = edges;
        this.any = new int[size];
        this.antiDependencies = new int[size];
        this.others = new int[size];
        for (DependencyType type : TYPES) {
            for (int node = 0; node < size; node++) {
                int successors = edges[type.ordinal()][node];
                any[node] |= successors;
                if (type.isAntiDependency()) {
                    antiDependencies[node] |= successors;
                } else {
                    others[node] |= successors;
                }
            }
        }
    }

    /** The edges certain in every explanation that {@code facts} allow. */
    static CertainGraph of(ExplanationSpace space, Facts facts) {
        int n = space.size();
        int[][] edges = new int[TYPES.length][n];
        for (int node = 0; node < n; node++) {
            edges[DependencyType.SESSION.ordinal()][node] = space.sessionAfter(node);
            edges[DependencyType.REAL_TIME.ordinal()][node] = space.realTimeAfter(node);
        }
        for (int key = 0; key < space.keyCount(); key++) {
            int installers = space.installers(key);
            for (int node = 0; node < n; node++) {
                if ((installers & (1 << node)) != 0) {
                    edges[DependencyType.WRITE_WRITE.ordinal()][node] |= facts.after(key, node);
                }
            }
        }
        for (int o = 0; o < space.observations().size(); o++) {
            ExplanationSpace.Observation obs = space.observations().get(o);
            int remaining = facts.remaining(o);
            int[] candidates = obs.candidates();
            if (Integer.bitCount(remaining) == 1) {
                int source = candidates[Integer.numberOfTrailingZeros(remaining)];
                if (source >= 0) {
                    edges[DependencyType.WRITE_READ.ordinal()][source] |= 1 << obs.reader();
                }
            }
            int later = laterThanEverySource(space, facts, o);
            DependencyType type = obs.isUnreturned() ? DependencyType.PREDICATE_READ_WRITE : DependencyType.READ_WRITE;
            edges[type.ordinal()][obs.reader()] |= later;
        }
        return new CertainGraph(n, space.level() == IsolationLevel.SNAPSHOT_ISOLATION, edges);
    }

    /**
     * The nodes that install a version of observation {@code o}'s key known to come after every source
     * still possible for it (the reader excluded): the targets of its certain anti-dependencies.
     */
    static int laterThanEverySource(ExplanationSpace space, Facts facts, int o) {
        ExplanationSpace.Observation obs = space.observations().get(o);
        int later = space.installers(obs.key()) & ~(1 << obs.reader());
        int remaining = facts.remaining(o);
        for (int at = 0; at < obs.candidates().length; at++) {
            if ((remaining & (1 << at)) != 0) {
                int source = obs.candidates()[at];
                later &= source == ExplanationSpace.INITIAL ? ~0 : source >= 0 ? facts.after(obs.key(), source) : 0;
            }
        }
        return later;
    }

    /** The successors of {@code node} by edges of {@code type}, as a mask. */
    int successors(DependencyType type, int node) {
        return edges[type.ordinal()][node];
    }

    /** The length of the shortest forbidden cycle, or {@link #NONE}. */
    int shortestForbidden() {
        int best = NONE;
        for (int start = 0; start < size; start++) {
            best = Math.min(best, snapshot ? shortestSnapshotCycle(start, best) : shortestCycle(start, best));
        }
        return best;
    }

    /** Breadth first over masks: the first depth at which {@code start} is reached again. */
    private int shortestCycle(int start, int bound) {
        int visited = 0;
        int frontier = any[start];
        for (int depth = 1; frontier != 0 && depth < bound; depth++) {
            if ((frontier & (1 << start)) != 0) {
                return depth;
            }
            visited |= frontier;
            frontier = successorsOf(any, frontier) & ~visited;
        }
        return NONE;
    }

    /**
     * The same over states (node, whether the last edge was an anti-dependency), starting with an
     * edge that is not one: a cycle without two adjacent anti-dependencies has such an edge, and
     * starting there, the last edge may be an anti-dependency whatever the first. A shortest closed
     * walk of this kind is a simple cycle: split at a repeated node, one of the two parts keeps the
     * property (the other could lose it only where both its junction edges are anti-dependencies,
     * and then the first part's junction edges are not).
     */
    private int shortestSnapshotCycle(int start, int bound) {
        int afterOther = others[start];
        int afterAnti = 0;
        int seenOther = 0;
        int seenAnti = 0;
        for (int depth = 1; (afterOther | afterAnti) != 0 && depth < bound; depth++) {
            if (((afterOther | afterAnti) & (1 << start)) != 0) {
                return depth;
            }
            seenOther |= afterOther;
            seenAnti |= afterAnti;
            int nextOther = successorsOf(others, afterOther | afterAnti);
            int nextAnti = successorsOf(antiDependencies, afterOther);
            afterOther = nextOther & ~seenOther;
            afterAnti = nextAnti & ~seenAnti;
        }
        return NONE;
    }

    private static int successorsOf(int[] adjacency, int nodes) {
        int out = 0;
        for (int rest = nodes; rest != 0; rest &= rest - 1) {
            out |= adjacency[Integer.numberOfTrailingZeros(rest)];
        }
        return out;
    }

    /**
     * A forbidden cycle of exactly {@code length} edges, the best by (type, session or real-time
     * edges needed, node sequence): the least severe type's search order follows Elle's (G0 first),
     * and among cycles of one type, those needing no order edge first. Nodes start from the lowest.
     *
     * @return {@code null} if there is none of that length
     */
    Found best(int length) {
        Found[] best = new Found[1];
        int[] path = new int[length];
        for (int start = 0; start < size; start++) {
            int[] distance = distancesTo(start);
            path[0] = start;
            walk(start, path, 1, length, distance, best);
        }
        return best[0];
    }

    /** Edges needed to reach {@code target} from each node, through nodes numbered at least {@code target}. */
    private int[] distancesTo(int target) {
        int[] distance = new int[size];
        Arrays.fill(distance, NONE);
        distance[target] = 0;
        int frontier = 1 << target;
        for (int depth = 1; frontier != 0; depth++) {
            int next = 0;
            for (int node = target; node < size; node++) {
                if (distance[node] == NONE && (any[node] & frontier) != 0) {
                    distance[node] = depth;
                    next |= 1 << node;
                }
            }
            frontier = next;
        }
        return distance;
    }

    private void walk(int start, int[] path, int depth, int length, int[] distance, Found[] best) {
        int last = path[depth - 1];
        if (depth == length) {
            if ((any[last] & (1 << start)) != 0) {
                Found found = typed(path);
                if (found != null && (best[0] == null || found.compareTo(best[0]) < 0)) {
                    best[0] = found;
                }
            }
            return;
        }
        for (int rest = any[last]; rest != 0; rest &= rest - 1) {
            int next = Integer.numberOfTrailingZeros(rest);
            if (next <= start || onPath(path, depth, next) || distance[next] > length - depth) {
                continue;
            }
            path[depth] = next;
            walk(start, path, depth + 1, length, distance, best);
        }
    }

    private static boolean onPath(int[] path, int depth, int node) {
        for (int i = 0; i < depth; i++) {
            if (path[i] == node) {
                return true;
            }
        }
        return false;
    }

    /** The best choice of edge types around the node cycle {@code path}, or {@code null} if none is forbidden. */
    private Found typed(int[] path) {
        DependencyType[] types = new DependencyType[path.length];
        Found[] best = new Found[1];
        chooseTypes(path, types, 0, best);
        return best[0];
    }

    private void chooseTypes(int[] path, DependencyType[] types, int step, Found[] best) {
        if (step == path.length) {
            if (snapshot && AnomalyCycle.hasAdjacentAntiDependencies(Arrays.asList(types))) {
                return;
            }
            Found found = new Found(path.clone(), types.clone());
            if (best[0] == null || found.compareTo(best[0]) < 0) {
                best[0] = found;
            }
            return;
        }
        int to = path[(step + 1) % path.length];
        for (DependencyType type : TYPES) {
            if ((edges[type.ordinal()][path[step]] & (1 << to)) != 0) {
                types[step] = type;
                chooseTypes(path, types, step + 1, best);
            }
        }
    }

    /**
     * A cycle by local nodes and the edge type of each step.
     *
     * @param nodes the nodes, from the lowest
     * @param types {@code types[i]} leads from {@code nodes[i]} to the next node
     */
    record Found(int[] nodes, DependencyType[] types) implements Comparable<Found> {

        AnomalyType type() {
            return AnomalyCycle.typeOf(Arrays.asList(types));
        }

        /** 0 without order edges, 1 with session order, 2 with real time: Elle's suffixes. */
        private int orderEdges() {
            int out = 0;
            for (DependencyType type : types) {
                out = Math.max(out, type == DependencyType.REAL_TIME ? 2 : type == DependencyType.SESSION ? 1 : 0);
            }
            return out;
        }

        @Override
        public int compareTo(Found other) {
            int c = type().compareTo(other.type());
            if (c != 0) {
                return c;
            }
            c = Integer.compare(orderEdges(), other.orderEdges());
            if (c != 0) {
                return c;
            }
            c = Arrays.compare(nodes, other.nodes);
            if (c != 0) {
                return c;
            }
            for (int i = 0; i < types.length; i++) {
                c = types[i].compareTo(other.types[i]);
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        }
    }
}
