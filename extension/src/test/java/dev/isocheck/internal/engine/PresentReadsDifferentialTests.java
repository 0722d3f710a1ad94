package dev.isocheck.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.format.JsonlHistoryWriter;
import dev.isocheck.history.History;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.Transaction;
import dev.isocheck.history.Value;
import dev.isocheck.internal.graph.ReadAnomalies;
import dev.isocheck.internal.reference.ReferenceChecker;
import dev.isocheck.internal.simulate.AnyInitialValues;
import dev.isocheck.internal.simulate.GeneratedHistory;
import dev.isocheck.internal.simulate.HistoryGenerator;
import dev.isocheck.internal.simulate.SeededRuns;
import dev.isocheck.internal.simulate.SimulatedDatabase;
import dev.isocheck.internal.simulate.Workload;
import dev.isocheck.internal.simulate.Workload.InitialKnowledge;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The read of a row's key alone ({@code {"id": 2}}) that the recorder puts before an UPDATE or
 * DELETE that changed the row, when the database does not give the old row (PostgreSQL 17's log,
 * UPDATEs on H2 and HSQLDB), and the read of a key absent it puts before an INSERT: on seeded histories of simulated databases, with such a read before
 * every committed write that replaced a present row ({@link HistoryGenerator#withPresentReads()}),
 * a correct database still satisfies its levels, as recorded and with its initial state forgotten
 * as a recorder's is ({@code "unknown": "any"}), with duplicate values, rows inserted and updated
 * in one transaction, deleted and inserted again; and on every database, broken ones included, the
 * pipeline says what the reference says. A failure names its seed and prints the history.
 */
@DisplayName("differential: reads of a row's presence before the writes that changed it")
class PresentReadsDifferentialTests {

    private static final ReferenceChecker REFERENCE = new ReferenceChecker();
    private static final CheckPipeline PIPELINE = new CheckPipeline();
    private static final List<IsolationLevel> BELOW_SNAPSHOT = List.of(IsolationLevel.PREFIX, IsolationLevel.CAUSAL,
            IsolationLevel.READ_ATOMIC, IsolationLevel.READ_COMMITTED);

    /** Small enough for the reference checker; rows mostly, so that writes replace rows. */
    private static Workload small(int variant) {
        InitialKnowledge[] initial = InitialKnowledge.values();
        return Workload.defaults()
                .withSessions(2 + variant % 3, variant % 3 == 0 ? 4 : 2)
                .withMaxOpsPerTransaction(3 + variant % 3)
                .withKeys(variant % 2, 2 + (variant / 2) % 2)
                .withMix(3, 5, 2, 1)
                .withValueDomain(variant % 4 == 0 ? 0 : 2 + variant % 3)
                .withInitialState(initial[variant % initial.length])
                .withPartialRows(variant % 5 != 0)
                .withAbortProbability(variant % 2 == 0 ? 0.0 : 0.15);
    }

    /** The levels each correct simulated database guarantees. */
    private static List<IsolationLevel> guaranteed(SimulatedDatabase database) {
        return switch (database.isolation()) {
            case SERIAL -> List.of(IsolationLevel.values());
            case SNAPSHOT_ISOLATION -> concat(List.of(IsolationLevel.SNAPSHOT_ISOLATION), BELOW_SNAPSHOT);
            case READ_COMMITTED -> List.of(IsolationLevel.READ_COMMITTED);
        };
    }

    @Test
    void correctDatabasesStillSatisfyTheirLevels() {
        AtomicInteger presentReads = new AtomicInteger();
        AtomicInteger insertReads = new AtomicInteger();
        AtomicInteger external = new AtomicInteger();
        AtomicInteger histories = new AtomicInteger();
        AtomicInteger decided = new AtomicInteger();
        long base = 31_000;
        for (SimulatedDatabase database : List.of(SimulatedDatabase.serial(), SimulatedDatabase.snapshotIsolation(),
                SimulatedDatabase.readCommitted())) {
            forEachVariant(database, 30, base, (workload, generated, h) -> {
                histories.incrementAndGet();
                int[] counts = presentReads(h);
                presentReads.addAndGet(counts[0]);
                external.addAndGet(counts[1]);
                insertReads.addAndGet(counts[2]);
                if (database.isolation() != SimulatedDatabase.Isolation.READ_COMMITTED) {
                    // (The screening knows no levels, and read committed repeats no read.)
                    assertThat(ReadAnomalies.find(h)).as("screening").isEmpty();
                }
                for (IsolationLevel level : guaranteed(database)) {
                    Verdict reference = REFERENCE.check(h, level);
                    // The axiomatic reference of the weak levels stops at 7 committed transactions.
                    if (!(reference instanceof Verdict.Unknown) || !BELOW_SNAPSHOT.contains(level)) {
                        assertThat(reference).as("reference at %s", level).isInstanceOf(Verdict.Satisfied.class);
                        decided.incrementAndGet();
                    }
                    assertThat(PIPELINE.check(h, level).isSatisfied()).as("pipeline at %s", level).isTrue();
                }
            });
            base += 10_000_000L;
        }
        System.out.printf("present reads: %d histories, %d reads of a row's key before its write, %d of them"
                + " the transaction's first access of the key, %d reads of a key absent before an insert; %d verdicts"
                + " of the reference%n", histories.get(), presentReads.get(), external.get(), insertReads.get(), decided.get());
        // Or the runs prove little: most histories have such reads, many read from another transaction.
        assertThat(presentReads.get()).as("present reads").isGreaterThan(2 * histories.get());
        assertThat(external.get()).as("present reads that are first accesses").isGreaterThan(histories.get());
        assertThat(insertReads.get()).as("reads of a key absent before an insert").isGreaterThan(histories.get() / 2);
        assertThat(decided.get()).as("verdicts of the reference").isGreaterThan(3 * histories.get());
    }

    /**
     * On every kind of database the pipeline agrees with the reference with present reads; and
     * they are information: some histories of broken databases satisfy a level without them and
     * violate it with them.
     */
    @Test
    void thePipelineAgreesWithTheReferenceOnEveryKindOfDatabase() {
        AtomicInteger caught = new AtomicInteger();
        long base = 41_000;
        for (SimulatedDatabase database : List.of(SimulatedDatabase.readCommitted(), SimulatedDatabase.lostUpdate(0.5),
                SimulatedDatabase.staleRead(0.3), SimulatedDatabase.abortedRead(0.3),
                SimulatedDatabase.intermediateRead(0.3))) {
            forEachVariant(database, 12, base, (workload, generated, h) -> {
                History without = withoutPresentReads(workload, database, generated, h);
                boolean screened = !ReadAnomalies.find(h).isEmpty();
                for (IsolationLevel level : dev.isocheck.internal.saturate.WeakLevel.searchedLevels()) {
                    Verdict reference = REFERENCE.check(h, level);
                    assertThat(reference).as("reference at %s", level).isNotInstanceOf(Verdict.Unknown.class);
                    if (screened) {
                        assertThat(reference.isViolated()).as("screening found %s, reference at %s",
                                ReadAnomalies.find(h), level).isTrue();
                    }
                    assertThat(PIPELINE.check(h, level).isSatisfied()).as("pipeline agrees at %s", level)
                            .isEqualTo(reference.isSatisfied());
                    if (reference.isViolated() && REFERENCE.check(without, level).isSatisfied()) {
                        caught.incrementAndGet();
                    }
                }
            });
            base += 10_000_000L;
        }
        System.out.printf("present reads: %d verdicts of broken databases violated only with them%n", caught.get());
        assertThat(caught.get()).as("violations only present reads show").isPositive();
    }

    /** A check of one history, with present reads, as generated or with its initial state forgotten. */
    @FunctionalInterface
    private interface Check {
        void accept(Workload workload, GeneratedHistory generated, History history);
    }

    private static void forEachVariant(SimulatedDatabase database, int historiesPerVariant, long baseSeed, Check check) {
        for (int variant = 0; variant < 12; variant++) {
            Workload workload = small(variant);
            HistoryGenerator generator = new HistoryGenerator(workload, database).withPresentReads();
            SeededRuns.forEachHistory(historiesPerVariant, baseSeed + 100_000L * variant, generator, generated -> {
                History recorded = AnyInitialValues.forget(generated.history(), new SplittableRandom(generated.seed()));
                for (History h : List.of(generated.history(), recorded)) {
                    try {
                        check.accept(workload, generated, h);
                    } catch (AssertionError e) {
                        throw new AssertionError(e.getMessage() + "\n" + render(h), e);
                    }
                }
            });
        }
    }

    /** The same run without present reads, its initial state forgotten as {@code h}'s was, if it was. */
    private static History withoutPresentReads(Workload workload, SimulatedDatabase database, GeneratedHistory generated,
                                               History h) {
        History plain = new HistoryGenerator(workload, database).generate(generated.seed()).history();
        return h == generated.history() ? plain : AnyInitialValues.forget(plain, new SplittableRandom(generated.seed()));
    }

    /** How many reads of a row's key alone the history has, and how many of them are first accesses. */
    private static int[] presentReads(History h) {
        int[] counts = new int[3];
        for (Transaction t : h.transactions()) {
            for (int i = 0; i < t.size(); i++) {
                if (t.kind(i) == OpKind.READ && isKeyOnly(h.values().get(t.value(i)))) {
                    counts[0]++;
                    counts[1] += t.isExternalRead(i) ? 1 : 0;
                }
                // An INSERT's read of its key absent, just before it writes a row there.
                if (t.kind(i) == OpKind.READ && t.value(i) == dev.isocheck.history.ValueTable.ABSENT && i + 1 < t.size()
                        && t.kind(i + 1) == OpKind.WRITE && t.key(i + 1) == t.key(i)
                        && t.value(i + 1) != dev.isocheck.history.ValueTable.ABSENT) {
                    counts[2]++;
                }
            }
        }
        return counts;
    }

    private static boolean isKeyOnly(Value value) {
        return value != null && value.isObject() && value.fields().keySet().equals(java.util.Set.of("id"));
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
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
