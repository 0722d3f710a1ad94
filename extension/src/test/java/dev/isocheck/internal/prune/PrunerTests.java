package dev.isocheck.internal.prune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.internal.graph.HyperPolygraph;
import dev.isocheck.internal.graph.KnownGraph;
import dev.isocheck.internal.graph.ReadAnomalies;
import dev.isocheck.internal.graph.ReadExplanations;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.internal.reference.ReferenceChecker;
import dev.isocheck.internal.simulate.HistoryGenerator;
import dev.isocheck.internal.simulate.SeededRuns;
import dev.isocheck.internal.simulate.SimulatedDatabase;
import dev.isocheck.internal.simulate.SmallWorkloads;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Pruning only states what every valid order has: checked against the orders the reference
 * checker finds, independently of the engine, and on textbook histories.
 */
class PrunerTests {

    private static final ReferenceChecker REFERENCE = new ReferenceChecker();

    private static PrunedPolygraph prune(History h, IsolationLevel level) {
        ReadExplanations explanations = ReadExplanations.of(h);
        KnownGraph known = KnownGraph.of(h, explanations, level == IsolationLevel.STRICT_SERIALIZABLE);
        return Pruner.prune(HyperPolygraph.of(known, explanations), level == IsolationLevel.SNAPSHOT_ISOLATION);
    }

    /**
     * For every history the reference accepts, each edge pruning left in the known graph goes
     * forward in the reference's witness (for snapshot isolation, each edge that is not
     * read-write goes forward in its commit order), and pruning reports no conflict.
     */
    @Test
    void everyEdgeOfThePrunedGraphHoldsInTheReferenceWitness() {
        int[] checked = new int[dev.isocheck.internal.saturate.WeakLevel.searchedLevels().length];
        List<SimulatedDatabase> databases = List.of(SimulatedDatabase.serial(), SimulatedDatabase.snapshotIsolation(),
                SimulatedDatabase.readCommitted(), SimulatedDatabase.lostUpdate(0.5));
        long base = 90_000_000L;
        for (SimulatedDatabase database : databases) {
            for (int variant = 0; variant < 24; variant++) {
                HistoryGenerator generator = new HistoryGenerator(SmallWorkloads.variant(variant), database);
                SeededRuns.forEachHistory(12, base + 10_000L * variant, generator, generated -> {
                    History h = generated.history();
                    if (!ReadAnomalies.find(h).isEmpty()) {
                        return;
                    }
                    for (IsolationLevel level : dev.isocheck.internal.saturate.WeakLevel.searchedLevels()) {
                        if (!(REFERENCE.check(h, level) instanceof Verdict.Satisfied satisfied)) {
                            continue;
                        }
                        PrunedPolygraph pruned = prune(h, level);
                        assertThat(pruned.conflicts()).as("conflicts at %s", level).isEmpty();
                        KnownGraph known = pruned.polygraph().known();
                        Map<Integer, Integer> position = new HashMap<>();
                        position.put(KnownGraph.INITIAL, -1);
                        for (int p = 0; p < satisfied.witness().size(); p++) {
                            position.put(known.node(h.transaction(satisfied.witness().get(p)).orElseThrow().index()), p);
                        }
                        EdgeList edges = pruned.edges();
                        for (int e = 0; e < edges.size(); e++) {
                            if (level == IsolationLevel.SNAPSHOT_ISOLATION && edges.isReadWrite(e)) {
                                continue;
                            }
                            assertThat(position.get(edges.from(e))).as("%s edge %s -> %s at %s in witness %s",
                                    edges.kind(e), edges.from(e), edges.to(e), level, satisfied.witness())
                                    .isLessThan(position.get(edges.to(e)));
                        }
                        checked[level.ordinal()]++;
                    }
                });
            }
            base += 1_000_000L;
        }
        for (int count : checked) {
            assertThat(count).isGreaterThan(300);
        }
    }

