package dev.isocheck.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.internal.graph.ReadAnomalies;
import dev.isocheck.history.History;
import dev.isocheck.internal.reference.ReferenceChecker;
import dev.isocheck.format.JsonlHistoryWriter;
import dev.isocheck.internal.simulate.AnyInitialValues;
import dev.isocheck.internal.simulate.GeneratedHistory;
import dev.isocheck.internal.simulate.HistoryGenerator;
import dev.isocheck.internal.simulate.InjectedBug;
import dev.isocheck.internal.simulate.SeededRuns;
import dev.isocheck.internal.simulate.SimulatedDatabase;
import dev.isocheck.internal.simulate.Workload;
import dev.isocheck.internal.simulate.Workload.InitialKnowledge;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The pipeline, the screening and the reference checker agree with each other and with what the
 * simulated databases guarantee, on thousands of small seeded histories. A failure names its seed
 * and prints the history, so it can be replayed alone.
 */
@DisplayName("differential: simulated databases, screening, reference, pipeline")
class DifferentialTests {

    private static final IsolationLevel[] LEVELS = dev.isocheck.internal.saturate.WeakLevel.searchedLevels();
    private static final ReferenceChecker REFERENCE = new ReferenceChecker();
    private static final CheckPipeline PIPELINE = new CheckPipeline();

    /**
     * Small enough for the reference checker (at most 8 committed transactions), varied by
     * {@code variant}: unique or duplicate values, every kind of initial state, partial rows,
     * predicate reads, deletes and aborts.
     */
    private static Workload small(int variant) {
        InitialKnowledge[] initial = InitialKnowledge.values();
        return Workload.defaults()
                .withSessions(2 + variant % 3, variant % 3 == 0 ? 4 : 2)
                .withMaxOpsPerTransaction(3 + variant % 3)
                .withKeys(2 + variant % 2, 2 + (variant / 2) % 2)
                .withValueDomain(variant % 4 == 0 ? 0 : 2 + variant % 3)
                .withInitialState(initial[variant % initial.length])
                .withPartialRows(variant % 5 != 0)
                .withAbortProbability(variant % 2 == 0 ? 0.0 : 0.15);
    }

    private static void forEachVariant(SimulatedDatabase database, int historiesPerVariant, long baseSeed,
            BiConsumer<Workload, GeneratedHistory> check) {
        for (int variant = 0; variant < 12; variant++) {
            Workload workload = small(variant);
            HistoryGenerator generator = new HistoryGenerator(workload, database);
            SeededRuns.forEachHistory(historiesPerVariant, baseSeed + 100_000L * variant, generator,
                    generated -> check.accept(workload, generated));
        }
    }

    @Test
    void serialDatabasesSatisfyEveryLevelWithAReplayableWitness() {
        forEachVariant(SimulatedDatabase.serial(), 150, 1_000, (workload, generated) -> {
            History h = generated.history();
            assertThat(ReadAnomalies.find(h)).isEmpty();
            for (IsolationLevel level : LEVELS) {
                Verdict verdict = REFERENCE.check(h, level);
                assertThat(verdict).as("reference at %s", level).isInstanceOf(Verdict.Satisfied.class);
                assertThat(ReferenceChecker.explains(h, level, ((Verdict.Satisfied) verdict).witness()))
                        .as("witness replays at %s", level).isTrue();
                assertThat(PIPELINE.check(h, level).isSatisfied()).as("pipeline at %s", level).isTrue();
            }
        });
    }

    @Test
    void snapshotIsolationDatabasesSatisfySnapshotIsolation() {
        forEachVariant(SimulatedDatabase.snapshotIsolation(), 150, 2_000, (workload, generated) -> {
            History h = generated.history();
            assertThat(ReadAnomalies.find(h)).isEmpty();
            Verdict verdict = REFERENCE.check(h, IsolationLevel.SNAPSHOT_ISOLATION);
            assertThat(verdict).isInstanceOf(Verdict.Satisfied.class);
            assertThat(ReferenceChecker.explains(h, IsolationLevel.SNAPSHOT_ISOLATION,
                    ((Verdict.Satisfied) verdict).witness())).isTrue();
        });
    }

