package dev.isocheck.internal.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.history.History;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.Transaction;
import dev.isocheck.internal.simulate.Workload.InitialKnowledge;
import java.util.List;
import org.junit.jupiter.api.Test;

class HistoryGeneratorTests {

    private static final List<SimulatedDatabase> DATABASES = List.of(SimulatedDatabase.serial(),
            SimulatedDatabase.snapshotIsolation(), SimulatedDatabase.readCommitted(), SimulatedDatabase.lostUpdate(0.5),
            SimulatedDatabase.staleRead(0.3), SimulatedDatabase.abortedRead(0.5), SimulatedDatabase.intermediateRead(0.5));

    @Test
    void theSameSeedGivesTheSameHistory() {
        Workload workload = Workload.defaults().withValueDomain(4).withInitialState(InitialKnowledge.UNKNOWN);
        for (SimulatedDatabase database : DATABASES) {
            HistoryGenerator generator = new HistoryGenerator(workload, database);
            SeededRuns.forEachSeed(50, 7, seed -> {
                GeneratedHistory a = generator.generate(seed);
                GeneratedHistory b = generator.generate(seed);
                assertThat(a.render()).isEqualTo(b.render());
                assertThat(a.bugs()).isEqualTo(b.bugs());
                assertThat(times(a.history())).isEqualTo(times(b.history()));
            });
            assertThat(generator.generate(1).render()).isNotEqualTo(generator.generate(2).render());
        }
    }

    @Test
    void theWorkloadShapesTheHistory() {
        Workload workload = Workload.defaults().withSessions(3, 20).withMix(1, 1, 1, 1).withAbortProbability(0.3);
        GeneratedHistory generated = new HistoryGenerator(workload, SimulatedDatabase.snapshotIsolation()).generate(3);
        History history = generated.history();
        assertThat(history.size()).isEqualTo(60);
        assertThat(history.sessions()).hasSize(3);
        assertThat(history.committedCount()).isLessThan(60).isPositive();
        assertThat(history.transactions()).anySatisfy(t -> assertThat(kinds(t)).contains(OpKind.PREDICATE));
        assertThat(history.transactions()).allSatisfy(t -> {
            assertThat(t.size()).isBetween(1, workload.maxOpsPerTransaction());
            assertThat(t.start()).isPresent();
        });
        assertThat(history.transactions()).anySatisfy(t -> assertThat(t.toString()).contains("w(t/").contains(", null)"));
    }

    @Test
    void serialHistoriesRespectRealTime() {
        GeneratedHistory generated = new HistoryGenerator(Workload.defaults(), SimulatedDatabase.serial()).generate(5);
        long previousEnd = Long.MIN_VALUE;
        for (Transaction t : generated.history().transactions()) {
            assertThat(t.startTime()).isGreaterThan(previousEnd);
            previousEnd = t.endTime();
        }
    }

    private static List<OpKind> kinds(Transaction t) {
        return java.util.stream.IntStream.range(0, t.size()).mapToObj(t::kind).toList();
    }

    private static List<Long> times(History history) {
        return history.transactions().stream().flatMap(t -> java.util.stream.Stream.of(t.startTime(), t.endTime())).toList();
    }
}
