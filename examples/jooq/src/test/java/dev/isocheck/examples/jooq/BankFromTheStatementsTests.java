package dev.isocheck.examples.jooq;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.InterleavingTest;
import dev.isocheck.IsolationViolationError;
import dev.isocheck.Recording;
import dev.isocheck.SerializableCheck;
import dev.isocheck.examples.jooq.Bank.Isolation;
import dev.isocheck.examples.jooq.Bank.Locking;
import dev.isocheck.examples.jooq.TwoRequestsAtOnce.Opening;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lost fee of {@link BankAnomalyTests} on a PostgreSQL server without logical decoding, where
 * the recorder takes the writes from the statements: it sends each write so that it returns the
 * rows written, jOOQ's {@code INSERT ... RETURNING "account"."id"} with every column of the table
 * added to its RETURNING and hidden from jOOQ. Nothing is left out, and the lost update is caught
 * whether the accounts were opened in the test or before it.
 */
class BankFromTheStatementsTests {

    @TempDir
    Path reports;

    @Test
    void theInsertReturningIsRecordedAndTheLostUpdateCaught() {
        FixtureRun run = FixtureRun.of(OpenedInTheTest.class, "twoFees", reports);

        assertThat(run.firstFailure(3)).isInstanceOfSatisfying(IsolationViolationError.class, failure -> {
            assertThat(failure.result().anomaliesShown()).contains("lost update");
            assertThat(failure.getMessage()).contains(BankAnomalyTests.JOOQ_UPDATE);
            assertThat(failure.notModelled()).isEmpty();
        });
        assertThat(run.reportEntry("isocheck.writes")).contains("from the statements");
    }

    @Test
    void onAccountsOpenedBeforeTheLostUpdateIsCaught() {
        FixtureRun run = FixtureRun.of(OpenedBefore.class, "twoFees", reports);

        assertThat(run.firstFailure(3)).isInstanceOfSatisfying(IsolationViolationError.class, failure -> {
            assertThat(failure.result().anomaliesShown()).contains("lost update");
            assertThat(failure.getMessage()).contains(BankAnomalyTests.JOOQ_UPDATE);
            assertThat(failure.notModelled()).isEmpty();
        });
        assertThat(run.reportEntry("isocheck.writes")).contains("from the statements");
    }

    /**
     * Two fees at once at READ COMMITTED on the server without logical decoding, on accounts opened
     * in the test (each schedule's {@code @BeforeEach}, recorded). Run by the tests above only.
     */
    @SerializableCheck
    static class OpenedInTheTest {

        TwoRequestsAtOnce alice;

        @BeforeEach
        void aliceOpensHerAccounts() {
            alice = new TwoRequestsAtOnce(Postgres.withoutLogicalDecoding(), Opening.RECORDED);
        }

        @InterleavingTest
        void twoFees(Recording recording) throws Exception {
            loseAFee(alice);
            assertThat(recording.leftOut()).isEmpty();
            // jOOQ's insert, recorded whole: the row with every column, not only the id it returned.
            assertThat(recording.history().transactions()).anySatisfy(t -> assertThat(t.toString()).contains("w(account/"));
        }
    }

    /** The same on accounts opened before the recording. Run by the tests above only. */
    @SerializableCheck
    static class OpenedBefore {

        TwoRequestsAtOnce alice;

        @BeforeEach
        void accountsOpenedBeforeTheRecording() {
            alice = new TwoRequestsAtOnce(Postgres.withoutLogicalDecoding(), Opening.UNRECORDED);
        }

        @InterleavingTest
        void twoFees(Recording recording) throws Exception {
            loseAFee(alice);
            assertThat(recording.leftOut()).isEmpty();
        }
    }

    /** Two fees at once at READ COMMITTED: 52 where one ran after the other, 55 or 57 where one was lost. */
    private static void loseAFee(TwoRequestsAtOnce alice) throws Exception {
        assertThat(alice.twoFees(alice.bank(Isolation.READ_COMMITTED, Locking.NONE))).containsOnlyNulls();
        assertThat(alice.checkingBalance()).isIn(52, 55, 57);
    }
}
