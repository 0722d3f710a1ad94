package dev.isocheck.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.CheckResult;
import dev.isocheck.Isocheck;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.explain.AnomalyCycle;
import dev.isocheck.explain.Dependency;
import dev.isocheck.explain.DependencyType;
import dev.isocheck.explain.Explanation;
import dev.isocheck.explain.TextRenderer;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.internal.explain.ClassicHistories;
import dev.isocheck.internal.reference.ReferenceChecker;
import dev.isocheck.internal.solve.WitnessReplay;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Prefix consistency, decided as the serializability of the history split into snapshots and
 * commits: the anomalies that separate it from causal consistency below and snapshot isolation
 * above, its witnesses replayed with snapshots, its explanations told over the split, and the
 * predicate reads the split leaves out.
 */
class PrefixConsistencyTests {

    private static final CheckPipeline ENGINE = new CheckPipeline();
    /** The pipeline cutting every history into independent parts, one per component. */
    private static final CheckPipeline SPLITTING = new CheckPipeline(new dev.isocheck.internal.solve.SatChecker(),
            new ReferenceChecker(), 1);
    private static final IsolationLevel PREFIX = IsolationLevel.PREFIX;

    @Test
    void aLongForkIsCausalButNotPrefixConsistent() {
        History longFork = ClassicHistories.longFork();
        assertThat(ENGINE.check(longFork, IsolationLevel.CAUSAL).isSatisfied()).isTrue();
        Verdict verdict = ENGINE.check(longFork, PREFIX);
        assertThat(verdict.isViolated()).as("%s", verdict).isTrue();
        assertThat(((Verdict.Violated) verdict).anomaly().transactions()).containsExactlyInAnyOrder("T1", "T2", "T3", "T4");
        assertThat(new ReferenceChecker().check(longFork, PREFIX).isViolated()).isTrue();
    }

    @Test
    void aLostUpdateAndWriteSkewArePrefixConsistentButNotSnapshotIsolation() {
        History lostUpdate = ClassicHistories.lostUpdate();
        assertThat(ENGINE.check(lostUpdate, IsolationLevel.SNAPSHOT_ISOLATION).isViolated()).isTrue();
        Verdict verdict = ENGINE.check(lostUpdate, PREFIX);
        assertThat(verdict.isSatisfied()).as("%s", verdict).isTrue();
        List<String> commitOrder = ((Verdict.Satisfied) verdict).witness();
        assertThat(commitOrder).containsExactlyInAnyOrder("T1", "T2");
        assertThat(new WitnessReplay(lostUpdate).prefixFailure(commitOrder)).isEmpty();
        assertThat(new WitnessReplay(lostUpdate).snapshotFailure(commitOrder)).as("first committer wins").isPresent();
        assertThat(ENGINE.check(ClassicHistories.writeSkew(), PREFIX).isSatisfied()).isTrue();
    }

    @Test
    void everyReadOfATransactionComesFromOneSnapshot() {
        // Read skew: T2 saw T1's y but not its x, which no single snapshot holds.
        assertThat(ENGINE.check(ClassicHistories.readSkew(), PREFIX).isViolated()).isTrue();
        // A read of the transaction's own write is its own, whatever the snapshot.
        HistoryBuilder b = History.builder().initialValue("x", 0).initialStateComplete(true);
        b.transaction("T1").session("a").read("x", 0).write("x", 5).read("x", 5);
        b.transaction("T2").session("b").read("x", 0).write("x", 6).read("x", 6);
        assertThat(ENGINE.check(b.build(), PREFIX).isSatisfied()).isTrue();
    }

    @Test
    void aSessionSeesItsOwnEarlierCommits() {
        HistoryBuilder b = History.builder().initialValue("x", 0).initialStateComplete(true);
        b.transaction("T1").session("a").write("x", 1);
        b.transaction("T2").session("a").read("x", 0);
        Verdict verdict = ENGINE.check(b.build(), PREFIX);
        assertThat(verdict.isViolated()).as("%s", verdict).isTrue();
        HistoryBuilder other = History.builder().initialValue("x", 0).initialStateComplete(true);
        other.transaction("T1").session("a").write("x", 1);
        other.transaction("T2").session("b").read("x", 0);
        assertThat(ENGINE.check(other.build(), PREFIX).isSatisfied()).as("another session may read an older snapshot").isTrue();
    }

