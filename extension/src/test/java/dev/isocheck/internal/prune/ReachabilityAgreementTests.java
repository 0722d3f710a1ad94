package dev.isocheck.internal.prune;

import dev.isocheck.spi.BitRowReachability;
import dev.isocheck.spi.Dag;
import dev.isocheck.spi.Reachability;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.isocheck.internal.prune.RandomDags.Graph;
import dev.isocheck.internal.simulate.SeededRuns;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Every exact closure, the incremental one included, against breadth-first search on random DAGs. */
class ReachabilityAgreementTests {

    /** Sizes at and around the 64-bit word boundaries of bit rows. */
    private static final int[] WORD_BOUNDARIES = {0, 1, 2, 63, 64, 65, 127, 128, 129, 191, 192, 193};
    private static final double[] EDGES_PER_NODE = {0, 0.2, 0.5, 1, 2, 4, 8};
    private static final double[] DENSITIES = {0.02, 0.1, 0.3};
    private static final double[] CROSS_PER_NODE = {0, 0.1, 0.5, 1, 3};

    private static final Map<String, Function<Graph, Reachability>> CLOSURES = new LinkedHashMap<>();

    static {
        CLOSURES.put(ChainReachabilityEngine.NAME, g -> new ChainReachabilityEngine().closureOf(g.dag()));
        CLOSURES.put(BitRowReachabilityEngine.NAME, g -> new BitRowReachabilityEngine().closureOf(g.dag()));
        CLOSURES.put("cpu", g -> ReachabilityEngines.cpu().closureOf(g.dag()));
        CLOSURES.put("incremental, half the edges added", g -> grown(g, g.edges() / 2));
    }

    @Test
    void everyClosureAgreesWithBreadthFirstSearchOnThousandsOfRandomDags() {
        SeededRuns.forEachSeed(2000, 1, seed -> {
            Random random = new Random(seed);
            Graph graph = randomGraph(random, random.nextInt(8) == 0
                    ? WORD_BOUNDARIES[random.nextInt(WORD_BOUNDARIES.length)] : random.nextInt(301));
            BreadthFirstClosure expected = BreadthFirstClosure.of(graph);
            CLOSURES.forEach((name, closure) -> expected.assertSameAs(closure.apply(graph), () -> name + " on " + graph));
        });
    }

    @Test
    void incrementalAgreesWithBreadthFirstSearchWhateverItStartsFrom() {
        // From no edges at all every node is its own chain: the widest clocks.
        SeededRuns.forEachSeed(1000, 1, seed -> {
            Random random = new Random(seed);
            Graph graph = randomGraph(random, random.nextInt(151));
            int start = random.nextInt(4) == 0 ? 0 : random.nextInt(graph.edges() + 1);
            BreadthFirstClosure.of(graph).assertSameAs(grown(graph, start), () -> "grown from " + start + " edges of " + graph);
        });
    }

    @Test
    void incrementalAgreesWithBreadthFirstSearchAfterEveryAddedEdge() {
        SeededRuns.forEachSeed(400, 1, seed -> {
            Random random = new Random(seed);
            Graph graph = random.nextBoolean()
                    ? RandomDags.random(random, random.nextInt(41), EDGES_PER_NODE[random.nextInt(EDGES_PER_NODE.length)])
                    : RandomDags.sessions(random, random.nextInt(41), 1 + random.nextInt(4), 1, 10).relabelled(random);
            int start = random.nextInt(graph.edges() + 1);
            IncrementalReachability closure = IncrementalReachability.of(graph.prefix(start).orElseThrow());
            BreadthFirstClosure before = BreadthFirstClosure.of(graph, start);
            for (int e = start; e < graph.edges(); e++) {
                int from = graph.from()[e];
                int to = graph.to()[e];
                boolean changed = closure.addEdge(from, to);
                assertThat(changed).as("addEdge(%d, %d) after %d edges of %s", from, to, e, graph)
                        .isEqualTo(!before.reaches(from, to));
                before = BreadthFirstClosure.of(graph, e + 1);
                int added = e;
                before.assertSameAs(closure, () -> "after edge " + added + " (" + from + " -> " + to + ") of " + graph);
            }
        });
    }

