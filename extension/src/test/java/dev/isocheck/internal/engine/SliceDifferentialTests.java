package dev.isocheck.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.history.History;
import dev.isocheck.history.UnknownInitialValues;
import dev.isocheck.internal.reference.ReferenceChecker;
import dev.isocheck.internal.simulate.AnyInitialValues;
import dev.isocheck.internal.simulate.HistoryGenerator;
import dev.isocheck.internal.simulate.SeededRuns;
import dev.isocheck.internal.simulate.SimulatedDatabase;
import dev.isocheck.internal.simulate.Workload;
import dev.isocheck.internal.simulate.Workload.InitialKnowledge;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * What {@code Recording.since(mark)} rests on: a history whose earlier transactions keep their
 * writes and lose their reads violates a level only where the whole history does (reads taken
 * away only take constraints away), and the pipeline decides such a slice as the reference does.
 * On thousands of seeded histories as a recorder writes them ({@code "unknown": "any"}), from
 * correct and broken databases; a failure names its seed.
 */
@DisplayName("differential: a slice of a recording violates a level only where the whole does")
class SliceDifferentialTests {

    private static final IsolationLevel[] LEVELS = dev.isocheck.internal.saturate.WeakLevel.searchedLevels();
    private static final ReferenceChecker REFERENCE = new ReferenceChecker();
    private static final CheckPipeline PIPELINE = new CheckPipeline();

    @Test
    void aSliceViolatesOnlyWhereTheWholeDoesAndThePipelineAgreesWithTheReference() {
        AtomicInteger slicesViolated = new AtomicInteger();
        AtomicInteger wholesViolated = new AtomicInteger();
        AtomicInteger slices = new AtomicInteger();
        List<SimulatedDatabase> databases = List.of(SimulatedDatabase.serial(), SimulatedDatabase.snapshotIsolation(),
                SimulatedDatabase.readCommitted(), SimulatedDatabase.lostUpdate(0.5), SimulatedDatabase.staleRead(0.3),
                SimulatedDatabase.abortedRead(0.3), SimulatedDatabase.intermediateRead(0.3));
        long base = 7_000;
        for (SimulatedDatabase database : databases) {
            for (int variant = 0; variant < 8; variant++) {
                Workload workload = Workload.defaults()
                        .withSessions(2 + variant % 3, variant % 3 == 0 ? 4 : 2)
                        .withMaxOpsPerTransaction(3 + variant % 3)
                        .withKeys(2 + variant % 2, 2 + (variant / 2) % 2)
                        .withValueDomain(variant % 4 == 0 ? 0 : 2 + variant % 3)
                        .withInitialState(InitialKnowledge.values()[variant % InitialKnowledge.values().length])
                        .withPartialRows(variant % 5 != 0)
                        .withAbortProbability(variant % 2 == 0 ? 0.0 : 0.15);
                SeededRuns.forEachHistory(25, base + 100_000L * variant, new HistoryGenerator(workload, database), generated -> {
                    History whole = AnyInitialValues.forget(generated.history(), new SplittableRandom(generated.seed()));
                    // Where the mark fell: every transaction before it loses its reads.
                    int mark = new SplittableRandom(generated.seed() ^ 0x5EED).nextInt(whole.size() + 1);
                    History slice = AnyInitialValues.forget(generated.history(), new SplittableRandom(generated.seed()),
                            UnknownInitialValues.ANY, index -> index >= mark);
                    slices.incrementAndGet();
                    for (IsolationLevel level : LEVELS) {
                        Verdict ofWhole = REFERENCE.check(whole, level);
                        Verdict ofSlice = REFERENCE.check(slice, level);
                        assertThat(ofSlice).as("reference on the slice at %s", level).isNotInstanceOf(Verdict.Unknown.class);
                        if (ofWhole.isSatisfied()) {
                            assertThat(ofSlice.isSatisfied()).as("slice from transaction %d of a history satisfying %s", mark,
                                    level).isTrue();
                        } else {
                            wholesViolated.incrementAndGet();
                        }
                        if (ofSlice.isViolated()) {
                            slicesViolated.incrementAndGet();
                        }
                        assertThat(PIPELINE.check(slice, level).isSatisfied()).as("pipeline on the slice at %s", level)
                                .isEqualTo(ofSlice.isSatisfied());
                    }
                });
            }
            base += 10_000_000L;
        }
        System.out.printf("slices: %d histories, %d verdicts violated on the whole, %d on the slice%n", slices.get(),
                wholesViolated.get(), slicesViolated.get());
        // Both answers must have come up often, or the runs prove little.
        assertThat(slicesViolated.get()).as("slices that still violate").isGreaterThan(100);
        assertThat(wholesViolated.get() - slicesViolated.get()).as("violations a slice no longer shows").isGreaterThan(100);
    }
}