    @Test
    void theExplanationIsTheCycleOfSnapshotsAndCommitsAndItsEdgesHoldInTheHistory() {
        History longFork = ClassicHistories.longFork();
        CheckResult result = Isocheck.check(longFork, PREFIX);
        assertThat(result.isViolated()).isTrue();
        Explanation explanation = result.explanation().orElseThrow();
        assertThat(explanation.level()).isEqualTo(PREFIX);
        assertThat(explanation).isInstanceOf(Explanation.Cycles.class);
        Explanation.Cycles cycles = (Explanation.Cycles) explanation;
        assertThat(cycles.isCertain()).isTrue();
        AnomalyCycle cycle = cycles.cases().get(0).cycle();
        assertThat(cycle.transactions()).containsExactlyInAnyOrder("T1 (commit)", "T3 (snapshot)", "T2 (commit)",
                "T4 (snapshot)");
        // Each claimed edge, read back in the original history: a write-read edge joins a write
        // to a read of that value, an anti-dependency a read of the older value to the writer of a newer one.
        for (Dependency edge : cycle.edges()) {
            String from = edge.from().replace(" (commit)", "").replace(" (snapshot)", "");
            String to = edge.to().replace(" (commit)", "").replace(" (snapshot)", "");
            String key = edge.key().orElseThrow();
            if (edge.type() == DependencyType.WRITE_READ) {
                assertThat(edge.from()).endsWith("(commit)");
                assertThat(edge.to()).endsWith("(snapshot)");
                assertThat(longFork.transaction(from).orElseThrow().finalValue(longFork.keys().idOf(key)))
                        .isEqualTo(valueRead(longFork, to, key));
            } else {
                assertThat(edge.type()).isEqualTo(DependencyType.READ_WRITE);
                assertThat(edge.from()).endsWith("(snapshot)");
                assertThat(edge.to()).endsWith("(commit)");
                assertThat(longFork.values().get(valueRead(longFork, from, key)).toString()).isEqualTo("0");
                assertThat(longFork.transaction(to).orElseThrow().writes(longFork.keys().idOf(key))).isTrue();
            }
        }
        String text = new TextRenderer().render(explanation);
        assertThat(text).contains("prefix", "snapshot", "T3 (snapshot)");
    }

    private static int valueRead(History history, String id, String key) {
        var t = history.transaction(id).orElseThrow();
        for (int i = 0; i < t.size(); i++) {
            if (t.kind(i) == dev.isocheck.history.OpKind.READ && t.key(i) == history.keys().idOf(key)) {
                return t.value(i);
            }
        }
        throw new AssertionError(id + " does not read " + key);
    }

    /**
     * On 3,000 seeded histories shaped for forks (writers of one or two keys, readers of every
     * key, some of which also write back; unique or repeated values; a complete or an "any"
     * initial state): the engine agrees with both references at prefix, and prefix sits between causal
     * and snapshot isolation. A failure names its seed and prints the history.
     */
    @Test
    void agreesWithBothReferencesOnHistoriesShapedForForks() {
        int separatesCausal = 0;
        int separatesSnapshot = 0;
        int violated = 0;
        for (long seed = 1; seed <= 3_000; seed++) {
            History history = forkProne(seed);
            try {
                Verdict verdict = ENGINE.check(history, PREFIX);
                assertThat(verdict).isNotInstanceOf(Verdict.Unknown.class);
                boolean prefix = verdict.isSatisfied();
                // Cut into a part per component, as large histories are.
                assertThat(SPLITTING.check(history, PREFIX).isSatisfied()).as("with independent parts").isEqualTo(prefix);
                var events = dev.isocheck.internal.saturate.ReadEvents.of(history);
                assertThat(dev.isocheck.internal.reference.AxiomaticReference.satisfies(events,
                        dev.isocheck.internal.saturate.WeakLevel.PREFIX)).as("the axiom").contains(prefix);
                Verdict search = new ReferenceChecker().check(history, PREFIX);
                assertThat(search.isSatisfied()).as("the search over commit orders: %s", search).isEqualTo(prefix);
                // The split alone, whether or not a snapshot-isolation order stood in for it.
                History split = ReadWriteSplit.of(history).split();
                assertThat(ENGINE.check(split, IsolationLevel.SERIALIZABLE).isSatisfied()).as("the split is serializable")
                        .isEqualTo(prefix);
                assertThat(SPLITTING.check(split, IsolationLevel.SERIALIZABLE).isSatisfied())
                        .as("the split, cut into independent parts, is serializable").isEqualTo(prefix);
                boolean causal = ENGINE.check(history, IsolationLevel.CAUSAL).isSatisfied();
                boolean snapshot = ENGINE.check(history, IsolationLevel.SNAPSHOT_ISOLATION).isSatisfied();
                assertThat(!prefix || causal).as("prefix implies causal").isTrue();
                assertThat(!snapshot || prefix).as("snapshot isolation implies prefix").isTrue();
                separatesCausal += causal && !prefix ? 1 : 0;
                separatesSnapshot += prefix && !snapshot ? 1 : 0;
                violated += prefix ? 0 : 1;
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("seed " + seed + ": " + e.getMessage() + "\n" + history.transactions(), e);
            }
        }
        System.out.printf("prefix, 3000 fork-prone histories: %d violated, %d causal but not prefix, %d prefix but not"
                + " snapshot isolation%n", violated, separatesCausal, separatesSnapshot);
        assertThat(separatesCausal).as("causal but not prefix (long forks)").isGreaterThan(40);
        assertThat(separatesSnapshot).as("prefix but not snapshot isolation (lost updates)").isGreaterThan(100);
        assertThat(violated).as("histories violating prefix").isGreaterThan(80);
    }