    @Test
    void chainsAndBitRowsAgreeOnLargeGraphs() {
        Random random = new Random(5000);
        Graph[] graphs = {
            RandomDags.sessions(random, 5000, 24, 2, 500),
            RandomDags.random(random, 5000, 1.5),
            RandomDags.sessions(random, 5000, 30, 4, 5000).shuffled(random).relabelled(random),
        };
        for (Graph graph : graphs) {
            Dag dag = graph.dag();
            assertSamePairs(ChainReachability.compute(dag), BitRowReachability.compute(dag), "chains on " + graph.description());
        }
    }

    @Test
    void incrementalAgreesWithBitRowsOnALargeSessionGraph() {
        Random random = new Random(5001);
        Graph graph = RandomDags.sessions(random, 5000, 24, 3, 300);
        int sessionEdges = 5000 - 24;
        IncrementalReachability closure = grown(graph, sessionEdges);
        assertThat(closure.chainCount()).isEqualTo(24);
        assertSamePairs(closure, BitRowReachability.compute(graph.dag()), "incremental on " + graph.description());
    }

    @Test
    void theOracleComparisonFailsOnAWrongClosure() {
        Graph graph = RandomDags.sessions(new Random(7), 50, 3, 0.5, 5);
        Reachability right = ChainReachability.compute(graph.dag());
        Reachability wrong = new Reachability() {
            @Override
            public boolean reaches(int from, int to) {
                return from == 49 && to == 0 ? !right.reaches(from, to) : right.reaches(from, to);
            }

            @Override
            public int nodeCount() {
                return right.nodeCount();
            }

            @Override
            public long memoryBytes() {
                return right.memoryBytes();
            }
        };
        BreadthFirstClosure expected = BreadthFirstClosure.of(graph);
        expected.assertSameAs(right, () -> "right");
        assertThatThrownBy(() -> expected.assertSameAs(wrong, () -> "wrong"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("wrong: reaches(49, 0)");
        assertThatThrownBy(() -> SeededRuns.forEachSeed(1, 42, seed -> expected.assertSameAs(wrong, () -> "wrong")))
                .hasMessageStartingWith("seed 42: ");
    }

    /** A graph of one of the generators' shapes, edges sometimes shuffled, ids sometimes relabelled. */
    private static Graph randomGraph(Random random, int nodes) {
        Graph graph;
        switch (random.nextInt(4)) {
            case 0:
                graph = RandomDags.random(random, nodes, EDGES_PER_NODE[random.nextInt(EDGES_PER_NODE.length)]);
                break;
            case 1:
                // All pairs cost n^2 draws: keep dense graphs small enough for thousands of them.
                graph = RandomDags.dense(random, Math.min(nodes, 130), DENSITIES[random.nextInt(DENSITIES.length)]);
                break;
            default:
                graph = RandomDags.sessions(random, nodes, 1 + random.nextInt(30),
                        CROSS_PER_NODE[random.nextInt(CROSS_PER_NODE.length)], 1 + random.nextInt(60));
                break;
        }
        if (random.nextInt(4) == 0) {
            graph = graph.shuffled(random);
        }
        return random.nextBoolean() ? graph.relabelled(random) : graph;
    }

    /** The incremental closure of the first {@code start} edges, grown by the rest one at a time. */
    static IncrementalReachability grown(Graph graph, int start) {
        IncrementalReachability closure = IncrementalReachability.of(graph.prefix(start).orElseThrow());
        for (int e = start; e < graph.edges(); e++) {
            closure.addEdge(graph.from()[e], graph.to()[e]);
        }
        return closure;
    }

    private static void assertSamePairs(Reachability actual, Reachability expected, String what) {
        assertThat(actual.nodeCount()).as(what).isEqualTo(expected.nodeCount());
        for (int u = 0; u < expected.nodeCount(); u++) {
            for (int v = 0; v < expected.nodeCount(); v++) {
                if (actual.reaches(u, v) != expected.reaches(u, v)) {
                    throw new AssertionError(what + ": reaches(" + u + ", " + v + ") is " + actual.reaches(u, v)
                            + ", bit rows say " + expected.reaches(u, v));
                }
            }
        }
    }
}
