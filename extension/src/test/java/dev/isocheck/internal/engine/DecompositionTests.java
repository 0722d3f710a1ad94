package dev.isocheck.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.AnomalyType;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.Session;
import dev.isocheck.history.Status;
import dev.isocheck.history.Transaction;
import dev.isocheck.history.Value;
import dev.isocheck.internal.reference.ReferenceChecker;
import dev.isocheck.internal.simulate.HistoryGenerator;
import dev.isocheck.internal.simulate.SimulatedDatabase;
import dev.isocheck.internal.simulate.Workload;
import dev.isocheck.internal.solve.SatChecker;
import dev.isocheck.internal.solve.WitnessReplay;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class DecompositionTests {

    private static final IsolationLevel SER = IsolationLevel.SERIALIZABLE;
    private static final IsolationLevel SI = IsolationLevel.SNAPSHOT_ISOLATION;

    /** The ids of each part's transactions, in order. */
    private static List<List<String>> ids(Decomposition d) {
        return d.parts().stream().map(h -> h.transactions().stream().map(Transaction::id).toList()).toList();
    }

    /** T1, T2 share x; T3 is in T1's session; T4 and T5 share y; T6 is alone; T7 has no operation. */
    private static History connectedByKeysAndSessions() {
        HistoryBuilder b = History.builder().initialValue("x", 0).initialValue("y", 0).initialValue("z", 7);
        b.transaction("T1").session("a").read("x", 0).write("x", 1);
        b.transaction("T4").session("b").write("y", 1);
        b.transaction("T2").session("c").read("x", 1);
        b.transaction("T5").session("d").read("y", 1);
        b.transaction("T3").session("a").write("w", 3);
        b.transaction("T6").write("v", 1);
        b.transaction("T7").session("e");
        return b.build();
    }

    @Test
    void transactionsSharingAKeyOrASessionShareAPart() {
        Decomposition d = Decomposition.of(connectedByKeysAndSessions(), SER, 1);
        assertThat(d.isSplit()).isTrue();
        assertThat(d.componentCount()).isEqualTo(4);
        assertThat(ids(d)).containsExactly(List.of("T1", "T2", "T3"), List.of("T4", "T5"), List.of("T6"), List.of("T7"));
        assertThat(Decomposition.of(connectedByKeysAndSessions(), SI, 1).parts()).hasSize(4);
    }

    @Test
    void partsKeepIdsSessionsTimesOperationsAndTheInitialValuesOfTheirKeys() {
        HistoryBuilder b = History.builder().initialValue("x", Map.of("id", 1, "v", 0)).initialValue("unused", 1);
        b.transaction(10L).session("a").times(5, 9).read("x", Map.of("v", 0)).write("x", Map.of("id", 1, "v", 1));
        b.transaction("B").start(3).write("y", "s");
        b.transaction("C").session("a").end(20).aborted().delete("x");
        b.transaction("D").read("y", null);
        History h = b.build();

        Decomposition d = Decomposition.of(h, SER, 1);
        assertThat(ids(d)).containsExactly(List.of("10", "C"), List.of("B", "D"));
        History first = d.parts().get(0);
        Transaction t = first.transaction(0);
        assertThat(t.hasNumericId()).isTrue();
        assertThat(first.sessionOf(t).name()).isEqualTo("a");
        assertThat(first.sessions()).extracting(Session::name).containsExactly("a");
        assertThat(t.start()).hasValue(5);
        assertThat(t.end()).hasValue(9);
        assertThat(t.toString()).isEqualTo(h.transaction(0).toString());
        Transaction aborted = first.transaction(1);
        assertThat(aborted.status()).isEqualTo(Status.ABORTED);
        assertThat(aborted.start()).isEmpty();
        assertThat(aborted.end()).hasValue(20);
        assertThat(first.keys().size()).isEqualTo(1);
        assertThat(first.values().get(first.initialState().valueOf(first.keys().idOf("x")))).isEqualTo(Value.of(Map.of("id", 1, "v", 0)));
        assertThat(first.initialState().isComplete()).isFalse();

        History second = d.parts().get(1);
        assertThat(second.transaction(0).start()).hasValue(3);
        assertThat(second.transaction(0).end()).isEmpty();
        assertThat(second.sessions()).allMatch(Session::isImplicit);
        assertThat(second.initialState().isKnown(second.keys().idOf("y"))).isFalse();
    }

    @Test
    void aCompleteInitialStateStaysComplete() {
        HistoryBuilder b = History.builder().initialValue("x", 1).initialStateComplete(true);
        b.transaction("T1").read("x", 1);
        b.transaction("T2").read("y", null);
        Decomposition d = Decomposition.of(b.build(), SER, 1);
        assertThat(d.parts()).hasSize(2).allMatch(p -> p.initialState().isComplete());
        History second = d.parts().get(1);
        assertThat(second.initialState().valueOf(second.keys().idOf("y"))).isEqualTo(0);
    }

    @Test
    void anAbortedTransactionStaysWithItsKeysAndSession() {
        HistoryBuilder b = History.builder();
        b.transaction("T1").session("a").read("x", 1);
        b.transaction("A1").aborted().write("x", 1);
        b.transaction("T2").session("b").write("y", 1);
        b.transaction("A2").session("b").aborted().write("z", 1);
        b.transaction("T3").read("z", null);
        assertThat(ids(Decomposition.of(b.build(), SER, 1))).containsExactly(List.of("T1", "A1"), List.of("T2", "A2", "T3"));
    }

    @Test
    void committedPredicateReadsDisableSplitting() {
        HistoryBuilder b = History.builder();
        b.transaction("T1").write("t/1", Map.of("v", 1));
        b.transaction("T2").predicate("t", "v = 2", Map.of());
        b.transaction("T3").write("t/2", Map.of("v", 3));
        Decomposition d = Decomposition.of(b.build(), SER, 1);
        assertThat(d.isSplit()).isFalse();
        assertThat(d.parts()).hasSize(1);
    }

    @Test
    void abortedPredicateReadsDoNotDisableSplittingAndTheirRowsCountAsTouched() {
        HistoryBuilder b = History.builder();
        b.transaction("T1").write("t/1", Map.of("v", 1));
        b.transaction("A").aborted().predicate("t", "v = 1", Map.of("t/1", Map.of("v", 1)));
        b.transaction("T3").write("t/2", Map.of("v", 3));
        Decomposition d = Decomposition.of(b.build(), SER, 1);
        assertThat(ids(d)).containsExactly(List.of("T1", "A"), List.of("T3"));
        assertThat(d.parts().get(0).transaction(1).toString()).isEqualTo("A (aborted): predicate(t where v = 1) -> [t/1={\"v\":1}]");
    }

    @Test
    void strictSerializabilityIsNotDecomposed() {
        History h = connectedByKeysAndSessions();
        assertThat(Decomposition.allows(IsolationLevel.STRICT_SERIALIZABLE)).isFalse();
        Decomposition d = Decomposition.of(h, IsolationLevel.STRICT_SERIALIZABLE, 1);
        assertThat(d.isSplit()).isFalse();
        assertThat(d.parts()).containsExactly(h);
    }

    @Test
    void tinyComponentsAreBundledAndANearlyWholePartIsNotSplitOff() {
        HistoryBuilder b = History.builder();
        for (int i = 0; i < 3000; i++) {
            b.transaction("T" + i).write("k" + i, 1);
        }
        Decomposition d = Decomposition.of(b.build(), SER);
        assertThat(d.componentCount()).isEqualTo(3000);
        assertThat(d.parts()).hasSize(2);
        assertThat(d.parts().get(0).size()).isEqualTo(Decomposition.DEFAULT_BUNDLE_OPERATIONS);

        HistoryBuilder big = History.builder();
        for (int i = 0; i < 3000; i++) {
            big.transaction("T" + i).session("s").write("k" + i, 1);
        }
        big.transaction("alone").write("other", 1);
        History h = big.build();
        Decomposition nearlyWhole = Decomposition.of(h, SER);
        assertThat(nearlyWhole.componentCount()).isEqualTo(2);
        assertThat(nearlyWhole.isSplit()).isFalse();
        assertThat(nearlyWhole.parts()).containsExactly(h);
    }

    /** Two lost updates, one per part: the reported one is the first part's, however the threads finish. */
    @Test
    void theFirstViolatedPartIsReported() {
        HistoryBuilder b = History.builder().initialValue("x", 0).initialValue("y", 0);
        b.transaction("A1").read("x", 0).write("x", 1);
        b.transaction("B1").read("y", 0).write("y", 1);
        b.transaction("A2").read("x", 0).write("x", 2);
        b.transaction("B2").read("y", 0).write("y", 2);
        History h = b.build();
        CheckPipeline pipeline = new CheckPipeline(new SatChecker(), new ReferenceChecker(), 1);
        for (int run = 0; run < 20; run++) {
            Verdict verdict = pipeline.check(h, SER);
            assertThat(verdict).isInstanceOf(Verdict.Violated.class);
            assertThat(((Verdict.Violated) verdict).anomaly().transactions()).containsExactlyInAnyOrder("A1", "A2");
        }
    }

    @Test
    void anUnknownPartMakesTheWholeUnknownUnlessAnotherPartIsViolated() {
        HistoryBuilder b = History.builder().initialValue("x", 0).initialValue("y", 0).initialValue("z", 0);
        b.transaction("A1").read("x", 0).write("x", 1);
        b.transaction("B1").read("y", 0).write("y", 1);
        b.transaction("C1").read("z", 0).write("z", 1);
        History h = b.build();
        Checker giveUpOnB = (history, level) -> history.transaction("B1").isPresent()
                ? new Verdict.Unknown(level, "gave up") : new SatChecker().check(history, level);
        Verdict unknown = new CheckPipeline(giveUpOnB, null, 1).check(h, SER);
        assertThat(unknown).isInstanceOf(Verdict.Unknown.class);
        assertThat(((Verdict.Unknown) unknown).reason()).isEqualTo("independent part 2 of 3 (1 committed transactions, the first B1): gave up");
        // The reference decides the whole history, as without decomposition.
        assertThat(new CheckPipeline(giveUpOnB, new ReferenceChecker(), 1).check(h, SER).isSatisfied()).isTrue();

        HistoryBuilder violated = History.builder().initialValue("x", 0).initialValue("y", 0).initialValue("z", 0);
        violated.transaction("A1").read("x", 0).write("x", 1);
        violated.transaction("B1").read("y", 0).write("y", 1);
        violated.transaction("C1").read("z", 0).write("z", 1);
        violated.transaction("C2").read("z", 0).write("z", 2);
        Verdict v = new CheckPipeline(giveUpOnB, null, 1).check(violated.build(), SER);
        assertThat(v).isInstanceOf(Verdict.Violated.class);
        assertThat(((Verdict.Violated) v).anomaly().type()).isEqualTo(AnomalyType.NO_VALID_ORDER);
    }

    /** A merged witness that does not replay on the whole (a broken part search here) is not given: the whole is searched. */
    @Test
    void aMergedWitnessThatDoesNotReplayIsNotGiven() {
        HistoryBuilder b = History.builder().initialValue("x", 0).initialValue("y", 0);
        b.transaction("A1").session("a").write("x", 1);
        b.transaction("A2").session("a").read("x", 1);
        b.transaction("B1").write("y", 1);
        History h = b.build();
        // On a part, a witness against session order; on the whole, the engine.
        Checker brokenOnParts = (history, level) -> history.size() == h.size() ? new SatChecker().check(history, level)
                : new Verdict.Satisfied(level, history.transactions().stream().map(Transaction::id).sorted(
                        Comparator.reverseOrder()).toList());
        Verdict verdict = new CheckPipeline(brokenOnParts, null, 1).check(h, SER);
        assertThat(verdict).isInstanceOf(Verdict.Satisfied.class);
        assertThat(new WitnessReplay(h).failure(((Verdict.Satisfied) verdict).witness(), false)).isEmpty();
    }

    /**
     * Twenty histories of a serial (or snapshot-isolation) database side by side: the default
     * pipeline splits them, and its witness, the parts' witnesses one after another, replays on
     * the whole history.
     */
    @Test
    void aSatisfiedWitnessOfAMultiPartHistoryReplaysOnTheWhole() {
        Workload workload = Workload.defaults().withMix(5, 4, 1, 0);
        for (IsolationLevel level : List.of(SER, SI)) {
            SimulatedDatabase database = level == SER ? SimulatedDatabase.serial() : SimulatedDatabase.snapshotIsolation();
            HistoryGenerator generator = new HistoryGenerator(workload, database);
            for (long seed = 1; seed <= 5; seed++) {
                List<History> components = new ArrayList<>();
                for (int c = 0; c < 20; c++) {
                    components.add(generator.generate(seed * 100 + c).history());
                }
                History whole = DisjointUnion.of(components, new SplittableRandom(seed));
                Decomposition d = Decomposition.of(whole, level);
                assertThat(d.parts().size()).as("seed %d: parts", seed).isGreaterThan(1);
                assertThat(d.componentCount()).as("seed %d: components", seed).isEqualTo(20);

                Verdict verdict = new CheckPipeline().check(whole, level);
                assertThat(verdict).as("seed %d at %s", seed, level).isInstanceOf(Verdict.Satisfied.class);
                List<String> witness = ((Verdict.Satisfied) verdict).witness();
                List<String> expected = new ArrayList<>();
                for (History part : d.parts()) {
                    expected.addAll(((Verdict.Satisfied) new SatChecker().check(part, level)).witness());
                }
                assertThat(witness).as("seed %d: the parts' witnesses in part order", seed).isEqualTo(expected);
                WitnessReplay replay = new WitnessReplay(whole);
                Optional<String> failure = level == SI ? replay.snapshotFailure(witness) : replay.failure(witness, false);
                assertThat(failure).as("seed %d at %s: witness replays on the whole", seed, level).isEmpty();
                assertThat(ReferenceChecker.explains(whole, level, witness)).as("seed %d at %s", seed, level).isTrue();
            }
        }
    }

    @Test
    void theSamePartsWhateverTheInterleaving() {
        HistoryGenerator generator = new HistoryGenerator(Workload.defaults().withMix(5, 4, 1, 0), SimulatedDatabase.serial());
        List<History> components = List.of(generator.generate(1).history(), generator.generate(2).history(),
                generator.generate(3).history());
        for (long seed = 0; seed < 10; seed++) {
            History whole = DisjointUnion.of(components, new SplittableRandom(seed));
            Decomposition d = Decomposition.of(whole, SER, 1);
            assertThat(d.parts()).hasSize(3);
            for (History part : d.parts()) {
                String prefix = part.transaction(0).id().substring(0, 3);
                int c = Integer.parseInt(prefix.substring(1, 2));
                assertThat(part.transactions().stream().map(Transaction::id).collect(Collectors.toList()))
                        .as("seed %d", seed)
                        .isEqualTo(components.get(c).transactions().stream().map(t -> prefix + t.id()).toList());
            }
        }
    }
}
