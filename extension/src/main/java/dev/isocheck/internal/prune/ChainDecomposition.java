package dev.isocheck.internal.prune;

import dev.isocheck.spi.Dag;
import java.util.Arrays;

/**
 * A partition of a {@link Dag}'s nodes into chains, each a path of the graph: the coordinates that
 * chain clocks ({@link ChainReachability}, {@link IncrementalReachability}) are indexed by.
 *
 * <p>Greedy over the topological order: a node that no predecessor has claimed starts a new chain,
 * and then claims the first of its successors (in the {@code Dag}'s successor order) that no
 * earlier node has claimed, which continues its chain. A node ends its chain at the moment it
 * claims, so every chain stays a path. Letting the predecessor choose, and in successor order, is
 * what finds client sessions: the known graph lists session edges before the others, so each
 * transaction claims the next one of its session unless an earlier node did, and either way that
 * one is claimed. Only a node without a session predecessor can then start a chain: at most one
 * chain per session, plus one per node outside every session (such as T⊥). In any other edge order
 * it is a heuristic (not a minimum chain cover, which needs a matching): still exact, only wider.
 * Linear time.
 */
final class ChainDecomposition {

    private final int[] chainOf;
    private final int[] indexOf;
    private final int chains;

    private ChainDecomposition(int[] chainOf, int[] indexOf, int chains) {
        this.chainOf = chainOf;
        this.indexOf = indexOf;
        this.chains = chains;
    }

    /** The greedy decomposition of {@code dag} described above. */
    static ChainDecomposition of(Dag dag) {
        int n = dag.nodeCount();
        int[] chainOf = new int[n];
        int[] indexOf = new int[n];
        Arrays.fill(chainOf, -1);
        int chains = 0;
        for (int p = 0; p < n; p++) {
            int u = dag.nodeAt(p);
            if (chainOf[u] < 0) {
                chainOf[u] = chains++;
            }
            for (int i = 0; i < dag.successorCount(u); i++) {
                int v = dag.successor(u, i);
                if (chainOf[v] < 0) {
                    chainOf[v] = chainOf[u];
                    indexOf[v] = indexOf[u] + 1;
                    break;
                }
            }
        }
        return new ChainDecomposition(chainOf, indexOf, chains);
    }

    /** How many chains. */
    int count() {
        return chains;
    }

    /** How many nodes. */
    int nodeCount() {
        return chainOf.length;
    }

    /** The chain of {@code node}. */
    int chainOf(int node) {
        return chainOf[node];
    }

    /** The position of {@code node} along its chain, from 0 at the chain's first node. */
    int indexOf(int node) {
        return indexOf[node];
    }

    /** The ints a clock vector per node needs: {@code nodes * chains}. */
    long clockLength() {
        return (long) nodeCount() * chains;
    }

    /** About how many bytes the decomposition holds. */
    long memoryBytes() {
        return 2L * Integer.BYTES * nodeCount();
    }
}
