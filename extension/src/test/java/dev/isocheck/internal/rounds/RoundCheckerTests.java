package dev.isocheck.internal.rounds;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.CheckResult;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.explain.Explanation;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.Transaction;
import dev.isocheck.internal.engine.CheckPipeline;
import dev.isocheck.internal.simulate.AnyInitialValues;
import dev.isocheck.internal.simulate.HistoryGenerator;
import dev.isocheck.internal.simulate.SeededRuns;
import dev.isocheck.internal.simulate.SimulatedDatabase;
import dev.isocheck.internal.simulate.Workload;
import dev.isocheck.internal.simulate.Workload.InitialKnowledge;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A history checked in rounds gets the verdict the same history gets checked whole, at strict
 * serializability, on thousands of seeded histories from every kind of simulated database, cut into
 * rounds at random places (violations near the cuts included), with watermarks from the tightest
 * promise the history keeps to looser ones. A failure names its seed and prints the history.
 */
@DisplayName("rounds: the same verdict as the whole history")
class RoundCheckerTests {

    private static final CheckPipeline PIPELINE = new CheckPipeline();
    private static final IsolationLevel STRICT = IsolationLevel.STRICT_SERIALIZABLE;
    private static final AtomicInteger MISSED_WHEN_WEAKENED = new AtomicInteger();

    /** The pipeline's verdict, with a stand-in explanation (these tests compare verdicts). */
    static final BiFunction<History, IsolationLevel, CheckResult> CHECK = (h, level) -> {
        Verdict v = PIPELINE.check(h, level);
        Optional<Explanation> e = v.isViolated() ? Optional.of(new Explanation.Unexplained(level, "not explained here"))
                : Optional.empty();
        return new CheckResult(v, e, Duration.ZERO, Duration.ZERO);
    };

    private static Workload workload(int variant) {
        InitialKnowledge[] initial = InitialKnowledge.values();
        return Workload.defaults()
                .withSessions(2 + variant % 4, 6 + variant % 5 * 3)
                .withMaxOpsPerTransaction(2 + variant % 4)
                .withKeys(2 + variant % 3, 1 + (variant / 2) % 3)
                .withMix(3, 3, 1, 0)
                .withValueDomain(variant % 3 == 0 ? 0 : 2 + variant % 3)
                .withInitialState(initial[variant % initial.length])
                .withPartialRows(variant % 5 != 0)
                .withAbortProbability(variant % 2 == 0 ? 0.0 : 0.15)
                .withRecordTimes(true);
    }