    @Test
    void aLostUpdateIsAConflictOfPruningAlone() {
        HistoryBuilder b = History.builder().initialValue("x", 0).initialStateComplete(true);
        b.transaction("T1").read("x", 0).write("x", 1);
        b.transaction("T2").read("x", 0).write("x", 2);
        History h = b.build();
        for (IsolationLevel level : dev.isocheck.internal.saturate.WeakLevel.searchedLevels()) {
            PrunedPolygraph pruned = prune(h, level);
            assertThat(pruned.isViolated()).as("at %s", level).isTrue();
            assertThat(pruned.conflicts().get(0).cycles().get(0)).hasSize(2);
        }
    }

    @Test
    void writeSkewIsNotDecidedBySnapshotIsolationPruning() {
        HistoryBuilder b = History.builder().initialValue("x", 0).initialValue("y", 0).initialStateComplete(true);
        b.transaction("T1").read("x", 0).read("y", 0).write("x", 1);
        b.transaction("T2").read("x", 0).read("y", 0).write("y", 1);
        History h = b.build();
        assertThat(prune(h, IsolationLevel.SNAPSHOT_ISOLATION).isViolated()).isFalse();
        // Serializable: T1 -rw(y)-> T2 -rw(x)-> T1, both edges certain from the initial readers.
        assertThat(prune(h, IsolationLevel.SERIALIZABLE).isViolated()).isTrue();
    }

    /**
     * A hot key: 300 writers of the same value, one after another in real time, then a reader of
     * that value. At strict serializability every writer but the last is overwritten before the
     * reader, so pruning leaves the read one candidate, however many writers the key has (it once
     * skipped keys with more than 256). Without real time nothing orders them: every candidate stays.
     */
    @Test
    void aReadOfAKeyWithHundredsOfWritersIsPrunedToItsLastWriter() {
        HistoryBuilder b = History.builder().initialValue("x", 0).initialStateComplete(true);
        for (int i = 0; i < 300; i++) {
            b.transaction("W" + i).session("w" + i).times(10L * i, 10L * i + 1).write("x", 1);
        }
        b.transaction("R").session("r").times(5_000, 5_001).read("x", 1);
        History h = b.build();

        PrunedPolygraph strict = prune(h, IsolationLevel.STRICT_SERIALIZABLE);
        assertThat(strict.statistics().readsBefore()).isEqualTo(1);
        assertThat(strict.statistics().readsAfter()).isZero();
        assertThat(strict.isViolated()).isFalse();
        PrunedPolygraph serializable = prune(h, IsolationLevel.SERIALIZABLE);
        assertThat(serializable.statistics().readsAfter()).isEqualTo(1);
    }

    /**
     * Keys written by 65 to 265 sessions at once, so that the latest writers before a read (one
     * per session at most) outgrow the buffer they are collected in: the fast decisions, from the
     * closure and from chain clocks, are still those of the definitions, candidate by candidate, at
     * serializability and snapshot isolation, with and without real time. Seeded.
     */
    @Test
    void readsAmongHundredsOfConcurrentWritersAreDecidedAsTheDefinitionsDecide() {
        int dropped = 0;
        for (int seed = 0; seed < 30; seed++) {
            java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
            HistoryBuilder b = History.builder().initialValue("x", 0).initialStateComplete(true);
            int writers = 65 + random.nextInt(200);
            for (int i = 0; i < writers; i++) {
                if (random.nextInt(3) == 0) {
                    b.transaction("E" + i).session("s" + i).times(-100 - random.nextInt(50), -90 + random.nextInt(5))
                            .write("x", 1 + random.nextInt(2));
                }
                b.transaction("W" + i).session("s" + i).times(random.nextInt(5), 10 + random.nextInt(5))
                        .write("x", 1 + random.nextInt(2));
            }
            for (int j = 0; j < 5; j++) {
                b.transaction("R" + j).session("r" + j).times(20 + random.nextInt(5), 30).read("x", 1 + random.nextInt(2));
            }
            History h = b.build();
            for (boolean snapshot : new boolean[] {false, true}) {
                for (boolean realTime : new boolean[] {false, true}) {
                    String what = "seed " + seed + (snapshot ? ", snapshot isolation" : ", serializable")
                            + (realTime ? ", real time" : "");
                    ReadExplanations explanations = ReadExplanations.of(h);
                    HyperPolygraph polygraph = HyperPolygraph.of(KnownGraph.of(h, explanations, realTime), explanations);
                    PrunedPolygraph direct = Pruner.prune(polygraph, snapshot, Long.MAX_VALUE, true);
                    PrunedPolygraph fast = Pruner.prune(polygraph, snapshot, Long.MAX_VALUE, false);
                    PrunedPolygraph clocks = Pruner.prune(polygraph, snapshot, Long.MAX_VALUE, false, ChainReachability::compute);
                    assertThat(fast.isViolated()).as(what).isEqualTo(direct.isViolated());
                    assertThat(clocks.isViolated()).as(what).isEqualTo(direct.isViolated());
                    if (direct.isViolated()) {
                        continue;
                    }
                    for (int o = 0; o < polygraph.observationCount(); o++) {
                        for (int i = 0; i < polygraph.candidateCount(o); i++) {
                            assertThat(fast.isLive(o, i)).as(what).isEqualTo(direct.isLive(o, i));
                            assertThat(clocks.isLive(o, i)).as(what).isEqualTo(direct.isLive(o, i));
                            dropped += direct.isLive(o, i) ? 0 : 1;
                        }
                    }
                }
            }
        }
        assertThat(dropped).as("candidates dropped").isGreaterThan(1_000);
    }

