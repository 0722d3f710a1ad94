package dev.isocheck.internal.explain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.internal.engine.CheckPipeline;
import dev.isocheck.internal.graph.ReadAnomalies;
import dev.isocheck.internal.graph.ReadExplanations;
import dev.isocheck.history.History;
import dev.isocheck.history.Transaction;
import dev.isocheck.internal.reference.ReferenceChecker;
import dev.isocheck.internal.simulate.HistoryGenerator;
import dev.isocheck.internal.simulate.SeededRuns;
import dev.isocheck.internal.simulate.SimulatedDatabase;
import dev.isocheck.internal.simulate.SmallWorkloads;
import dev.isocheck.internal.simulate.Workload;
import java.util.HashMap;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The restriction a core is judged by only drops constraints (a violated restriction proves the
 * whole history violated, against the reference checker), and the core found is minimal.
 */
@DisplayName("violating cores: a violated restriction proves the whole violated; cores are minimal")
class ViolatingCoreTests {

    private static final ReferenceChecker REFERENCE = new ReferenceChecker();
    private static final CheckPipeline PIPELINE = new CheckPipeline();
    private static final List<SimulatedDatabase> DATABASES = List.of(SimulatedDatabase.serial(),
            SimulatedDatabase.snapshotIsolation(), SimulatedDatabase.readCommitted(), SimulatedDatabase.lostUpdate(0.5),
            SimulatedDatabase.staleRead(0.3));

    @Test
    void aViolatedRestrictionMeansAViolatedHistory() {
        int[] tally = new int[2];
        long base = 7_100_000L;
        for (SimulatedDatabase database : DATABASES) {
            for (int variant = 0; variant < 24; variant++) {
                HistoryGenerator generator = new HistoryGenerator(SmallWorkloads.variant(variant), database);
                SeededRuns.forEachHistory(3, base + 1_000L * variant, generator, generated -> {
                    History history = generated.history();
                    if (!ReadAnomalies.find(history).isEmpty()) {
                        return;
                    }
                    ReadExplanations explanations = ReadExplanations.of(history);
                    int[] committed = history.transactions().stream().filter(Transaction::isCommitted)
                            .mapToInt(Transaction::index).toArray();
                    SplittableRandom random = new SplittableRandom(generated.seed());
                    for (IsolationLevel level : dev.isocheck.internal.saturate.WeakLevel.searchedLevels()) {
                        boolean whole = REFERENCE.check(history, level).isViolated();
                        for (int trial = 0; trial < 6; trial++) {
                            int[] subset = IntStream.of(committed).filter(t -> random.nextInt(4) != 0).toArray();
                            History restricted = ViolatingCore.restriction(history, explanations, subset, new HashMap<>());
                            Verdict verdict = REFERENCE.check(restricted, level);
                            assertThat(verdict).as("the reference on a restriction").isNotInstanceOf(Verdict.Unknown.class);
                            if (verdict.isViolated()) {
                                assertThat(whole).as("restriction to %s violated at %s, the whole satisfied",
                                        ids(history, subset), level).isTrue();
                                tally[0]++;
                            } else {
                                tally[1]++;
                            }
                        }
                    }
                });
            }
            base += 100_000L;
        }
        System.out.printf("restrictions: %d violated (each with the whole violated), %d satisfied%n", tally[0], tally[1]);
        assertThat(tally[0]).as("violated restrictions").isGreaterThan(100);
    }

    @Test
    void theCoreIsViolatedAndNoTransactionOfItCanBeLeftOut() {
        int[] found = new int[1];
        Workload workload = Workload.defaults().withSessions(4, 6).withValueDomain(3);
        for (SimulatedDatabase database : DATABASES.subList(1, DATABASES.size())) {
            HistoryGenerator generator = new HistoryGenerator(workload, database);
            SeededRuns.forEachHistory(8, 7_300_000L, generator, generated -> {
                History history = generated.history();
                ReadExplanations explanations = ReadExplanations.of(history);
                for (IsolationLevel level : dev.isocheck.internal.saturate.WeakLevel.searchedLevels()) {
                    if (!(PIPELINE.check(history, level) instanceof Verdict.Violated violated)
                            || !ReadAnomalies.find(history).isEmpty()) {
                        continue;
                    }
                    int[] start = violated.anomaly().transactions().stream()
                            .mapToInt(id -> history.transaction(id).orElseThrow().index()).toArray();
                    Optional<ViolatingCore.Result> core = ViolatingCore.find(history, level, PIPELINE, start,
                            Integer.MAX_VALUE, System.nanoTime() + 60_000_000_000L);
                    assertThat(core).as("a core at %s", level).isPresent();
                    assertThat(core.get().complete()).isTrue();
                    int[] members = core.get().transactions();
                    assertThat(PIPELINE.check(ViolatingCore.restriction(history, explanations, members, new HashMap<>()), level)
                            .isViolated()).as("the core %s violated at %s", ids(history, members), level).isTrue();
                    for (int left : members) {
                        int[] others = IntStream.of(members).filter(t -> t != left).toArray();
                        assertThat(PIPELINE.check(ViolatingCore.restriction(history, explanations, others, new HashMap<>()), level)
                                .isViolated()).as("the core %s without %s at %s", ids(history, members),
                                        history.transaction(left).id(), level).isFalse();
                    }
                    found[0]++;
                }
            });
        }
        System.out.printf("cores found and checked minimal: %d%n", found[0]);
        // The limit: a core larger than it is reported as such, with limit + 1 of its transactions.
        History history = new HistoryGenerator(workload, SimulatedDatabase.readCommitted()).generate(7_300_003L).history();
        Verdict.Violated violated = (Verdict.Violated) PIPELINE.check(history, IsolationLevel.SERIALIZABLE);
        int[] start = violated.anomaly().transactions().stream()
                .mapToInt(id -> history.transaction(id).orElseThrow().index()).toArray();
        ViolatingCore.Result whole = ViolatingCore.find(history, IsolationLevel.SERIALIZABLE, PIPELINE, start, Integer.MAX_VALUE,
                System.nanoTime() + 60_000_000_000L).orElseThrow();
        ViolatingCore.Result cut = ViolatingCore.find(history, IsolationLevel.SERIALIZABLE, PIPELINE, start, 1,
                System.nanoTime() + 60_000_000_000L).orElseThrow();
        assertThat(whole.transactions().length).as("a core of more than one transaction").isGreaterThan(1);
        assertThat(cut.complete()).isFalse();
        assertThat(cut.transactions()).hasSize(2);
        assertThat(IntStream.of(whole.transactions()).boxed()).containsAll(IntStream.of(cut.transactions()).boxed().toList());
        assertThat(found[0]).isGreaterThan(20);
    }

    private static List<String> ids(History history, int[] transactions) {
        return IntStream.of(transactions).mapToObj(t -> history.transaction(t).id()).toList();
    }
}