    /**
     * Transactions in a random commit order, each reading from a snapshot: a prefix of the order
     * that holds its session's earlier transactions, and more earlier transactions at random, the
     * whole mostly closed under session order and what its members read (causal: a prefix, or a
     * fork), sometimes not. Writers of one or two keys; readers of two or three
     * that now and then write back a key they read (two of them on one snapshot: a lost update).
     */
    private static History forkProne(long seed) {
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        String[] keys = random.nextInt(5) < 3 ? new String[] {"x", "y"} : new String[] {"x", "y", "z"};
        boolean unique = seed % 2 == 1;
        HistoryBuilder b = History.builder();
        if (seed % 3 == 0) {
            b.unknownInitialValues(dev.isocheck.history.UnknownInitialValues.ANY);
        }
        for (String key : keys) {
            b.initialValue(key, 0);
        }
        b.initialStateComplete(seed % 3 != 0);
        int transactions = 4 + random.nextInt(4);
        // Half the histories commit their writers first, so that the readers after them have the
        // most views to choose from.
        boolean writerFirst = random.nextBoolean();
        int writers = 2 + random.nextInt(2);
        // Half the histories give each transaction a session of its own: forks need no closure then.
        int sessions = seed % 4 < 2 ? transactions : 2 + random.nextInt(3);
        int[] session = new int[transactions];
        // Per transaction in commit order: its writes, key index to value.
        List<java.util.Map<Integer, Integer>> writes = new java.util.ArrayList<>();
        int next = 1;
        int[] lastOfSession = new int[sessions];
        java.util.Arrays.fill(lastOfSession, -1);
        List<java.util.Set<Integer>> readFrom = new java.util.ArrayList<>();
        for (int t = 0; t < transactions; t++) {
            session[t] = random.nextInt(sessions);
            boolean[] snapshot = new boolean[t];
            int lowest = lastOfSession[session[t]] + 1;
            int length = lowest + random.nextInt(t - lowest + 1);
            for (int u = 0; u < length; u++) {
                snapshot[u] = true;
            }
            int shape = random.nextInt(8);
            if (shape > 0) {
                length = lowest + random.nextInt(Math.max(1, (t - lowest + 1) / 2));
                java.util.Arrays.fill(snapshot, length, t, false);
            }
            for (int u = length; u < t && shape > 0; u++) {
                snapshot[u] = random.nextBoolean();
            }
            if (shape < 7) {
                // Closed under session order and what was read: causal, a prefix or a fork.
                for (boolean grew = true; grew; ) {
                    grew = false;
                    for (int u = 0; u < t; u++) {
                        if (!snapshot[u]) {
                            continue;
                        }
                        for (int v = 0; v < u; v++) {
                            if (!snapshot[v] && (session[v] == session[u] || readFrom.get(u).contains(v))) {
                                snapshot[v] = true;
                                grew = true;
                            }
                        }
                    }
                }
            }
            java.util.Set<Integer> from = new java.util.HashSet<>();
            readFrom.add(from);
            lastOfSession[session[t]] = t;
            HistoryBuilder.TransactionBuilder tx = b.transaction("T" + (t + 1));
            // Now and then a transaction without a session, and sessions named like transactions.
            if (seed % 5 != 0 || random.nextInt(3) != 0) {
                tx.session((seed % 5 == 0 ? "T" : "s") + (session[t] + 1));
            } else {
                session[t] = -1 - t;
            }
            java.util.Map<Integer, Integer> own = new java.util.LinkedHashMap<>();
            boolean writer = writerFirst ? t < writers : random.nextInt(5) < 2;
            if (writer) {
                int key = writerFirst ? t % keys.length : random.nextInt(keys.length);
                own.put(key, unique ? next++ : 1 + random.nextInt(2));
                if (random.nextInt(3) == 0) {
                    own.putIfAbsent(random.nextInt(keys.length), unique ? next++ : 1 + random.nextInt(2));
                }
            } else {
                int reads = keys.length;
                int first = random.nextInt(keys.length);
                for (int i = 0; i < reads; i++) {
                    int key = (first + i) % keys.length;
                    int value = 0;
                    int writerRead = -1;
                    for (int u = 0; u < t; u++) {
                        if (snapshot[u] && writes.get(u).containsKey(key)) {
                            value = writes.get(u).get(key);
                            writerRead = u;
                        }
                    }
                    if (writerRead >= 0) {
                        from.add(writerRead);
                    }
                    tx.read(keys[key], value);
                }
                if (random.nextInt(3) == 0) {
                    own.put(first, unique ? next++ : 1 + random.nextInt(2));
                }
            }
            own.forEach((key, value) -> tx.write(keys[key], value));
            writes.add(own);
        }
        return b.build();
    }

