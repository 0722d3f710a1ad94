package dev.isocheck.internal.explain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.explain.Assumption;
import dev.isocheck.explain.OperationRef;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.Transaction;
import dev.isocheck.internal.engine.CheckPipeline;
import dev.isocheck.internal.graph.ReadAnomalies;
import dev.isocheck.internal.graph.ReadPins;
import dev.isocheck.internal.saturate.WeakLevel;
import dev.isocheck.internal.simulate.HistoryGenerator;
import dev.isocheck.internal.simulate.SeededRuns;
import dev.isocheck.internal.simulate.SimulatedDatabase;
import dev.isocheck.internal.simulate.SmallWorkloads;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The engine solving under assumed sources of reads ({@link ReadPins}), on restrictions of a
 * history that keep a read whenever its assumed source is kept ({@link ViolatingCore#restrict}),
 * item reads, rows predicate reads returned and keys they left out alike: whenever it answers
 * "violated", no explanation of the whole history in which the assumptions hold is free of a
 * forbidden cycle, by the brute-force enumeration of every explanation.
 */
@DisplayName("solving under assumed sources: a violation under pins is one in every explanation where they hold")
class SolvingUnderPinsTests {

    private static final CheckPipeline PIPELINE = new CheckPipeline();
    private static final long MAX_EXPLANATIONS = 20_000;

    /** T3 read x = 1, which T1 and T2 both wrote; only with T2's does a cycle form (T3 did not see T2's z). */
    private static History twoWritersOfOneValue() {
        HistoryBuilder b = History.builder().initialValue("x", 0).initialValue("y", 0).initialValue("z", 0)
                .initialStateComplete(true);
        b.transaction("T1").session("a").write("x", 1);
        b.transaction("T2").session("b").write("x", 1).write("z", 1);
        b.transaction("T3").session("c").read("x", 1).read("z", 0);
        return b.build();
    }

    @Test
    void aPinnedReadSeesOnlyItsSource() {
        History history = twoWritersOfOneValue();
        PinnableReads reads = PinnableReads.of(history);
        int t3 = history.transaction("T3").orElseThrow().index();
        int read = reads.explanations().firstOf(t3);
        int t1 = history.transaction("T1").orElseThrow().index();
        int t2 = history.transaction("T2").orElseThrow().index();
        int[] all = {t1, t2, t3};
        for (IsolationLevel level : List.of(IsolationLevel.SERIALIZABLE, IsolationLevel.SNAPSHOT_ISOLATION)) {
            assertThat(PIPELINE.check(history, level)).as("%s", level).isInstanceOf(Verdict.Satisfied.class);
            assertThat(ViolatingCore.violated(level, PIPELINE, reads, all, Map.of(read, t2), new HashMap<>(), Long.MAX_VALUE))
                    .as("T3 saw T2's x at %s", level).isTrue();
            assertThat(ViolatingCore.violated(level, PIPELINE, reads, all, Map.of(read, t1), new HashMap<>(), Long.MAX_VALUE))
                    .as("T3 saw T1's x at %s", level).isFalse();
            // Without T1, T3's read is kept only on the strength of its pin.
            assertThat(ViolatingCore.violated(level, PIPELINE, reads, new int[] {t2, t3}, Map.of(read, t2), new HashMap<>(),
                    Long.MAX_VALUE)).as("without T1 at %s", level).isTrue();
            assertThat(ViolatingCore.violated(level, PIPELINE, reads, new int[] {t2, t3}, Map.of(), new HashMap<>(),
                    Long.MAX_VALUE)).as("without T1 or a pin at %s", level).isFalse();
        }
    }

    @Test
    void aViolationUnderPinsHoldsInEveryExplanationWhereTheyDo() {
        int[] tally = new int[5];
        List<SimulatedDatabase> databases = List.of(SimulatedDatabase.snapshotIsolation(), SimulatedDatabase.readCommitted(),
                SimulatedDatabase.lostUpdate(0.5), SimulatedDatabase.staleRead(0.3));
        long base = 9_300_000L;
        for (SimulatedDatabase database : databases) {
            for (int variant = 1; variant < 24; variant++) {
                if (variant % 4 == 0) {
                    continue; // unique values: every read has one source
                }
                HistoryGenerator generator = new HistoryGenerator(SmallWorkloads.variant(variant), database);
                SeededRuns.forEachHistory(2, base + 1_000L * variant, generator,
                        generated -> check(generated.history(), new Random(generated.seed()), tally));
            }
            base += 100_000L;
        }
        System.out.printf("solving under pins: %d restrictions violated only under their pins, %d violated without,"
                + " %d not violated; violated under a pin of a row a predicate read returned: %d, of a key it left out: %d%n",
                tally[0], tally[1], tally[2], tally[3], tally[4]);
        assertThat(tally[0]).as("restrictions that only their pins make violated").isGreaterThan(20);
        assertThat(tally[3]).as("violated under a pin of a returned row").isPositive();
        assertThat(tally[4]).as("violated under a pin of a key left out").isPositive();
    }

    private static void check(History history, Random random, int[] tally) {
        if (!ReadAnomalies.find(history).isEmpty()) {
            return;
        }
        PinnableReads reads = PinnableReads.of(history);
        List<Integer> choices = new ArrayList<>();
        for (int id = 0; id < reads.size(); id++) {
            if (reads.sources(id).length > 1) {
                choices.add(id);
            }
        }
        if (choices.isEmpty()) {
            return;
        }
        int[] committed = history.transactions().stream().filter(Transaction::isCommitted).mapToInt(Transaction::index)
                .toArray();
        for (IsolationLevel level : WeakLevel.searchedLevels()) {
            BruteForceExplanations brute = new BruteForceExplanations(history, level);
            if (brute.contradiction() || brute.count() > MAX_EXPLANATIONS) {
                continue;
            }
            for (int trial = 0; trial < 6; trial++) {
                Map<Integer, Integer> pins = new HashMap<>();
                int count = 1 + random.nextInt(Math.min(3, choices.size()));
                for (int i = 0; i < count; i++) {
                    int id = choices.get(random.nextInt(choices.size()));
                    int[] sources = reads.sources(id);
                    pins.put(id, sources[random.nextInt(sources.length)]);
                }
                int[] kept = trial % 2 == 0 ? committed : subset(committed, random);
                String what = level + " " + describe(history, reads, pins) + " kept " + ViolatingCore.ids(history, kept);
                if (!ViolatingCore.violated(level, PIPELINE, reads, kept, pins, new HashMap<>(), Long.MAX_VALUE)) {
                    tally[2]++;
                    continue;
                }
                List<Assumption> assumptions = assumptions(history, reads, pins);
                brute.forEach(choice -> {
                    if (brute.holds(assumptions, choice)) {
                        assertThat(brute.shortestForbidden(brute.edges(choice)))
                                .as("%s: violated under the pins, but this explanation has no forbidden cycle: %s", what, choice)
                                .isNotEqualTo(BruteForceExplanations.NONE);
                    }
                });
                tally[3] += pins.keySet().stream().anyMatch(id -> reads.row(id) >= 0) ? 1 : 0;
                tally[4] += pins.keySet().stream().anyMatch(reads::isUnreturned) ? 1 : 0;
                boolean plain = ViolatingCore.violated(level, PIPELINE, reads, kept, Map.of(), new HashMap<>(), Long.MAX_VALUE);
                tally[plain ? 1 : 0]++;
            }
        }
    }

    private static int[] subset(int[] committed, Random random) {
        List<Integer> out = new ArrayList<>();
        for (int t : committed) {
            if (random.nextInt(3) > 0) {
                out.add(t);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The pins as the case analysis states them, for the enumeration to judge. */
    private static List<Assumption> assumptions(History history, PinnableReads reads, Map<Integer, Integer> pins) {
        List<Assumption> out = new ArrayList<>();
        pins.forEach((id, source) -> {
            Transaction reader = history.transaction(reads.transaction(id));
            OperationRef read = reads.isUnreturned(id) ? Narration.unreturned(history, reader, reads.operation(id), reads.key(id))
                    : Narration.operation(history, reader, reads.operation(id), reads.row(id));
            Optional<String> writer = source == ExplanationSpace.INITIAL ? Optional.empty()
                    : Optional.of(history.transaction(source).id());
            out.add(new Assumption.ReadFrom(read, history.keys().name(reads.key(id)), writer, true, "pinned"));
        });
        return out;
    }

    private static String describe(History history, PinnableReads reads, Map<Integer, Integer> pins) {
        List<String> out = new ArrayList<>();
        pins.forEach((id, source) -> out.add(history.transaction(reads.transaction(id)).id() + "/op" + reads.operation(id) + "/"
                + history.keys().name(reads.key(id)) + (reads.isUnreturned(id) ? " (left out)" : "") + " <- "
                + (source == ExplanationSpace.INITIAL ? "initial" : history.transaction(source).id())));
        return String.join(", ", out);
    }
}
