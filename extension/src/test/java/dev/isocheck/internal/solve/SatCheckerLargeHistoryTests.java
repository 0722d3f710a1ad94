package dev.isocheck.internal.solve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.PredicateRead;
import dev.isocheck.history.Transaction;
import dev.isocheck.internal.simulate.HistoryGenerator;
import dev.isocheck.internal.simulate.SimulatedDatabase;
import dev.isocheck.internal.simulate.Workload;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Histories far beyond the reference checker, whose verdict is known by construction: a serial
 * database's history satisfies every level (and the witness replays); the same history with a
 * write skew appended on fresh keys violates serializability but not snapshot isolation, and with a
 * lost update violates every level.
 */
class SatCheckerLargeHistoryTests {

    private static final SatChecker ENGINE = new SatChecker();
    private static final IsolationLevel[] LEVELS = dev.isocheck.internal.saturate.WeakLevel.searchedLevels();

    private static History serial(int sessions, int perSession, long seed, int valueDomain) {
        Workload workload = Workload.defaults().withSessions(sessions, perSession).withMaxOpsPerTransaction(6)
                .withKeys(40, 20).withMix(6, 4, 1, 0).withValueDomain(valueDomain).withAbortProbability(0.05);
        return new HistoryGenerator(workload, SimulatedDatabase.serial()).generate(seed).history();
    }

    /** {@code history}'s transactions, sessions, times and initial state, then whatever {@code extra} adds. */
    private static History copyWith(History history, Consumer<HistoryBuilder> extra) {
        HistoryBuilder b = History.builder().initialStateComplete(history.initialState().isComplete());
        for (int k = 0; k < history.keys().size(); k++) {
            if (history.initialState().isKnown(k)) {
                b.initialValue(history.keys().name(k), history.values().get(history.initialState().valueOf(k)).toJava());
            }
        }
        for (Transaction t : history.transactions()) {
            HistoryBuilder.TransactionBuilder copy = b.transaction(t.id()).session(history.sessionOf(t).name());
            if (!t.isCommitted()) {
                copy.aborted();
            }
            if (t.startTime() != Transaction.NO_TIME && t.endTime() != Transaction.NO_TIME) {
                copy.times(t.startTime(), t.endTime());
            }
            for (int i = 0; i < t.size(); i++) {
                if (t.kind(i) == OpKind.PREDICATE) {
                    PredicateRead p = t.predicate(i);
                    Map<String, Object> rows = new LinkedHashMap<>();
                    p.rows().forEach(row -> rows.put(row.getKey(), row.getValue().toJava()));
                    copy.predicate(p.table(), p.where(), rows);
                } else if (t.kind(i) == OpKind.READ) {
                    copy.read(history.keys().name(t.key(i)), history.values().get(t.value(i)).toJava());
                } else {
                    copy.write(history.keys().name(t.key(i)), history.values().get(t.value(i)).toJava());
                }
            }
        }
        extra.accept(b);
        return b.build();
    }

    private static void assertSatisfied(History h) {
        WitnessReplay replay = new WitnessReplay(h);
        for (IsolationLevel level : LEVELS) {
            Verdict verdict = ENGINE.check(h, level);
            assertThat(verdict).as("at %s", level).isInstanceOf(Verdict.Satisfied.class);
            List<String> witness = ((Verdict.Satisfied) verdict).witness();
            assertThat(level == IsolationLevel.SNAPSHOT_ISOLATION ? replay.snapshotFailure(witness)
                    : replay.failure(witness, level == IsolationLevel.STRICT_SERIALIZABLE)).as("witness replays at %s", level).isEmpty();
        }
    }

    private static void assertViolated(History h, IsolationLevel... levels) {
        for (IsolationLevel level : levels) {
            assertThat(ENGINE.check(h, level)).as("at %s", level).isInstanceOf(Verdict.Violated.class);
        }
    }

    @Test
    void serialHistoriesOfHundredsToThousandsOfTransactionsAreSatisfied() {
        assertSatisfied(serial(8, 25, 1, 0));
        assertSatisfied(serial(10, 100, 2, 0));
        assertSatisfied(serial(10, 30, 3, 4));
    }

    @Test
    void anInjectedWriteSkewOnFreshKeysIsFound() {
        History base = serial(10, 50, 4, 0);
        History h = copyWith(base, b -> {
            b.initialValue("skew/a", 0).initialValue("skew/b", 0);
            b.transaction("skew-1").session("skew-s1").read("skew/a", 0).read("skew/b", 0).write("skew/a", 1);
            b.transaction("skew-2").session("skew-s2").read("skew/a", 0).read("skew/b", 0).write("skew/b", 1);
        });
        assertSatisfied(copyWith(base, b -> { }));
        assertViolated(h, IsolationLevel.SERIALIZABLE, IsolationLevel.STRICT_SERIALIZABLE);
        assertThat(ENGINE.check(h, IsolationLevel.SNAPSHOT_ISOLATION)).isInstanceOf(Verdict.Satisfied.class);
    }

    @Test
    void anInjectedLostUpdateIsFoundEvenAmongDuplicateValues() {
        History base = serial(10, 50, 5, 3);
        History h = copyWith(base, b -> {
            b.initialValue("lost/c", 0);
            b.transaction("lost-1").session("lost-s1").read("lost/c", 0).write("lost/c", 1);
            b.transaction("lost-2").session("lost-s2").read("lost/c", 0).write("lost/c", 2);
        });
        assertViolated(h, LEVELS);
    }
}