    @Test
    void aPredicateReadAfterTheTransactionsOwnWriteIsLeftOutOfTheSplitAndSaidSo() {
        // Both also increment a counter from the same snapshot: a lost update, so that no
        // snapshot-isolation order stands in and the split decides.
        HistoryBuilder b = History.builder().initialValue("counter", 0).initialStateComplete(true);
        b.transaction("T1").session("a").read("counter", 0).write("counter", 1).write("bookings/a", Map.of("room", 1))
                .predicate("bookings", "room = 1", Map.of("bookings/a", Map.of("room", 1)));
        b.transaction("T2").session("b").read("counter", 0).predicate("bookings", "room = 1", Map.of())
                .write("bookings/b", Map.of("room", 1)).write("counter", 1);
        History history = b.build();
        assertThat(ENGINE.check(history, IsolationLevel.SNAPSHOT_ISOLATION).isViolated()).isTrue();
        ReadWriteSplit split = ReadWriteSplit.of(history);
        assertThat(split.predicateReadsLeftOut()).isEqualTo(1);
        assertThat(split.split().transactions()).extracting(t -> t.id())
                .containsExactly("T1 (snapshot)", "T1 (commit)", "T2 (snapshot)", "T2 (commit)");
        Verdict verdict = ENGINE.check(history, PREFIX);
        assertThat(verdict.isSatisfied()).as("%s", verdict).isTrue();
        assertThat(((Verdict.Satisfied) verdict).caveats()).anySatisfy(c -> assertThat(c).contains("1 predicate read"));
    }

    /**
     * A transaction without a session whose id is another session's name: split into two parts,
     * its session must stay its own when the split history is cut into independent parts, or
     * the other session's order would be imposed on it (a false alarm).
     */
    @Test
    void aSessionlessTransactionNamedAsAnotherSessionKeepsASessionOfItsOwn() {
        HistoryBuilder b = History.builder().initialValue("x", 0).initialValue("y", 0).initialValue("z", 0)
                .initialStateComplete(true);
        b.transaction("X1").session("A").write("x", 1);
        b.transaction("A").read("x", 0).write("y", 1);
        b.transaction("L1").session("L1").read("z", 0).write("z", 1);
        b.transaction("L2").session("L2").read("z", 0).write("z", 2);
        History history = b.build();
        assertThat(new ReferenceChecker().check(history, PREFIX).isSatisfied()).isTrue();
        CheckPipeline splitting = new CheckPipeline(new dev.isocheck.internal.solve.SatChecker(), null, 1);
        Verdict verdict = splitting.check(history, PREFIX);
        assertThat(verdict.isSatisfied()).as("%s", verdict).isTrue();
        assertThat(ReadWriteSplit.of(history).split().sessions()).extracting(s -> s.name())
                .containsExactly("A", "A (parts)", "L1", "L2");
    }

    @Test
    void splitIdsNeverCollideWithTheHistorysOwn() {
        HistoryBuilder b = History.builder().initialValue("x", 0).initialStateComplete(true);
        b.transaction("T1").session("a").read("x", 0).write("x", 1);
        b.transaction("T1 (snapshot)").session("b").read("x", 0);
        ReadWriteSplit split = ReadWriteSplit.of(b.build());
        assertThat(split.split().transactions()).extracting(t -> t.id())
                .containsExactly("T1 (snapshot)'", "T1 (commit)", "T1 (snapshot) (snapshot)");
        assertThat(split.originalIds(List.of("T1 (snapshot)'", "T1 (snapshot) (snapshot)"))).containsExactly("T1",
                "T1 (snapshot)");
    }
}
