package dev.isocheck.internal.saturate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.format.JsonlHistoryWriter;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.UnknownInitialValues;
import dev.isocheck.internal.engine.CheckPipeline;
import dev.isocheck.internal.limit.Limits;
import dev.isocheck.internal.reference.AxiomaticReference;
import dev.isocheck.internal.reference.ReferenceChecker;
import dev.isocheck.internal.simulate.AnyInitialValues;
import dev.isocheck.internal.simulate.HistoryGenerator;
import dev.isocheck.internal.simulate.SeededRuns;
import dev.isocheck.internal.simulate.SimulatedDatabase;
import dev.isocheck.internal.simulate.Workload;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The saturation checker says what the axiomatic reference says at read committed, read atomic and
 * causal consistency, on thousands of seeded random histories (unique and duplicate values,
 * complete, unwritten and "any" initial states, aborted transactions, repeated reads), and the
 * levels nest on each: violating read committed implies violating read atomic, then causal, then
 * prefix, then snapshot isolation and serializability as the engine decides them. A failure names
 * its seed and prints the history.
 */
@DisplayName("differential: saturation vs axiomatic reference, and the hierarchy of levels")
class WeakLevelsDifferentialTests {

    private static final WeakLevel[] SATURATED = {WeakLevel.READ_COMMITTED, WeakLevel.READ_ATOMIC, WeakLevel.CAUSAL};
    private static final CheckPipeline ENGINE = new CheckPipeline();
    private static final String[] KEYS = {"x", "y", "z"};
    private static final int HISTORIES = 5_000;