    /**
     * On every kind of database, broken ones included: a screening anomaly means the reference
     * finds no valid order at any level (screening never raises a false alarm); the pipeline says
     * what the reference says; strict serializable implies serializable implies snapshot isolation;
     * and every witness replays.
     */
    @Test
    void screeningPipelineAndReferenceAgreeOnEveryKindOfDatabase() {
        Map<IsolationLevel, AtomicInteger> violated = new EnumMap<>(IsolationLevel.class);
        Map<IsolationLevel, AtomicInteger> satisfied = new EnumMap<>(IsolationLevel.class);
        for (IsolationLevel level : LEVELS) {
            violated.put(level, new AtomicInteger());
            satisfied.put(level, new AtomicInteger());
        }
        AtomicInteger screened = new AtomicInteger();
        List<SimulatedDatabase> databases = List.of(SimulatedDatabase.readCommitted(), SimulatedDatabase.lostUpdate(0.5),
                SimulatedDatabase.staleRead(0.3), SimulatedDatabase.abortedRead(0.3), SimulatedDatabase.intermediateRead(0.3),
                SimulatedDatabase.snapshotIsolation());
        long base = 3_000;
        for (SimulatedDatabase database : databases) {
            forEachVariant(database, 40, base, (workload, generated) -> {
                History h = generated.history();
                boolean anomaly = !ReadAnomalies.find(h).isEmpty();
                screened.addAndGet(anomaly ? 1 : 0);
                Map<IsolationLevel, Boolean> ok = new EnumMap<>(IsolationLevel.class);
                for (IsolationLevel level : LEVELS) {
                    Verdict reference = REFERENCE.check(h, level);
                    assertThat(reference).as("reference at %s", level).isNotInstanceOf(Verdict.Unknown.class);
                    ok.put(level, reference.isSatisfied());
                    (reference.isSatisfied() ? satisfied : violated).get(level).incrementAndGet();
                    if (anomaly) {
                        assertThat(reference.isViolated()).as("screening found %s, reference at %s",
                                ReadAnomalies.find(h), level).isTrue();
                    }
                    if (reference instanceof Verdict.Satisfied s) {
                        assertThat(ReferenceChecker.explains(h, level, s.witness())).as("witness at %s", level).isTrue();
                    }
                    assertThat(PIPELINE.check(h, level).isSatisfied()).as("pipeline agrees at %s", level)
                            .isEqualTo(reference.isSatisfied());
                }
                if (ok.get(IsolationLevel.STRICT_SERIALIZABLE)) {
                    assertThat(ok.get(IsolationLevel.SERIALIZABLE)).as("strict serializable implies serializable").isTrue();
                }
                if (ok.get(IsolationLevel.SERIALIZABLE)) {
                    assertThat(ok.get(IsolationLevel.SNAPSHOT_ISOLATION)).as("serializable implies snapshot isolation").isTrue();
                }
                // With duplicate values a committed write may explain the same read, and with an
                // unknown initial state a row read may have read the initial row: only unique values
                // over a known initial state make an injected aborted or intermediate read certain.
                for (InjectedBug bug : generated.bugs()) {
                    boolean certain = workload.valueDomain() == 0 && workload.initialState() != InitialKnowledge.UNKNOWN;
                    if (certain && (bug.kind() == InjectedBug.Kind.ABORTED_READ || bug.kind() == InjectedBug.Kind.INTERMEDIATE_READ)) {
                        assertThat(anomaly).as("injected %s was screened", bug).isTrue();
                    }
                }
            });
            base += 10_000_000L;
        }
        // The runs above must have exercised both answers at every level, or they prove little.
        for (IsolationLevel level : LEVELS) {
            assertThat(violated.get(level).get()).as("violations found at %s", level).isGreaterThan(100);
            assertThat(satisfied.get(level).get()).as("histories satisfying %s", level).isGreaterThan(100);
        }
        assertThat(screened.get()).as("histories with screening anomalies").isGreaterThan(50);
    }

