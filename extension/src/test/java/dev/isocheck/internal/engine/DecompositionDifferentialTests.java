package dev.isocheck.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.history.History;
import dev.isocheck.internal.reference.ReferenceChecker;
import dev.isocheck.internal.simulate.AnyInitialValues;
import dev.isocheck.internal.simulate.HistoryGenerator;
import dev.isocheck.internal.simulate.SeededRuns;
import dev.isocheck.internal.simulate.SimulatedDatabase;
import dev.isocheck.internal.simulate.SmallWorkloads;
import dev.isocheck.internal.simulate.Workload;
import dev.isocheck.internal.solve.SatChecker;
import dev.isocheck.internal.solve.WitnessReplay;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The decomposing pipeline against the reference checker, on seeded disjoint unions of two to four
 * small histories from every simulated database (broken ones included): the union's verdict is the
 * reference's on the whole union where it is small enough for the reference, and otherwise the
 * conjunction of the reference's verdicts on the components. Where both can be computed they must
 * agree, which checks the claim decomposition rests on against the definitions themselves.
 */
@DisplayName("differential: decomposing pipeline vs reference on disjoint unions")
class DecompositionDifferentialTests {

    private static final int CASES_PER_LEVEL = 600;
    private static final ReferenceChecker REFERENCE = new ReferenceChecker();
    /** Bundling off: even the smallest components are separate parts, searched in parallel. */
    private static final CheckPipeline PIPELINE = new CheckPipeline(new SatChecker(), new ReferenceChecker(), 1);
    private static final List<SimulatedDatabase> DATABASES = List.of(SimulatedDatabase.serial(),
            SimulatedDatabase.snapshotIsolation(), SimulatedDatabase.readCommitted(), SimulatedDatabase.lostUpdate(0.5),
            SimulatedDatabase.staleRead(0.3), SimulatedDatabase.abortedRead(0.3), SimulatedDatabase.intermediateRead(0.3));

    @Test
    void serializable() {
        run(IsolationLevel.SERIALIZABLE, 81_000_000L, CASES_PER_LEVEL, false);
    }

    @Test
    void snapshotIsolation() {
        run(IsolationLevel.SNAPSHOT_ISOLATION, 82_000_000L, CASES_PER_LEVEL, false);
    }

    /** Components as a recorder writes them: {@code "unknown": "any"}, most initial values forgotten. */
    @Test
    void serializableWhenUnknownInitialValuesMayBeAny() {
        run(IsolationLevel.SERIALIZABLE, 83_000_000L, CASES_PER_LEVEL / 2, true);
    }

    @Test
    void snapshotIsolationWhenUnknownInitialValuesMayBeAny() {
        run(IsolationLevel.SNAPSHOT_ISOLATION, 84_000_000L, CASES_PER_LEVEL / 2, true);
    }

    /** Counts: satisfied, violated, decided by the reference on the whole union, split into parts. */
    private static void run(IsolationLevel level, long baseSeed, int cases, boolean any) {
        int[] tally = new int[4];
        SeededRuns.forEachSeed(cases, baseSeed, seed -> {
            SplittableRandom random = new SplittableRandom(seed);
            // Tiny components (at most 4 transactions) keep many unions within the reference's 8
            // committed transactions. Only unions of two tiny ones may have predicate reads (which
            // keep the history whole), so that the reference can stand in where the engine does not
            // model them.
            boolean tiny = random.nextBoolean();
            boolean predicates = tiny && random.nextInt(4) == 0;
            int count = predicates ? 2 : 2 + random.nextInt(3);
            List<History> components = new ArrayList<>();
            for (int c = 0; c < count; c++) {
                Workload workload = SmallWorkloads.variant(random.nextInt(420));
                if (tiny) {
                    workload = workload.withSessions(1 + random.nextInt(2), 1 + random.nextInt(2));
                }
                if (!predicates) {
                    workload = workload.withMix(5, 4, 1, 0);
                }
                SimulatedDatabase database = DATABASES.get(random.nextInt(DATABASES.size()));
                History component = new HistoryGenerator(workload, database).generate(random.nextLong()).history();
                components.add(any ? AnyInitialValues.forget(component, random) : component);
            }
            History whole = DisjointUnion.of(components, random);
            try {
                check(level, whole, components, tally);
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "\nunion of " + count + " histories" + (any ? ", \"unknown\": \"any\"" : "") + ":\n" + DisjointUnion.render(whole), e);
            }
        });
        System.out.printf("decomposing pipeline vs reference at %s%s: %d satisfied, %d violated, %d decided on the whole "
                + "union by the reference, %d split (of %d unions)%n", level, any ? " (\"unknown\": \"any\")" : "",
                tally[0], tally[1], tally[2], tally[3], cases);
        assertThat(tally[0]).as("satisfied at %s", level).isGreaterThan(cases / 10);
        assertThat(tally[1]).as("violated at %s", level).isGreaterThan(cases / 10);
        assertThat(tally[2]).as("decided on the whole union at %s", level).isGreaterThan(cases / 10);
        assertThat(tally[3]).as("split at %s", level).isGreaterThan(cases * 3 / 4);
    }

    private static void check(IsolationLevel level, History whole, List<History> components, int[] tally) {
        boolean conjunction = true;
        for (History component : components) {
            Verdict reference = REFERENCE.check(component, level);
            assertThat(reference).as("reference on a component at %s", level).isNotInstanceOf(Verdict.Unknown.class);
            conjunction &= reference.isSatisfied();
        }
        boolean expected = conjunction;
        if (whole.committedCount() <= REFERENCE.maxCommitted()) {
            Verdict reference = REFERENCE.check(whole, level);
            assertThat(reference.isSatisfied()).as("reference on the union (%s) = conjunction over components at %s",
                    reference, level).isEqualTo(conjunction);
            expected = reference.isSatisfied();
            tally[2]++;
        }
        boolean split = Decomposition.of(whole, level, 1).isSplit();
        boolean committedPredicates = whole.hasCommittedPredicateReads();
        assertThat(split).as("split unless predicate reads").isEqualTo(!committedPredicates);
        tally[3] += split ? 1 : 0;

        Verdict verdict = PIPELINE.check(whole, level);
        assertThat(verdict).as("pipeline at %s", level).isNotInstanceOf(Verdict.Unknown.class);
        assertThat(verdict.isSatisfied()).as("pipeline (%s) agrees with the reference at %s", verdict, level).isEqualTo(expected);
        tally[verdict.isSatisfied() ? 0 : 1]++;
        if (verdict instanceof Verdict.Satisfied satisfied) {
            WitnessReplay replay = new WitnessReplay(whole);
            Optional<String> failure = level == IsolationLevel.SNAPSHOT_ISOLATION ? replay.snapshotFailure(satisfied.witness())
                    : replay.failure(satisfied.witness(), false);
            assertThat(failure).as("witness %s replays at %s", satisfied.witness(), level).isEmpty();
        }
    }
}