    @Test
    void saturationAgreesWithTheReferenceAndTheLevelsNest() {
        Map<WeakLevel, int[]> tally = new EnumMap<>(WeakLevel.class);
        for (WeakLevel level : WeakLevel.values()) {
            tally.put(level, new int[3]);
        }
        int separatesReadCommitted = 0;
        int separatesReadAtomic = 0;
        int separatesCausal = 0;
        int ambiguous = 0;
        int prefixCompared = 0;
        SaturationChecker checker = new SaturationChecker();
        SaturationChecker readByRead = new SaturationChecker(0, ENGINE::readByRead, false);
        int readByReadPasses = 0;
        for (long seed = 1; seed <= HISTORIES; seed++) {
            History history = generate(seed);
            try {
                ReadEvents events = ReadEvents.of(history);
                for (int e = 0; e < events.eventCount(); e++) {
                    if (events.candidates(e).length > 1) {
                        ambiguous++;
                        break;
                    }
                }
                Map<WeakLevel, Optional<Boolean>> reference = new EnumMap<>(WeakLevel.class);
                for (WeakLevel level : WeakLevel.values()) {
                    Optional<Boolean> answer = AxiomaticReference.satisfies(events, level);
                    reference.put(level, answer);
                    tally.get(level)[answer.map(ok -> ok ? 0 : 1).orElse(2)]++;
                }
                for (WeakLevel level : SATURATED) {
                    SaturationChecker.Outcome outcome = checker.check(history, level, Limits.none());
                    assertThat(outcome).as("saturation at %s", level).isNotInstanceOf(SaturationChecker.Outcome.Unknown.class);
                    if (reference.get(level).isPresent()) {
                        assertThat(outcome instanceof SaturationChecker.Outcome.Satisfied)
                                .as("saturation agrees with the reference at %s: %s", level, outcome)
                                .isEqualTo(reference.get(level).get());
                    }
                    if (outcome instanceof SaturationChecker.Outcome.Satisfied satisfied) {
                        assertThat(new HashSet<>(satisfied.order())).as("witness lists every committed transaction")
                                .hasSize(history.committedCount());
                    } else {
                        assertThat(((SaturationChecker.Outcome.Violated) outcome).violation().explanation()).isNotBlank();
                    }
                }
                boolean rc = reference.get(WeakLevel.READ_COMMITTED).orElseThrow();
                if (readByRead.check(history, WeakLevel.READ_COMMITTED, Limits.none()) instanceof SaturationChecker.Outcome.Satisfied) {
                    assertThat(rc).as("a read-by-read order passes only what the reference passes at read committed").isTrue();
                    readByReadPasses++;
                }
                boolean ra = reference.get(WeakLevel.READ_ATOMIC).orElseThrow();
                boolean cc = reference.get(WeakLevel.CAUSAL).orElseThrow();
                boolean prefix = reference.get(WeakLevel.PREFIX).orElseThrow();
                Verdict prefixVerdict = ENGINE.check(history, IsolationLevel.PREFIX);
                assertThat(prefixVerdict).as("the engine decides prefix").isNotInstanceOf(Verdict.Unknown.class);
                assertThat(prefixVerdict.isSatisfied()).as("the engine agrees with the reference at prefix: %s", prefixVerdict)
                        .isEqualTo(prefix);
                // The split alone, whether or not a snapshot-isolation order stood in for it, where
                // the screening (which the split's own leaves reads of a transaction's writes out of) passes.
                if (dev.isocheck.internal.graph.ReadAnomalies.find(history).isEmpty()) {
                    assertThat(ENGINE.check(dev.isocheck.internal.engine.ReadWriteSplit.of(history).split(),
                            IsolationLevel.SERIALIZABLE).isSatisfied()).as("the split is serializable").isEqualTo(prefix);
                }
                prefixCompared++;
                boolean si = ENGINE.check(history, IsolationLevel.SNAPSHOT_ISOLATION).isSatisfied();
                boolean serializable = ENGINE.check(history, IsolationLevel.SERIALIZABLE).isSatisfied();
                assertThat(!serializable || si).as("serializable implies snapshot isolation").isTrue();
                assertThat(!si || prefix).as("snapshot isolation implies prefix").isTrue();
                assertThat(!prefix || cc).as("prefix implies causal").isTrue();
                assertThat(!cc || ra).as("causal implies read atomic").isTrue();
                assertThat(!ra || rc).as("read atomic implies read committed").isTrue();
                separatesReadCommitted += rc && !ra ? 1 : 0;
                separatesReadAtomic += ra && !cc ? 1 : 0;
                separatesCausal += cc && !prefix ? 1 : 0;
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("seed " + seed + ": " + e.getMessage() + "\n" + render(history), e);
            }
        }
        System.out.printf("weak levels, " + HISTORIES + " histories (%d with ambiguous reads): satisfied/violated/unknown %s;"
                + " RC not RA %d, RA not CC %d, CC not prefix %d%n", ambiguous,
                tally.entrySet().stream().map(e -> e.getKey().cliName() + " " + e.getValue()[0] + "/" + e.getValue()[1]
                        + "/" + e.getValue()[2]).toList(), separatesReadCommitted, separatesReadAtomic, separatesCausal);
        for (WeakLevel level : WeakLevel.values()) {
            assertThat(tally.get(level)[0]).as("histories satisfying %s", level).isGreaterThan(300);
            assertThat(tally.get(level)[1]).as("histories violating %s", level).isGreaterThan(300);
            assertThat(tally.get(level)[2]).as("histories the reference could not decide at %s", level).isZero();
        }
        assertThat(separatesReadCommitted).as("read committed but not read atomic").isGreaterThan(20);
        assertThat(separatesReadAtomic).as("read atomic but not causal").isGreaterThan(20);
        assertThat(separatesCausal).as("causal but not prefix").isPositive();
        assertThat(ambiguous).as("histories with reads of several candidate writers").isGreaterThan(500);
        assertThat(prefixCompared).as("prefix verdicts of the engine compared").isEqualTo(HISTORIES);
        System.out.printf("read by read: %d of %d histories satisfying read committed passed%n", readByReadPasses,
                tally.get(WeakLevel.READ_COMMITTED)[0]);
        assertThat(readByReadPasses).as("passes of the read-by-read order").isGreaterThan(1_000);
    }