    /**
     * With real-time edges, pruning stores only the pairs of chains whose spans overlap and adds
     * the read-write edges of the rest up front, to the first chains after each window
     * ({@link ChainPairs}); it drops the read candidates real time rules out before the first
     * round and looks for the latest writers before a read among those real time leaves near it
     * ({@link WriterTimes}). Pruning by the definitions, every pair stored and every writer
     * queried, must come to the same: the same verdict, every pair open or decided the same way,
     * every read candidate kept or dropped the same, at strict serializability and strong
     * snapshot isolation. On hot
     * keys rewritten by many sessions with recorded times, from correct and broken databases,
     * some with coarse times (ties between one's end and another's start, which real time does
     * not order), some with transactions' times dropped (their chains span the whole line).
     * Seeded.
     */
    @Test
    void pairsAndReadsRealTimeOrdersAreDecidedAsTheDefinitionsDecideThem() {
        int compared = 0;
        int conflicting = 0;
        long[] pairs = new long[2];
        for (SimulatedDatabase database : List.of(SimulatedDatabase.serial(), SimulatedDatabase.snapshotIsolation(),
                SimulatedDatabase.lostUpdate(0.5), SimulatedDatabase.staleRead(0.3), SimulatedDatabase.readCommitted())) {
            for (int variant = 0; variant < 24; variant++) {
                HistoryGenerator generator = new HistoryGenerator(SmallWorkloads.variant(variant)
                        .withSessions(new int[] {4, 3, 6}[variant % 3], variant % 3 == 2 ? 1 : 2)
                        .withKeys(1 + variant % 3, 0).withMix(1, 1, 0, 0).withValueDomain(2 + variant % 3)
                        .withMaxOpsPerTransaction(2 + variant % 4).withRecordTimes(true), database);
                int[] counts = new int[2];
                int v = variant;
                SeededRuns.forEachHistory(6, 92_000_000L + 1_000L * variant, generator, generated -> {
                    History h = generated.history();
                    if (v % 4 == 1) {
                        h = coarsened(h, 3);
                    } else if (v % 4 == 3) {
                        java.util.SplittableRandom random = new java.util.SplittableRandom(generated.seed());
                        java.util.Set<String> untimed = new java.util.HashSet<>();
                        for (dev.isocheck.history.Transaction t : h.transactions()) {
                            if (random.nextInt(8) == 0) {
                                untimed.add(t.id());
                            }
                        }
                        h = h.withoutTimes(t -> untimed.contains(t.id()));
                    }
                    if (!ReadAnomalies.find(h).isEmpty()) {
                        return;
                    }
                    for (boolean snapshot : new boolean[] {false, true}) {
                        String what = "seed " + generated.seed() + (snapshot ? " at strong snapshot isolation" : " at strict serializability");
                        ReadExplanations explanations = ReadExplanations.of(h);
                        HyperPolygraph polygraph = HyperPolygraph.of(KnownGraph.of(h, explanations, true), explanations);
                        PrunedPolygraph byTime = Pruner.prune(polygraph, snapshot, Long.MAX_VALUE, false,
                                dag -> ReachabilityEngines.closureOf(dag, dev.isocheck.GpuMode.AUTO), true);
                        PrunedPolygraph all = Pruner.prune(polygraph, snapshot, Long.MAX_VALUE, true,
                                dag -> ReachabilityEngines.closureOf(dag, dev.isocheck.GpuMode.AUTO), false);
                        assertThat(byTime.isViolated()).as(what).isEqualTo(all.isViolated());
                        counts[1] += all.isViolated() ? 1 : 0;
                        pairs[0] += byTime.statistics().pairsBefore();
                        pairs[1] += all.statistics().pairsBefore();
                        if (all.isViolated()) {
                            continue;
                        }
                        for (int k = 0; k < polygraph.keyCount(); k++) {
                            int m = all.chains().chainCount(k);
                            for (int i = 0; i < m; i++) {
                                for (int j = i + 1; j < m; j++) {
                                    assertThat(byTime.isOpen(k, i, j)).as("%s: pair %s, %s of key %s open", what, i, j, k)
                                            .isEqualTo(all.isOpen(k, i, j));
                                    if (!all.isOpen(k, i, j)) {
                                        assertThat(byTime.firstBefore(k, i, j)).as("%s: pair %s, %s of key %s", what, i, j, k)
                                                .isEqualTo(all.firstBefore(k, i, j));
                                    }
                                }
                            }
                        }
                        for (int o = 0; o < polygraph.observationCount(); o++) {
                            for (int i = 0; i < polygraph.candidateCount(o); i++) {
                                assertThat(byTime.isLive(o, i)).as("%s: candidate %s of %s", what, i, polygraph.describe(o))
                                        .isEqualTo(all.isLive(o, i));
                            }
                        }
                        counts[0]++;
                    }
                });
                compared += counts[0];
                conflicting += counts[1];
            }
        }
        assertThat(compared).isGreaterThan(500);
        assertThat(conflicting).isGreaterThan(20);
        assertThat(pairs[0]).as("pairs stored with real time, of %s", pairs[1]).isLessThan(pairs[1] * 3 / 4);
    }