    /**
     * The same on histories as a recorder writes them ({@code "unknown": "any"}, most initial values
     * forgotten, {@link AnyInitialValues}), from every kind of database: the screening never flags
     * what the reference accepts, the pipeline says what the reference says, and forgetting the
     * initial state never turns a satisfied history into a violation (it only allows more).
     */
    @Test
    void screeningPipelineAndReferenceAgreeWhenUnknownInitialValuesMayBeAny() {
        Map<IsolationLevel, AtomicInteger> violated = new EnumMap<>(IsolationLevel.class);
        Map<IsolationLevel, AtomicInteger> satisfied = new EnumMap<>(IsolationLevel.class);
        for (IsolationLevel level : LEVELS) {
            violated.put(level, new AtomicInteger());
            satisfied.put(level, new AtomicInteger());
        }
        AtomicInteger screened = new AtomicInteger();
        AtomicInteger rescued = new AtomicInteger();
        List<SimulatedDatabase> databases = List.of(SimulatedDatabase.serial(), SimulatedDatabase.readCommitted(),
                SimulatedDatabase.lostUpdate(0.5), SimulatedDatabase.staleRead(0.3), SimulatedDatabase.abortedRead(0.3),
                SimulatedDatabase.intermediateRead(0.3), SimulatedDatabase.snapshotIsolation());
        long base = 4_000;
        for (SimulatedDatabase database : databases) {
            forEachVariant(database, 14, base, (workload, generated) -> {
                History recorded = AnyInitialValues.forget(generated.history(), new SplittableRandom(generated.seed()));
                try {
                    boolean anomaly = !ReadAnomalies.find(recorded).isEmpty();
                    screened.addAndGet(anomaly ? 1 : 0);
                    for (IsolationLevel level : LEVELS) {
                        Verdict reference = REFERENCE.check(recorded, level);
                        assertThat(reference).as("reference at %s", level).isNotInstanceOf(Verdict.Unknown.class);
                        (reference.isSatisfied() ? satisfied : violated).get(level).incrementAndGet();
                        if (anomaly) {
                            assertThat(reference.isViolated()).as("screening found %s, reference at %s",
                                    ReadAnomalies.find(recorded), level).isTrue();
                        }
                        boolean before = REFERENCE.check(generated.history(), level).isSatisfied();
                        if (before) {
                            assertThat(reference.isSatisfied()).as("satisfied before forgetting, at %s", level).isTrue();
                        } else if (reference.isSatisfied()) {
                            rescued.incrementAndGet();
                        }
                        assertThat(PIPELINE.check(recorded, level).isSatisfied()).as("pipeline agrees at %s", level)
                                .isEqualTo(reference.isSatisfied());
                    }
                } catch (AssertionError e) {
                    throw new AssertionError(e.getMessage() + "\nwith \"unknown\": \"any\":\n" + render(recorded), e);
                }
            });
            base += 10_000_000L;
        }
        System.out.printf("\"unknown\": \"any\": screening, pipeline vs reference at %s: %d satisfied, %d violated; %d screened,"
                + " %d verdicts violated before forgetting the initial state and satisfied after%n", LEVELS[0],
                satisfied.get(LEVELS[0]).get(), violated.get(LEVELS[0]).get(), screened.get(), rescued.get());
        for (IsolationLevel level : LEVELS) {
            assertThat(violated.get(level).get()).as("violations found at %s", level).isGreaterThan(50);
            assertThat(satisfied.get(level).get()).as("histories satisfying %s", level).isGreaterThan(50);
        }
        assertThat(screened.get()).as("histories with screening anomalies").isGreaterThan(10);
        assertThat(rescued.get()).as("violations that only the forgotten initial state made").isGreaterThan(10);
    }

    private static String render(History h) {
        StringWriter out = new StringWriter();
        try {
            new JsonlHistoryWriter().write(h, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }
}