    /**
     * On histories of simulated databases (predicate reads, partial rows, deletes, aborts, every
     * kind of initial state, recorded-style {@code "unknown": "any"} too): a serial database
     * satisfies every weak level, a snapshot-isolation one causal consistency, a read-committed one
     * read committed; the saturation says what the reference says where it decides; and the levels
     * nest up to snapshot isolation and serializability as the engine decides them.
     */
    @Test
    void simulatedDatabasesMeetTheirLevelsAndSaturationAgreesWithTheReference() {
        List<SimulatedDatabase> databases = List.of(SimulatedDatabase.serial(), SimulatedDatabase.snapshotIsolation(),
                SimulatedDatabase.readCommitted(), SimulatedDatabase.lostUpdate(0.5), SimulatedDatabase.staleRead(0.3),
                SimulatedDatabase.abortedRead(0.3), SimulatedDatabase.intermediateRead(0.3));
        SaturationChecker checker = new SaturationChecker();
        int[] compared = new int[1];
        int[] comparedPrefix = new int[1];
        int[] violatedPrefix = new int[1];
        int[] violated = new int[SATURATED.length];
        long base = 7_000;
        for (SimulatedDatabase database : databases) {
            for (int variant = 0; variant < 12; variant++) {
                Workload workload = small(variant);
                HistoryGenerator generator = new HistoryGenerator(workload, database);
                SeededRuns.forEachHistory(12, base + 1_000L * variant, generator, generated -> {
                    History generatedHistory = generated.history();
                    History recorded = AnyInitialValues.forget(generatedHistory, new SplittableRandom(generated.seed()));
                    for (History h : List.of(generatedHistory, recorded)) {
                        boolean[] ok = new boolean[SATURATED.length];
                        ReadEvents events = ReadEvents.of(h);
                        for (int i = 0; i < SATURATED.length; i++) {
                            SaturationChecker.Outcome outcome = checker.check(h, SATURATED[i], Limits.none());
                            assertThat(outcome).as("at %s", SATURATED[i]).isNotInstanceOf(SaturationChecker.Outcome.Unknown.class);
                            ok[i] = outcome instanceof SaturationChecker.Outcome.Satisfied;
                            violated[i] += ok[i] ? 0 : 1;
                            Optional<Boolean> reference = AxiomaticReference.satisfies(events, SATURATED[i]);
                            if (reference.isPresent()) {
                                compared[0]++;
                                assertThat(ok[i]).as("saturation agrees with the reference at %s", SATURATED[i])
                                        .isEqualTo(reference.get());
                            }
                        }
                        boolean si = ENGINE.check(h, IsolationLevel.SNAPSHOT_ISOLATION).isSatisfied();
                        boolean serializable = ENGINE.check(h, IsolationLevel.SERIALIZABLE).isSatisfied();
                        Verdict prefixVerdict = ENGINE.check(h, IsolationLevel.PREFIX);
                        assertThat(prefixVerdict).as("the engine decides prefix").isNotInstanceOf(Verdict.Unknown.class);
                        boolean prefix = prefixVerdict.isSatisfied();
                        violatedPrefix[0] += prefix ? 0 : 1;
                        Optional<Boolean> prefixReference = AxiomaticReference.satisfies(events, WeakLevel.PREFIX);
                        boolean predicates = h.hasCommittedPredicateReads();
                        if (prefixReference.isPresent() && !predicates) {
                            comparedPrefix[0]++;
                            assertThat(prefix).as("the engine agrees with the reference at prefix: %s", prefixVerdict)
                                    .isEqualTo(prefixReference.get());
                        } else if (predicates) {
                            // The axiomatic reference checks the rows predicate reads returned, not the
                            // ones they left out: it passes at least what the engine passes. The
                            // search over commit orders with snapshots holds them to all their rows.
                            assertThat(!prefix || prefixReference.orElse(true)).as("a pass the reference denies").isTrue();
                            Verdict byOrders = new ReferenceChecker().check(h, IsolationLevel.PREFIX);
                            if (!(byOrders instanceof Verdict.Unknown)) {
                                comparedPrefix[0]++;
                                assertThat(prefix).as("the engine agrees with the search over commit orders at prefix: %s",
                                        prefixVerdict).isEqualTo(byOrders.isSatisfied());
                            }
                        }
                        assertThat(!serializable || si).as("serializable implies snapshot isolation").isTrue();
                        assertThat(!si || prefix).as("snapshot isolation implies prefix").isTrue();
                        assertThat(!prefix || ok[2]).as("prefix implies causal").isTrue();
                        assertThat(!ok[2] || ok[1]).as("causal implies read atomic").isTrue();
                        assertThat(!ok[1] || ok[0]).as("read atomic implies read committed").isTrue();
                        if (database.injects(dev.isocheck.internal.simulate.InjectedBug.Kind.LOST_UPDATE)) {
                            // Snapshots taken at begin, writers of a common key both committing: what
                            // prefix consistency allows, lost updates and all.
                            assertThat(prefix).as("snapshots without first-committer-wins are prefix-consistent").isTrue();
                        }
                        if (generated.bugs().isEmpty()) {
                            switch (database.isolation()) {
                                case SERIAL -> assertThat(ok).as("serial database").containsOnly(true).hasSize(3);
                                case SNAPSHOT_ISOLATION -> assertThat(prefix).as("snapshot isolation database at prefix").isTrue();
                                case READ_COMMITTED -> assertThat(ok[0]).as("read committed database").isTrue();
                            }
                        }
                    }
                });
            }
            base += 1_000_000L;
        }
        System.out.printf("simulated databases: %d verdicts compared with the reference; violations at %s: %s%n", compared[0],
                List.of(SATURATED), java.util.Arrays.toString(violated));
        System.out.printf("simulated databases at prefix: %d verdicts compared with the reference, %d violations%n",
                comparedPrefix[0], violatedPrefix[0]);
        assertThat(compared[0]).isGreaterThan(1_000);
        assertThat(comparedPrefix[0]).as("prefix verdicts compared with the reference").isGreaterThan(300);
        assertThat(violatedPrefix[0]).as("histories violating prefix").isGreaterThan(30);
        assertThat(java.util.Arrays.stream(violated).min().orElseThrow()).as("fewest violations at a level").isGreaterThan(30);
    }