    @Test
    void readModifyWriteChainsOrderTheirVersionsWithoutChoices() {
        HistoryBuilder b = History.builder().initialValue("x", 0).initialStateComplete(true);
        b.transaction("T1").read("x", 0).write("x", 1);
        b.transaction("T3").read("x", 2).write("x", 3);
        b.transaction("T2").read("x", 1).write("x", 2);
        b.transaction("T4").write("x", 4);
        History h = b.build();
        PrunedPolygraph pruned = prune(h, IsolationLevel.SERIALIZABLE);
        KeyChains chains = pruned.chains();
        int x = h.keys().idOf("x");
        // T1, T2, T3 are one chain continuing T⊥; T4 is the only other chain, after it.
        assertThat(chains.initialChain(x)).isNotNegative();
        assertThat(chains.chainCount(x)).isEqualTo(1);
        assertThat(pruned.statistics().pairsBefore()).isZero();
        assertThat(pruned.isViolated()).isFalse();
    }

    @Test
    void decidingPairsOnSeveralThreadsGivesWhatOneThreadGives() {
        // Every history is pruned twice, pairs decided on one thread and on several (from zero
        // pairs on): the same pairs, edges in the same order, reads and conflicts. Else the
        // parallel path, taken only from a million pairs on, would go untested here.
        int compared = 0;
        int conflicting = 0;
        for (SimulatedDatabase database : List.of(SimulatedDatabase.serial(), SimulatedDatabase.snapshotIsolation(),
                SimulatedDatabase.lostUpdate(0.5), SimulatedDatabase.staleRead(0.3))) {
            for (int variant = 0; variant < 24; variant++) {
                HistoryGenerator generator = new HistoryGenerator(SmallWorkloads.variant(variant).withKeys(2 + variant % 3, 2), database);
                int[] counts = new int[2];
                SeededRuns.forEachHistory(6, 90_000_000L + 1_000L * variant, generator, generated -> {
                    History h = generated.history();
                    if (!ReadAnomalies.find(h).isEmpty()) {
                        return;
                    }
                    for (boolean snapshot : new boolean[] {false, true}) {
                        ReadExplanations explanations = ReadExplanations.of(h);
                        HyperPolygraph polygraph = HyperPolygraph.of(KnownGraph.of(h, explanations, !snapshot), explanations);
                        PrunedPolygraph one = Pruner.prune(polygraph, snapshot, Long.MAX_VALUE);
                        PrunedPolygraph several = Pruner.prune(polygraph, snapshot, 0);
                        assertThat(several.conflicts().stream().map(PrunedPolygraph.Conflict::description).toList())
                                .isEqualTo(one.conflicts().stream().map(PrunedPolygraph.Conflict::description).toList());
                        counts[1] += one.isViolated() ? 1 : 0;
                        if (one.isViolated()) {
                            continue;
                        }
                        assertThat(edgesOf(several)).isEqualTo(edgesOf(one));
                        for (int k = 0; k < polygraph.keyCount(); k++) {
                            int m = one.chains().chainCount(k);
                            for (int i = 0; i < m; i++) {
                                for (int j = i + 1; j < m; j++) {
                                    assertThat(several.isOpen(k, i, j)).isEqualTo(one.isOpen(k, i, j));
                                    if (!one.isOpen(k, i, j)) {
                                        assertThat(several.firstBefore(k, i, j)).isEqualTo(one.firstBefore(k, i, j));
                                    }
                                }
                            }
                        }
                        for (int o = 0; o < polygraph.observationCount(); o++) {
                            assertThat(several.liveCount(o)).isEqualTo(one.liveCount(o));
                        }
                        counts[0]++;
                    }
                });
                compared += counts[0];
                conflicting += counts[1];
            }
        }
        assertThat(compared).isGreaterThan(500);
        assertThat(conflicting).isGreaterThan(20);
    }

