package dev.isocheck.internal.recording;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.internal.recording.TransactionLog.Finished;
import dev.isocheck.internal.recording.TransactionLog.Outcome;
import dev.isocheck.internal.recording.WriteLog.CommittedTransaction;
import dev.isocheck.internal.recording.WriteLog.CommittedWrite;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Finding recorded transactions in the log by the rows they changed: what it pairs, and every
 * case it must leave unmatched rather than guess. {@code LogicalDecodingMatchingTests} holds it
 * against the transactions' ids on a real server.
 */
class MatchByKeysTests {

    @Test
    void membersOfOneGroupArePairedInCommitOrderByWhenTheySentTheirCommits() {
        Finished later = finished("a", 20, "t/1");
        Finished earlier = finished("b", 10, "t/1");
        CommittedTransaction first = committed(5, "t/1");
        CommittedTransaction second = committed(6, "t/1");

        Map<Finished, CommittedTransaction> matched = MatchByKeys.match(List.of(later, earlier), List.of(first, second));

        assertThat(matched).containsEntry(earlier, first).containsEntry(later, second).hasSize(2);
    }

    @Test
    void rowsOfOtherTablesATriggerWroteGoWithTheTransaction() {
        Finished f = finished("a", 10, "t/1", "t/2");
        CommittedTransaction c = committed(5, "t/2", "audit/9", "t/1");

        assertThat(MatchByKeys.match(List.of(f), List.of(committed(4, "t/3"), c))).containsExactly(Map.entry(f, c));
    }

    @Test
    void anotherRowOfTheSameTableLeavesItUnmatched() {
        Finished f = finished("a", 10, "t/1");

        assertThat(MatchByKeys.match(List.of(f), List.of(committed(5, "t/1", "t/2")))).isEmpty();
    }

    @Test
    void aWriterNobodyRecordedOfTheSameRowsLeavesTheGroupUnmatched() {
        Finished a = finished("a", 10, "t/1");
        Finished b = finished("b", 30, "t/1");
        List<CommittedTransaction> log = List.of(committed(5, "t/1"), committed(6, "t/1"), committed(7, "t/1"));

        assertThat(MatchByKeys.match(List.of(a, b), log)).isEmpty();
    }

    @Test
    void aTransactionThatChangedMoreRowsIsAnothersOnceItsGroupClaimsIt() {
        Finished one = finished("a", 10, "t/1");
        Finished two = finished("b", 20, "t/1", "t/2");
        CommittedTransaction ofTwo = committed(5, "t/1", "t/2");
        CommittedTransaction ofOne = committed(6, "t/1");

        assertThat(MatchByKeys.match(List.of(one, two), List.of(ofTwo, ofOne))).containsEntry(one, ofOne)
                .containsEntry(two, ofTwo).hasSize(2);
    }

    @Test
    void theOnlyTransactionThatChangedARowIsItsWritersWhateverElseItChanged() {
        // b/1 beside a/1: a trigger of a's; the other transaction that changed b/1 is then b's.
        Finished a = finished("a", 10, "a/1");
        Finished b = finished("b", 20, "b/1");
        CommittedTransaction both = committed(5, "a/1", "b/1");
        CommittedTransaction onlyB = committed(6, "b/1");

        assertThat(MatchByKeys.match(List.of(a, b), List.of(both, onlyB))).containsEntry(a, both).containsEntry(b, onlyB);
    }

    @Test
    void aTransactionNobodyRecordedThatChangedMoreRowsBlocksEveryGroupItCouldBe() {
        Finished one = finished("a", 10, "t/1");
        Finished two = finished("b", 20, "t/2");
        List<CommittedTransaction> log = List.of(committed(5, "t/1", "t/2"), committed(6, "t/1"), committed(7, "t/2"));

        assertThat(MatchByKeys.match(List.of(one, two), log)).isEmpty();
    }

    @Test
    void aGroupWithoutItsTransactionInTheLogIsUnmatched() {
        // Written through a view: the log names the table under it.
        Finished f = finished("a", 10, "v/1");

        assertThat(MatchByKeys.match(List.of(f), List.of(committed(5, "t/1")))).isEmpty();
    }

    @Test
    void twoCommitsSentAtTheSameInstantCannotBeOrdered() {
        Finished a = finished("a", 10, "t/1");
        Finished b = finished("b", 10, "t/1");

        assertThat(MatchByKeys.match(List.of(a, b), List.of(committed(5, "t/1"), committed(6, "t/1")))).isEmpty();
    }

    @Test
    void groupsThatDoNotShareCandidatesAreMatchedEachOnItsOwn() {
        Finished a = finished("a", 10, "t/1");
        Finished b = finished("b", 5, "t/2");
        CommittedTransaction ofB = committed(5, "t/2");
        CommittedTransaction ofA = committed(6, "t/1");

        assertThat(MatchByKeys.match(List.of(a, b), List.of(ofB, ofA))).containsEntry(a, ofA).containsEntry(b, ofB);
    }