    /**
     * Checks {@code h} in rounds of random sizes; each watermark is the earliest start of every
     * transaction after the round, less a random slack (0 on every other history: the tightest).
     */
    static CheckResult inRounds(History h, long seed, RoundChecker rounds) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Transaction> all = h.transactions();
        int n = all.size();
        long[] laterStart = new long[n + 1];
        laterStart[n] = Long.MAX_VALUE;
        for (int i = n - 1; i >= 0; i--) {
            laterStart[i] = Math.min(laterStart[i + 1], all.get(i).startTime());
        }
        boolean tight = seed % 2 == 0;
        int from = 0;
        while (from < n) {
            int to = Math.min(n, from + 1 + random.nextInt(1 + random.nextInt(12)));
            int[] batch = new int[to - from];
            for (int i = 0; i < batch.length; i++) {
                batch[i] = from + i;
            }
            long watermark = laterStart[to];
            if (!tight && watermark != Long.MAX_VALUE) {
                watermark -= random.nextInt(8);
            }
            rounds.round(h.restrictedTo(batch, (t, op) -> true), watermark);
            from = to;
        }
        return rounds.finish();
    }

    private static void agree(SimulatedDatabase database, int perVariant, long base, AtomicInteger violated,
            AtomicInteger satisfied, AtomicInteger folded, AtomicInteger weakened) {
        for (int variant = 0; variant < 12; variant++) {
            HistoryGenerator generator = new HistoryGenerator(workload(variant), database);
            SeededRuns.forEachHistory(perVariant, base + 100_000L * variant, generator, generated -> {
                History h = generated.history();
                if (generated.seed() % 3 == 0) {
                    // As a recorder writes it: unknown initial values that may be any value.
                    h = AnyInitialValues.forget(h, new SplittableRandom(generated.seed()));
                }
                Verdict whole = PIPELINE.check(h, STRICT);
                if (whole instanceof Verdict.Unknown) {
                    return;
                }
                RoundChecker rounds = new RoundChecker(STRICT, CHECK);
                CheckResult result = inRounds(h, generated.seed(), rounds);
                assertThat(result.verdict().isViolated()).as("violated in rounds (%s) as whole (%s); %s",
                        result.verdict(), whole, rounds.stats()).isEqualTo(whole.isViolated());
                assertThat(result.verdict().isSatisfied()).as("satisfied in rounds: %s", result.verdict())
                        .isEqualTo(whole.isSatisfied());
                (whole.isViolated() ? violated : satisfied).incrementAndGet();
                // Held to a few transactions, the rounds fold undecided keys too: never a false
                // violation, and where they say nothing was let go, still the whole's verdict.
                RoundChecker tight = new RoundChecker(STRICT, CHECK, 1 + (int) (generated.seed() % 4));
                CheckResult weak = inRounds(h, generated.seed(), tight);
                if (weak.verdict().isViolated()) {
                    assertThat(whole.isViolated()).as("a violation held tight (%s), none whole", weak.verdict()).isTrue();
                }
                if (weak.caveats().isEmpty()) {
                    assertThat(weak.verdict().isViolated()).as("held tight, nothing let go: %s", weak.verdict())
                            .isEqualTo(whole.isViolated());
                } else {
                    weakened.incrementAndGet();
                    if (whole.isViolated() && !weak.verdict().isViolated()) {
                        MISSED_WHEN_WEAKENED.incrementAndGet();
                    }
                }
                if (rounds.stats().peakHeld() < h.size()) {
                    folded.incrementAndGet();
                }
            });
        }
    }

    @Test
    void roundsDecideWhatTheWholeHistoryDecidesOnEveryKindOfDatabase() {
        AtomicInteger violated = new AtomicInteger();
        AtomicInteger satisfied = new AtomicInteger();
        AtomicInteger folded = new AtomicInteger();
        AtomicInteger weakened = new AtomicInteger();
        List<SimulatedDatabase> databases = List.of(SimulatedDatabase.serial(), SimulatedDatabase.lostUpdate(0.3),
                SimulatedDatabase.staleRead(0.2), SimulatedDatabase.abortedRead(0.2), SimulatedDatabase.intermediateRead(0.2),
                SimulatedDatabase.snapshotIsolation(), SimulatedDatabase.readCommitted());
        long base = 7_000;
        for (SimulatedDatabase database : databases) {
            agree(database, 40, base, violated, satisfied, folded, weakened);
            base += 10_000_000L;
        }
        System.out.println("rounds: violated " + violated + ", satisfied " + satisfied + ", folded " + folded
                + ", weakened when held tight " + weakened + " (of which violations missed " + MISSED_WHEN_WEAKENED + ")");
        assertThat(violated.get()).as("violations").isGreaterThan(500);
        assertThat(satisfied.get()).as("satisfied histories").isGreaterThan(500);
        assertThat(folded.get()).as("histories whose rounds held fewer transactions than the whole").isGreaterThan(1000);
        assertThat(weakened.get()).as("histories whose rounds, held tight, let an undecided key go").isGreaterThan(50);
    }

    /**
     * At a weaker level the rounds decide a violation only from transactions whose reads nothing
     * forgotten or later could have given their values: never a violation the whole history does
     * not have (stale reads at serializability, write skew at snapshot isolation and lost updates at
     * read committed are violations of strict serializability only), and the whole's satisfied
     * verdict wherever the history is strictly serializable. Held to a few transactions (stubs and
     * forgotten writes on almost every read) as well as loosely. {@code -Disocheck.weakerRuns=N}
     * runs N histories per database and workload (12 by default).
     */
    @Test
    void atAWeakerLevelAViolationFoundInRoundsIsOneOfTheWholeHistory() {
        List<SimulatedDatabase> databases = List.of(SimulatedDatabase.serial(), SimulatedDatabase.lostUpdate(0.3),
                SimulatedDatabase.staleRead(0.2), SimulatedDatabase.abortedRead(0.2), SimulatedDatabase.intermediateRead(0.2),
                SimulatedDatabase.snapshotIsolation(), SimulatedDatabase.readCommitted());
        IsolationLevel[] levels = {IsolationLevel.SERIALIZABLE, IsolationLevel.SNAPSHOT_ISOLATION, IsolationLevel.READ_COMMITTED,
            IsolationLevel.CAUSAL};
        int[] counts = new int[4];
        long base = 91_000;
        for (SimulatedDatabase database : databases) {
            for (int variant = 0; variant < 12; variant++) {
                HistoryGenerator generator = new HistoryGenerator(workload(variant), database);
                SeededRuns.forEachHistory(Integer.getInteger("isocheck.weakerRuns", 12), base + 100_000L * variant, generator, generated -> {
                    History h = generated.history();
                    if (generated.seed() % 3 == 0) {
                        h = AnyInitialValues.forget(h, new SplittableRandom(generated.seed()));
                    }
                    IsolationLevel level = levels[(int) (generated.seed() % levels.length)];
                    Verdict whole = PIPELINE.check(h, level);
                    Verdict strict = PIPELINE.check(h, STRICT);
                    if (whole instanceof Verdict.Unknown || strict instanceof Verdict.Unknown) {
                        return;
                    }
                    for (int held : new int[] {RoundChecker.DEFAULT_MAX_HELD, 1 + (int) (generated.seed() % 4)}) {
                        RoundChecker rounds = new RoundChecker(level, CHECK, held);
                        CheckResult result = inRounds(h, generated.seed(), rounds);
                        if (result.verdict().isViolated()) {
                            assertThat(whole.isViolated()).as("violated at %s in rounds (held %d), not whole: %s; %s", level,
                                    held, result.verdict(), rounds.stats()).isTrue();
                            assertThat(rounds.violation()).isPresent();
                            assertThat(PIPELINE.check(rounds.violation().get().checked(), level).isViolated())
                                    .as("the history the rounds give shows the violation alone").isTrue();
                        }
                        if (strict.isSatisfied() && held == RoundChecker.DEFAULT_MAX_HELD) {
                            assertThat(result.verdict().isSatisfied()).as("satisfied at %s in rounds: %s", level,
                                    result.verdict()).isTrue();
                        }
                        if (held == RoundChecker.DEFAULT_MAX_HELD) {
                            counts[whole.isViolated() ? result.verdict().isViolated() ? 0 : 1
                                    : strict.isViolated() ? 2 : 3]++;
                        }
                    }
                });
            }
            base += 10_000_000L;
        }
        System.out.println("rounds at weaker levels: violated and found " + counts[0] + ", violated but undecided "
                + counts[1] + ", only strictly violated (undecided) " + counts[2] + ", satisfied " + counts[3]);
        // Not all: a violation whose transactions a fold took before another round found it is beyond them.
        assertThat(counts[0]).as("violations of the weaker level found in rounds").isGreaterThan((counts[0] + counts[1]) / 4);
        assertThat(counts[2]).as("histories violating strict serializability only").isGreaterThan(50);
    }

    /** {@code h} checked at {@code level} in the batches {@code cuts} ends (indexes), each with the next batch's first start as watermark. */
    private static RoundChecker atLevelCutAt(IsolationLevel level, History h, int... cuts) {
        RoundChecker rounds = new RoundChecker(level, dev.isocheck.Isocheck::check);
        int from = 0;
        for (int i = 0; i <= cuts.length; i++) {
            int to = i < cuts.length ? cuts[i] : h.size();
            int[] batch = java.util.stream.IntStream.range(from, to).toArray();
            rounds.round(h.restrictedTo(batch, (t, op) -> true), to < h.size() ? h.transaction(to).startTime() : Long.MAX_VALUE);
            from = to;
        }
        return rounds;
    }

    /** x = 1 written by T0, then two transactions that both read it and write x: a lost update, T0 folded away before. */
    private static HistoryBuilder lostUpdateAfterAFold() {
        HistoryBuilder b = History.builder().initialStateComplete(true).initialValue("x", 0);
        b.transaction("T0").times(10, 15).read("x", 0).write("x", 1);
        b.transaction("T1").times(20, 40).read("x", 1).write("x", 2);
        b.transaction("T2").times(25, 45).read("x", 1).write("x", 3);
        return b;
    }

    @Test
    void atSerializableALostUpdateWhoseReadsNothingElseExplainsIsAViolationOfIt() {
        HistoryBuilder b = lostUpdateAfterAFold();
        b.transaction("T3").times(50, 60).read("x", 3).write("x", 4);
        History h = b.build();
        RoundChecker rounds = atLevelCutAt(IsolationLevel.SERIALIZABLE, h, 1, 3);
        CheckResult result = rounds.finish();
        assertThat(result.verdict().isViolated()).as("%s", result.verdict()).isTrue();
        assertThat(result.verdict().level()).isEqualTo(IsolationLevel.SERIALIZABLE);
        assertThat(result.explanationText().orElseThrow()).contains("lost update", "T1", "T2");
        // The violation's transactions and the stub of the write both read: not the round's.
        assertThat(rounds.violation().orElseThrow().checked().transactions()).extracting(Transaction::id)
                .containsExactly("T0", "T1", "T2");
    }

    /** A later transaction writes x = 1 again: T2 may have read it (serializability ignores real time), and a serial order exists. */
    @Test
    void aLaterWriteOfTheValueReadLeavesTheViolationUndecided() {
        HistoryBuilder b = lostUpdateAfterAFold();
        b.transaction("T3").times(50, 60).read("x", 3).write("x", 1);
        History h = b.build();
        assertThat(PIPELINE.check(h, IsolationLevel.SERIALIZABLE).isSatisfied()).isTrue();
        CheckResult result = atLevelCutAt(IsolationLevel.SERIALIZABLE, h, 1, 3).finish();
        assertThat(result.verdict()).isInstanceOf(Verdict.Unknown.class);
        assertThat(((Verdict.Unknown) result.verdict()).reason()).contains("not strictly serializable", "none did");
    }

    /**
     * An earlier transaction, folded and overwritten, wrote x = 1 too: T2 may have read that one
     * (serial order Ta, T2, Tb, T0, T1), so the lost update is one of strict serializability only.
     */
    @Test
    void aForgottenWriteOfTheValueReadLeavesTheViolationUndecided() {
        HistoryBuilder b = History.builder().initialStateComplete(true).initialValue("x", 0);
        b.transaction("Ta").times(0, 5).write("x", 1);
        b.transaction("Tb").times(6, 9).write("x", 5);
        b.transaction("T0").times(10, 15).read("x", 5).write("x", 1);
        b.transaction("T1").times(20, 40).read("x", 1).write("x", 2);
        b.transaction("T2").times(25, 45).read("x", 1).write("x", 3);
        History h = b.build();
        assertThat(PIPELINE.check(h, IsolationLevel.SERIALIZABLE).isSatisfied()).isTrue();
        assertThat(PIPELINE.check(h, STRICT).isViolated()).isTrue();
        CheckResult result = atLevelCutAt(IsolationLevel.SERIALIZABLE, h, 3).finish();
        assertThat(result.verdict()).as("%s", result.verdict()).isInstanceOf(Verdict.Unknown.class);
    }

    private static CheckResult inTwoRounds(History h, int firstRound, long watermark) {
        RoundChecker rounds = new RoundChecker(STRICT, CHECK);
        int[] first = new int[firstRound];
        int[] rest = new int[h.size() - firstRound];
        for (int i = 0; i < h.size(); i++) {
            if (i < firstRound) {
                first[i] = i;
            } else {
                rest[i - firstRound] = i;
            }
        }
        rounds.round(h.restrictedTo(first, (t, op) -> true), watermark);
        rounds.round(h.restrictedTo(rest, (t, op) -> true), Long.MAX_VALUE);
        return rounds.finish();
    }

    /**
     * An unknown initial value is one no transaction writes, aborted ones included: a later read of
     * a value only an aborted transaction wrote reads aborted data, even once that transaction is
     * folded away.
     */
    @Test
    void aValueAnAbortedTransactionWroteIsNoUnknownInitialValueInLaterRounds() {
        HistoryBuilder b = History.builder();
        b.transaction("T1").aborted().times(0, 1).write("x", 5);
        b.transaction("T2").times(2, 3).write("y", 1);
        b.transaction("T3").times(10, 11).read("x", 5);
        History h = b.build();
        assertThat(PIPELINE.check(h, STRICT).isViolated()).isTrue();
        assertThat(inTwoRounds(h, 2, 5).verdict().isViolated()).isTrue();
    }

    /**
     * Session order binds where real time does not (one transaction starting at the tick the one
     * before it in its session ended): a transaction after a kept one in its session is kept.
     */
    @Test
    void aTransactionAfterAKeptOneOfItsSessionIsKept() {
        HistoryBuilder b = History.builder().initialValue("x", 0).initialValue("y", 0).initialStateComplete(true);
        b.transaction("A").session("s1").times(0, 10).write("x", 1);
        b.transaction("C").session("s2").times(0, 10).write("x", 2);
        b.transaction("B").session("s1").times(10, 20).write("y", 1);
        b.transaction("E").session("s3").times(5, 30).read("y", 1).read("x", 2);
        b.transaction("F").session("s4").times(40, 50).read("x", 1);
        History h = b.build();
        // A precedes B (session), B precedes E (E read y from it), so A precedes C (E read x from C
        // after it): x ends at 2, and F reads 1.
        assertThat(PIPELINE.check(h, STRICT).isViolated()).isTrue();
        assertThat(inTwoRounds(h, 4, 35).verdict().isViolated()).isTrue();
    }

    /**
     * A round's explanation says what rules the initial value out of a read, as the whole check's
     * does: the read of it that an earlier round folded away stays with the stub of its key.
     */
    @Test
    void anExplanationRulesOutTheInitialValueAsTheWholeChecksDoes() {
        HistoryBuilder b = History.builder().unknownInitialValues(dev.isocheck.history.UnknownInitialValues.ANY);
        b.transaction("T1").session("s1").times(0, 10).read("x", 0).write("x", 1);
        b.transaction("T2").session("s2").times(20, 30).write("y", 1);
        b.transaction("T3").session("s1").times(100, 130).read("x", 1).write("x", 2);
        b.transaction("T4").session("s3").times(105, 140).read("x", 1).write("x", 2);
        History h = b.build();
        BiFunction<History, IsolationLevel, CheckResult> explained = dev.isocheck.Isocheck::check;
        String whole = explained.apply(h, STRICT).explanationText().orElseThrow();
        RoundChecker rounds = new RoundChecker(STRICT, explained);
        List<RoundChecker.Found> found = new java.util.ArrayList<>();
        rounds.onViolation(found::add);
        rounds.round(h.restrictedTo(new int[] {0, 1}, (t, op) -> true), 100);
        rounds.round(h.restrictedTo(new int[] {2, 3}, (t, op) -> true), Long.MAX_VALUE);
        assertThat(found).hasSize(1);
        String inRounds = found.get(0).result().explanationText().orElseThrow();
        String why = "T3 read x = 1, which T1 wrote (not x's initial value, which T1 read";
        assertThat(whole).contains(why);
        assertThat(inRounds).contains(why).doesNotContain("the initial value, or the version T1 wrote");
    }

    /** A long serial run is held a round or so at a time: a stub per key and the round's transactions. */
    @Test
    void aLongRunIsHeldARoundAtATime() {
        Workload long_ = Workload.defaults().withSessions(4, 1_000).withMix(3, 3, 1, 0).withRecordTimes(true)
                .withInitialState(InitialKnowledge.UNKNOWN);
        History h = new HistoryGenerator(long_, SimulatedDatabase.serial()).generate(1).history();
        RoundChecker rounds = new RoundChecker(STRICT, CHECK);
        long[] laterStart = new long[h.size() + 1];
        laterStart[h.size()] = Long.MAX_VALUE;
        for (int i = h.size() - 1; i >= 0; i--) {
            laterStart[i] = Math.min(laterStart[i + 1], h.transaction(i).startTime());
        }
        for (int from = 0; from < h.size(); from += 100) {
            int to = Math.min(h.size(), from + 100);
            int[] batch = java.util.stream.IntStream.range(from, to).toArray();
            rounds.round(h.restrictedTo(batch, (t, op) -> true), laterStart[to]);
        }
        assertThat(rounds.finish().verdict().isSatisfied()).isTrue();
        RoundChecker.Stats stats = rounds.stats();
        assertThat(stats.transactions()).isEqualTo(4_000);
        assertThat(stats.peakHeld()).as("%s", stats).isLessThan(100 + 20 + h.keys().size() * 2);
    }

    @Test
    void aTransactionStartingBeforeAnEarlierWatermarkIsBadInputNamed() {
        HistoryBuilder b = History.builder();
        b.transaction("T1").times(0, 10).write("x", 1);
        b.transaction("T2").times(3, 12).write("x", 2);
        History h = b.build();
        RoundChecker rounds = new RoundChecker(STRICT, CHECK);
        rounds.round(h.restrictedTo(new int[] {0}, (t, op) -> true), 5);
        assertThatThrownBy(() -> rounds.round(h.restrictedTo(new int[] {1}, (t, op) -> true), 20))
                .isInstanceOf(RoundInputException.class)
                .hasMessageContaining("transaction T2 starts at 3, before 5");
    }

    @Test
    void aTransactionWithoutTimesIsBadInputNamed() {
        HistoryBuilder b = History.builder();
        b.transaction("T1").write("x", 1);
        assertThatThrownBy(() -> new RoundChecker(STRICT, CHECK).round(b.build(), 5))
                .isInstanceOf(RoundInputException.class)
                .hasMessageContaining("transaction T1 has no start time");
    }

    /**
     * An aborted transaction is in no order: session order to it and real time from it (or the
     * other way round) say nothing of the committed transactions around it. Found by review: the
     * known order chained through it and folded a transaction as if it preceded one it need not.
     */
    @Test
    void noKnownOrderPassesThroughAnAbortedTransaction() {
        for (long[] abortedTimes : new long[][] {{1, 2}, {11, 12}}) {
            boolean sessionToIt = abortedTimes[0] == 1;
            HistoryBuilder b = History.builder().initialValue("x", 0).initialStateComplete(true);
            b.transaction("d").session(sessionToIt ? "s" : "s1").times(0, 10).write("x", 1);
            b.transaction("X").session("s").aborted().times(abortedTimes[0], abortedTimes[1]).write("z", 9);
            b.transaction("k").session(sessionToIt ? "s2" : "s").times(5, 20).write("x", 2);
            b.transaction("r").session("s3").times(30, 31).read("x", 1);
            History h = b.build();
            assertThat(PIPELINE.check(h, STRICT).isSatisfied()).isTrue();
            assertThat(inTwoRounds(h, 3, 15).verdict().isSatisfied()).as("aborted at %s", abortedTimes[0]).isTrue();
        }
    }

    /** An initial value is declared before the first transaction touching its key, not in a later batch. */
    @Test
    void anInitialValueDeclaredAfterItsKeyWasTouchedIsBadInputNamed() {
        HistoryBuilder first = History.builder().initialValue("y", 0).initialStateComplete(true);
        first.transaction("T1").times(0, 1).read("x", 5);
        first.transaction("T0").times(2, 3).write("x", 5);
        HistoryBuilder second = History.builder().initialValue("y", 0).initialValue("x", 5).initialStateComplete(true);
        second.transaction("T2").times(10, 11).read("x", 5).write("y", 1);
        RoundChecker rounds = new RoundChecker(STRICT, CHECK);
        rounds.round(first.build(), 5);
        assertThatThrownBy(() -> rounds.round(second.build(), Long.MAX_VALUE))
                .isInstanceOf(RoundInputException.class)
                .hasMessageContaining("declares the initial value of x, which transactions of earlier batches touched");
    }
}