    @Test
    void fastDecisionsAreTheDecisionsOfTheDefinitions() {
        // The default decides a snapshot-isolation reader's base predecessors with one query, a
        // read's candidates against the latest writers before the reader only, and pairs from
        // chain clocks directly when the closure is chain clocks; pruning by the
        // definitions (every base predecessor, every other writer) must give the same pairs,
        // edges, reads and conflicts, on histories from databases with and without anomalies,
        // with few keys (many writers each) and many.
        int compared = 0;
        int conflicting = 0;
        int seedsWithOpenReads = 0;
        for (SimulatedDatabase database : List.of(SimulatedDatabase.serial(), SimulatedDatabase.snapshotIsolation(),
                SimulatedDatabase.readCommitted(), SimulatedDatabase.lostUpdate(0.5), SimulatedDatabase.staleRead(0.3))) {
            for (int variant = 0; variant < 24; variant++) {
                HistoryGenerator generator = new HistoryGenerator(variant % 2 == 0 ? SmallWorkloads.variant(variant)
                        : SmallWorkloads.variant(variant).withKeys(2 + variant % 3, 2), database);
                int[] counts = new int[3];
                long base = 91_000_000L + 1_000L * variant;
                int v = variant;
                SeededRuns.forEachHistory(8, base, generator, generated -> {
                    History h = generated.history();
                    if (!ReadAnomalies.find(h).isEmpty()) {
                        return;
                    }
                    for (IsolationLevel level : dev.isocheck.internal.saturate.WeakLevel.searchedLevels()) {
                        boolean snapshot = level == IsolationLevel.SNAPSHOT_ISOLATION;
                        ReadExplanations explanations = ReadExplanations.of(h);
                        HyperPolygraph polygraph = HyperPolygraph.of(
                                KnownGraph.of(h, explanations, level == IsolationLevel.STRICT_SERIALIZABLE), explanations);
                        // Real time's shortcuts (pairs and candidates decided by times) are held
                        // to the closure's decisions by pairsAndReadsRealTimeOrders...; here the
                        // closure's queries are held to the definitions, edge for edge.
                        java.util.function.Function<dev.isocheck.spi.Dag, dev.isocheck.spi.Reachability> engine =
                                dag -> ReachabilityEngines.closureOf(dag, dev.isocheck.GpuMode.AUTO);
                        PrunedPolygraph direct = Pruner.prune(polygraph, snapshot, Long.MAX_VALUE, true, engine, false);
                        // Chain clocks every other time: small graphs get bit rows from the
                        // engine, and the pair loop reads clocks directly when it has them.
                        boolean clocks = (counts[0] + counts[1]) % 2 == 0;
                        PrunedPolygraph fast = clocks
                                ? Pruner.prune(polygraph, snapshot, Long.MAX_VALUE, false, ChainReachability::compute, false)
                                : Pruner.prune(polygraph, snapshot, Long.MAX_VALUE, false, engine, false);
                        String what = "variant " + v + " at " + level + (clocks ? " with chain clocks" : "");
                        assertThat(fast.conflicts().stream().map(PrunedPolygraph.Conflict::description).toList())
                                .as(what).isEqualTo(direct.conflicts().stream().map(PrunedPolygraph.Conflict::description).toList());
                        counts[1] += direct.isViolated() ? 1 : 0;
                        if (direct.isViolated()) {
                            continue;
                        }
                        assertThat(edgesOf(fast)).as(what).isEqualTo(edgesOf(direct));
                        assertThat(fast.statistics()).as(what).usingRecursiveComparison().ignoringFields("millis")
                                .isEqualTo(direct.statistics());
                        for (int o = 0; o < polygraph.observationCount(); o++) {
                            for (int i = 0; i < polygraph.candidateCount(o); i++) {
                                assertThat(fast.isLive(o, i)).as(what).isEqualTo(direct.isLive(o, i));
                            }
                        }
                        counts[2] += direct.statistics().readsBefore() > direct.statistics().readsAfter() ? 1 : 0;
                        counts[0]++;
                    }
                });
                compared += counts[0];
                conflicting += counts[1];
                seedsWithOpenReads += counts[2];
            }
        }
        assertThat(compared).isGreaterThan(1000);
        assertThat(conflicting).isGreaterThan(20);
        assertThat(seedsWithOpenReads).as("histories where pruning dropped read candidates").isGreaterThan(50);
    }