    @Test
    void onlyCommittedTransactionsWithEveryRowKnownAreFoundByTheirRows() {
        assertThat(MatchByKeys.applies(finished("a", 10, "t/1"))).isTrue();
        assertThat(MatchByKeys.applies(with(finished("a", 10, "t/1"), Outcome.ABORTED, false, 10))).isFalse();
        assertThat(MatchByKeys.applies(with(finished("a", 10, "t/1"), Outcome.UNKNOWN, false, 10))).isFalse();
        assertThat(MatchByKeys.applies(with(finished("a", 10, "t/1"), Outcome.COMMITTED, true, -1))).as("auto-commit").isTrue();
        assertThat(MatchByKeys.applies(with(finished("a", 10, "t/1"), Outcome.COMMITTED, false, -1))).as("no commit sent")
                .isFalse();
        List<Observation> oneUnknown = new ArrayList<>(finished("a", 10, "t/1").observations());
        oneUnknown.add(new Observation.MayHaveWritten(Optional.of("t"), 3));
        assertThat(MatchByKeys.applies(observing(oneUnknown))).as("a statement that did not say its rows").isFalse();
        assertThat(MatchByKeys.applies(observing(List.of(new Observation.MayHaveWritten(Optional.of("t"), 0, Set.of())))))
                .as("nothing changed: nothing to find").isFalse();
        assertThat(MatchByKeys.applies(observing(List.of(new Observation.MayHaveWritten(Optional.of("t"), 1, Set.of("t/1")),
                new Observation.LeftOut(Optional.empty(), "SAVEPOINT s", "transaction control"))))).isFalse();
    }

    @Test
    void autoCommitStatementsAreOrderedOnlyWhenOneWasAnsweredBeforeTheNextWasSent() {
        Finished first = autoCommit("a", 10, 20, "t/1");
        Finished second = autoCommit("a", 30, 40, "t/1");
        Finished overlapping = autoCommit("b", 15, 35, "t/1");
        CommittedTransaction c1 = committed(5, "t/1");
        CommittedTransaction c2 = committed(6, "t/1");

        assertThat(MatchByKeys.match(List.of(second, first), List.of(c1, c2))).containsEntry(first, c1)
                .containsEntry(second, c2);
        assertThat(MatchByKeys.match(List.of(first, overlapping), List.of(c1, c2))).isEmpty();
    }

    @Test
    void aTransactionAndAnAutoCommitStatementAreOrderedByTheFirstsAnswer() {
        Finished transaction = finished("a", 10, "t/1");
        Finished statement = autoCommit("b", 12, 30, "t/1");
        CommittedTransaction c1 = committed(5, "t/1");
        CommittedTransaction c2 = committed(6, "t/1");

        // The transaction's commit was answered at 11, before the statement was sent.
        assertThat(MatchByKeys.match(List.of(statement, transaction), List.of(c1, c2))).containsEntry(transaction, c1)
                .containsEntry(statement, c2);
        Finished answeredLate = new Finished("a", "main", 0, 13, Outcome.COMMITTED, transaction.observations(),
                transaction.primaryKeys(), null, false, -1, -1, -1, 10);
        assertThat(MatchByKeys.match(List.of(statement, answeredLate), List.of(c1, c2))).isEmpty();
    }

    private static Finished autoCommit(String session, long start, long end, String... keys) {
        Finished f = finished(session, 0, keys);
        return new Finished(session, "main", start, end, Outcome.COMMITTED, f.observations(), f.primaryKeys(), null, true,
                -1, -1, -1, -1);
    }

    private static Finished finished(String session, long commitSent, String... keys) {
        List<Observation> observations = new ArrayList<>();
        for (String key : keys) {
            observations.add(new Observation.MayHaveWritten(Optional.of(key.substring(0, key.indexOf('/'))), 1, Set.of(key)));
        }
        return new Finished(session, "main", 0, commitSent + 1, Outcome.COMMITTED, observations, table -> Optional.empty(),
                null, false, -1, -1, -1, commitSent);
    }

    private static Finished with(Finished f, Outcome outcome, boolean autoCommit, long commitSent) {
        return new Finished(f.session(), f.thread(), f.start(), f.end(), outcome, f.observations(), f.primaryKeys(),
                f.writeLog(), autoCommit, f.xid(), f.idsFrom(), f.idsUntil(), commitSent);
    }

    private static Finished observing(List<Observation> observations) {
        Finished f = finished("a", 10);
        return new Finished(f.session(), f.thread(), f.start(), f.end(), f.outcome(), observations, f.primaryKeys(),
                f.writeLog(), false, -1, -1, -1, 10);
    }

    private static CommittedTransaction committed(long xid, String... keys) {
        List<CommittedWrite> writes = new ArrayList<>();
        for (String key : keys) {
            writes.add(new CommittedWrite(key.substring(0, key.indexOf('/')), key, Map.of("id", 0), Map.of("id", 0),
                    writes.size()));
        }
        return new CommittedTransaction(xid, writes);
    }
}
