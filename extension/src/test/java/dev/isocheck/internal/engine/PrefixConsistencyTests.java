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

    @Test
    void aPredicateReadAfterTheTransactionsOwnWriteIsLeftOutOfTheSplitAndSaidSo() {
        HistoryBuilder b = History.builder().initialStateComplete(true);
        b.transaction("T1").session("a").write("bookings/a", Map.of("room", 1))
                .predicate("bookings", "room = 1", Map.of("bookings/a", Map.of("room", 1)));
        b.transaction("T2").session("b").predicate("bookings", "room = 1", Map.of()).write("bookings/b", Map.of("room", 1));
        History history = b.build();
        ReadWriteSplit split = ReadWriteSplit.of(history);
        assertThat(split.predicateReadsLeftOut()).isEqualTo(1);
        assertThat(split.split().transactions()).extracting(t -> t.id())
                .containsExactly("T1 (commit)", "T2 (snapshot)", "T2 (commit)");
        Verdict verdict = ENGINE.check(history, PREFIX);
        assertThat(verdict.isSatisfied()).as("%s", verdict).isTrue();
        assertThat(((Verdict.Satisfied) verdict).caveats()).anySatisfy(c -> assertThat(c).contains("1 predicate read"));
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
