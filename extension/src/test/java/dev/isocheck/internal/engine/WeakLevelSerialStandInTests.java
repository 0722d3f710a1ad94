package dev.isocheck.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.history.History;
import dev.isocheck.internal.limit.Limits;
import dev.isocheck.internal.reference.ReferenceChecker;
import dev.isocheck.internal.saturate.SaturationChecker;
import dev.isocheck.internal.saturate.WeakLevel;
import dev.isocheck.internal.simulate.HistoryGenerator;
import dev.isocheck.internal.simulate.SeededRuns;
import dev.isocheck.internal.simulate.SimulatedDatabase;
import dev.isocheck.internal.simulate.SmallWorkloads;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * When the saturation's guesses fail at a weak level, the pipeline looks for a serial order, a
 * snapshot-isolation or a prefix-consistent commit order, then for a choice of writers from the recorded times repaired
 * cycle by cycle, before its search over choices; a pass found that way is one the reference gives:
 * on thousands of seeded histories with repeated values, from every simulated database, with a
 * saturation budget of nothing, so that every history whose guesses fail takes that path. It may
 * leave a history undecided; it never turns a violation into a pass, and what stands in never
 * answers "violated" (a violation comes from the saturation itself, and must be the reference's).
 */
@DisplayName("differential: stronger orders and the timed guess stand in for the saturation's search")
class WeakLevelSerialStandInTests {

    private static final IsolationLevel[] WEAK = {IsolationLevel.READ_COMMITTED, IsolationLevel.READ_ATOMIC,
        IsolationLevel.CAUSAL};
    private static final ReferenceChecker REFERENCE = new ReferenceChecker();

    @Test
    void aPassFoundThroughASerialOrderIsOneTheReferenceGives() {
        CheckPipeline giving = new CheckPipeline(0);
        Map<IsolationLevel, int[]> tally = new EnumMap<>(IsolationLevel.class);
        for (IsolationLevel level : WEAK) {
            tally.put(level, new int[3]);
        }
        List<SimulatedDatabase> databases = List.of(SimulatedDatabase.serial(), SimulatedDatabase.snapshotIsolation(),
                SimulatedDatabase.readCommitted(), SimulatedDatabase.lostUpdate(0.5), SimulatedDatabase.staleRead(0.3));
        forEachHistory(databases, 75_000_000L, h -> {
            for (IsolationLevel level : WEAK) {
                Verdict reference = REFERENCE.check(h, level);
                if (reference instanceof Verdict.Unknown) {
                    continue; // more transactions or choices than the reference enumerates
                }
                Verdict budgeted = giving.check(h, level);
                // The guesses alone, without what stands in for the search.
                boolean gaveUp = new SaturationChecker(0, null, false).check(h, WeakLevel.of(level).orElseThrow(),
                        Limits.none()) instanceof SaturationChecker.Outcome.Unknown;
                int[] counts = tally.get(level);
                if (budgeted instanceof Verdict.Satisfied) {
                    assertThat(reference.isSatisfied()).as("reference at %s: %s", level, reference).isTrue();
                    counts[0] += gaveUp ? 1 : 0;
                } else if (budgeted instanceof Verdict.Violated) {
                    assertThat(reference.isSatisfied()).as("reference at %s: %s", level, reference).isFalse();
                } else {
                    assertThat(((Verdict.Unknown) budgeted).reason()).as("why at %s", level)
                            .contains("a serial, snapshot-isolation or prefix-consistent commit order, which would"
                                    + " satisfy every weaker level,");
                    assertThat(REFERENCE.check(h, IsolationLevel.SNAPSHOT_ISOLATION).isSatisfied())
                            .as("a history with snapshot isolation left undecided at %s", level).isFalse();
                    assertThat(REFERENCE.check(h, IsolationLevel.PREFIX).isSatisfied())
                            .as("a prefix-consistent history left undecided at %s", level).isFalse();
                    counts[1]++;
                    counts[2] += reference.isSatisfied() ? 1 : 0;
                }
            }
        });
        for (IsolationLevel level : WEAK) {
            int[] counts = tally.get(level);
            System.out.printf("weak levels with no saturation budget at %s: %d passed through a stronger order or the timed guess where"
                    + " the guesses gave up; %d left undecided (%d of them satisfying the level, none prefix-consistent)%n", level,
                    counts[0], counts[1], counts[2]);
            assertThat(counts[0]).as("passes through a stronger order at %s", level).isPositive();
        }
    }

    /**
     * The read-by-read order alone (the split with every read apart, serializable) stands in at
     * read committed: every pass it gives is one the reference gives, on histories of read
     * committed databases, snapshot isolation with lost updates and stale reads, half of them on
     * hot keys; and it passes histories that no stronger order explains.
     */
    @Test
    void aReadByReadOrderIsAReadCommittedOrder() {
        CheckPipeline pipeline = new CheckPipeline();
        SaturationChecker readByRead = new SaturationChecker(0, pipeline::readByRead, false);
        List<SimulatedDatabase> databases = List.of(SimulatedDatabase.readCommitted(), SimulatedDatabase.lostUpdate(0.5),
                SimulatedDatabase.staleRead(0.3), SimulatedDatabase.serial());
        int[] passes = new int[1];
        int[] beyondPrefix = new int[1];
        int[] compared = new int[1];
        forEachHistory(databases, 91_000_000L, h -> {
            Verdict reference = REFERENCE.check(h, IsolationLevel.READ_COMMITTED);
            if (reference instanceof Verdict.Unknown) {
                return;
            }
            compared[0]++;
            if (readByRead.check(h, WeakLevel.READ_COMMITTED, Limits.none()) instanceof SaturationChecker.Outcome.Satisfied) {
                assertThat(reference.isSatisfied()).as("reference at read committed: %s", reference).isTrue();
                passes[0]++;
                beyondPrefix[0] += REFERENCE.check(h, IsolationLevel.PREFIX).isSatisfied() ? 0 : 1;
            }
        });
        System.out.printf("read by read at read committed: %d histories compared, %d passed (%d not prefix-consistent)%n",
                compared[0], passes[0], beyondPrefix[0]);
        assertThat(compared[0]).isGreaterThan(1_000);
        assertThat(beyondPrefix[0]).as("passes no stronger order gives").isGreaterThan(50);
    }

    /**
     * 36 seeded histories of each of 24 workload variants per database, from {@code base} on: half
     * as the small workloads make them, half hot keys (few keys, many sessions).
     */
    private static void forEachHistory(List<SimulatedDatabase> databases, long base, java.util.function.Consumer<History> check) {
        long seed = base;
        for (SimulatedDatabase database : databases) {
            for (int variant = 0; variant < 24; variant++) {
                HistoryGenerator generator = new HistoryGenerator(variant % 2 == 0
                        ? SmallWorkloads.variant(variant).withValueDomain(2 + variant % 3 / 2)
                        : SmallWorkloads.variant(variant).withSessions(variant % 4 == 1 ? 3 : 7, variant % 4 == 1 ? 2 : 1)
                                .withKeys(2, 0).withMix(1, 1, 0, 0).withValueDomain(2).withMaxOpsPerTransaction(4),
                        database);
                SeededRuns.forEachHistory(36, seed + 10_000L * variant, generator, generated -> check.accept(generated.history()));
            }
            seed += 1_000_000L;
        }
    }
}
