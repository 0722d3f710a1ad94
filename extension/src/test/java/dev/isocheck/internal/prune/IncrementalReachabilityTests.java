package dev.isocheck.internal.prune;

import dev.isocheck.spi.Dag;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class IncrementalReachabilityTests {

    /** Two sessions, 0 -> 1 -> 2 and 3 -> 4 -> 5. */
    private static IncrementalReachability twoSessions() {
        return IncrementalReachability.of(Dag.of(6, new int[] {0, 1, 3, 4}, new int[] {1, 2, 4, 5}, 4));
    }

    @Test
    void anEdgeMakesEveryAncestorReachEveryDescendant() {
        IncrementalReachability closure = twoSessions();
        assertThat(closure.chainCount()).isEqualTo(2);
        assertThat(closure.addEdge(1, 4)).isTrue();
        assertThat(closure.reaches(0, 5)).isTrue();
        assertThat(closure.reaches(1, 4)).isTrue();
        assertThat(closure.reaches(0, 3)).isFalse();
        assertThat(closure.reaches(2, 4)).isFalse();
        assertThat(closure.reaches(4, 1)).isFalse();
        assertThat(closure.chainCount()).isEqualTo(2);
    }

    @Test
    void anImpliedEdgeChangesNothing() {
        IncrementalReachability closure = twoSessions();
        assertThat(closure.addEdge(0, 2)).isFalse();
        closure.addEdge(2, 3);
        assertThat(closure.addEdge(0, 5)).isFalse();
        assertThat(closure.reaches(0, 5)).isTrue();
    }

    @Test
    void addedEdgesAreFollowedBackwardsLikeTheOriginalOnes() {
        // Sessions 0 -> 1, 2 -> 3, 4 -> 5; after 3 -> 0, node 2 is an ancestor of 1 only through it.
        IncrementalReachability closure = IncrementalReachability.of(Dag.of(6, new int[] {0, 2, 4}, new int[] {1, 3, 5}, 3));
        closure.addEdge(3, 0);
        closure.addEdge(1, 4);
        assertThat(closure.reaches(2, 5)).isTrue();
        assertThat(closure.reaches(3, 4)).isTrue();
        assertThat(closure.reaches(4, 1)).isFalse();
        assertThat(closure.reaches(5, 2)).isFalse();
    }

    @Test
    void anEdgeThatClosesACycleIsRejected() {
        IncrementalReachability closure = twoSessions();
        closure.addEdge(2, 3);
        assertThatThrownBy(() -> closure.addEdge(5, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("edge 5 -> 0 closes a cycle: 0 reaches 5");
        assertThatThrownBy(() -> closure.addEdge(4, 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("edge 4 -> 4 closes a cycle: 4 reaches 4");
        assertThat(closure.reaches(5, 0)).isFalse();
    }

    @Test
    void nodesOutOfRangeAreRejected() {
        assertThatThrownBy(() -> twoSessions().addEdge(0, 6))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("node 6 is out of range 0..5");
        assertThatThrownBy(() -> twoSessions().addEdge(-1, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("node -1 is out of range 0..5");
    }

    @Test
    void manyAddedEdgesGrowTheListsAndTheMemoryEstimate() {
        int n = 200;
        IncrementalReachability closure = IncrementalReachability.of(Dag.of(n, new int[0], new int[0], 0));
        long before = closure.memoryBytes();
        for (int u = 0; u + 1 < n; u++) {
            assertThat(closure.addEdge(u, u + 1)).isTrue();
        }
        assertThat(closure.reaches(0, n - 1)).isTrue();
        assertThat(closure.reaches(n - 1, 0)).isFalse();
        assertThat(closure.memoryBytes()).isGreaterThan(before);
    }
}