    /** As the engine's differential tests vary them: unique or duplicate values, every initial state, partial rows, predicates. */
    private static Workload small(int variant) {
        Workload.InitialKnowledge[] initial = Workload.InitialKnowledge.values();
        return Workload.defaults()
                .withSessions(2 + variant % 3, variant % 3 == 0 ? 4 : 2)
                .withMaxOpsPerTransaction(3 + variant % 3)
                .withKeys(2 + variant % 2, 2 + (variant / 2) % 2)
                .withValueDomain(variant % 4 == 0 ? 0 : 2 + variant % 3)
                .withInitialState(initial[variant % initial.length])
                .withPartialRows(variant % 5 != 0)
                .withAbortProbability(variant % 2 == 0 ? 0.0 : 0.15);
    }

    /**
     * A random history: 2 to 6 transactions over 1 to 3 sessions and 2 or 3 keys; every read
     * returns what some transaction's final write of the key, or the initial state, holds (now and
     * then something else), so that the levels are often, but not always, satisfied. Odd seeds
     * write unique values, even ones values from {1, 2}; the initial state cycles through complete,
     * unknown and "any".
     */
    static History generate(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        boolean unique = seed % 2 == 1;
        int initialMode = (int) (seed / 2 % 3);
        int transactions = 2 + random.nextInt(5);
        int sessions = 1 + random.nextInt(3);
        int keys = 2 + random.nextInt(2);
        // Plan: per transaction, per op: {kind (0 read, 1 write), key, value}; values of reads filled later.
        List<List<int[]>> plans = new ArrayList<>();
        int next = 10;
        for (int t = 0; t < transactions; t++) {
            List<int[]> ops = new ArrayList<>();
            int size = 1 + random.nextInt(4);
            for (int i = 0; i < size; i++) {
                boolean write = random.nextInt(5) < 2;
                int value = write ? (unique ? next++ : 1 + random.nextInt(2)) : 0;
                ops.add(new int[] {write ? 1 : 0, random.nextInt(keys), value});
            }
            plans.add(ops);
        }
        boolean[] aborted = new boolean[transactions];
        for (int t = 0; t < transactions; t++) {
            aborted[t] = random.nextInt(12) == 0;
        }
        HistoryBuilder builder = History.builder();
        if (initialMode == 0) {
            for (int k = 0; k < keys; k++) {
                builder.initialValue(KEYS[k], 0);
            }
            builder.initialStateComplete(true);
        } else if (initialMode == 2) {
            builder.unknownInitialValues(UnknownInitialValues.ANY);
        }
        for (int t = 0; t < transactions; t++) {
            HistoryBuilder.TransactionBuilder tx = builder.transaction("T" + (t + 1)).session("s" + random.nextInt(sessions));
            if (aborted[t]) {
                tx.aborted();
            }
            Integer[] own = new Integer[keys];
            for (int[] op : plans.get(t)) {
                String key = KEYS[op[1]];
                if (op[0] == 1) {
                    tx.write(key, op[2]);
                    own[op[1]] = op[2];
                    continue;
                }
                if (own[op[1]] != null && random.nextInt(8) != 0) {
                    tx.read(key, own[op[1]]);
                    continue;
                }
                Integer latest = null;
                for (int u = 0; u < t; u++) {
                    for (int[] other : plans.get(u)) {
                        if (!aborted[u] && other[0] == 1 && other[1] == op[1]) {
                            latest = other[2];
                        }
                    }
                }
                if (latest != null && random.nextBoolean()) {
                    tx.read(key, latest);
                    continue;
                }
                List<Integer> values = new ArrayList<>();
                for (int u = 0; u < transactions; u++) {
                    if (u == t) {
                        continue;
                    }
                    Integer last = null;
                    for (int[] other : plans.get(u)) {
                        if (other[0] == 1 && other[1] == op[1]) {
                            last = other[2];
                        }
                    }
                    if (last != null) {
                        values.add(last);
                    }
                }
                int pick = random.nextInt(values.size() + 2);
                if (pick < values.size()) {
                    tx.read(key, values.get(pick));
                } else if (initialMode == 0) {
                    tx.read(key, random.nextInt(10) == 0 ? 99 : 0);
                } else if (pick == values.size()) {
                    tx.readAbsent(key);
                } else {
                    tx.read(key, unique ? 7 : 1 + random.nextInt(2));
                }
            }
        }
        return builder.build();
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