    /** {@code h} with every time divided by {@code factor} (rounded down), as a file would have them. */
    private static History coarsened(History h, int factor) {
        try {
            java.io.StringWriter out = new java.io.StringWriter();
            new dev.isocheck.format.JsonlHistoryWriter().write(h, out);
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"(start|end)\":(-?\\d+)").matcher(out.toString());
            StringBuilder text = new StringBuilder();
            while (m.find()) {
                m.appendReplacement(text, "\"" + m.group(1) + "\":" + Math.floorDiv(Long.parseLong(m.group(2)), factor));
            }
            m.appendTail(text);
            java.nio.file.Path file = java.nio.file.Files.createTempFile("coarse", ".jsonl");
            try {
                java.nio.file.Files.writeString(file, text);
                return new dev.isocheck.format.JsonlHistoryReader().read(file);
            } finally {
                java.nio.file.Files.delete(file);
            }
        } catch (java.io.IOException | dev.isocheck.format.HistoryFormatException e) {
            throw new AssertionError("coarsening the times of a generated history", e);
        }
    }

    private static List<String> edgesOf(PrunedPolygraph pruned) {
        EdgeList edges = pruned.edges();
        List<String> out = new java.util.ArrayList<>(edges.size());
        for (int e = 0; e < edges.size(); e++) {
            out.add(edges.from(e) + ">" + edges.to(e) + ":" + edges.kind(e) + "@" + edges.key(e));
        }
        return out;
    }
}
