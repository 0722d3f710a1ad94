package dev.isocheck.examples.jooq;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.IsolationViolationError;
import dev.isocheck.Recording;
import dev.isocheck.SerializableCheck;
import dev.isocheck.examples.jooq.Bank.Isolation;
import dev.isocheck.examples.jooq.Bank.Locking;
import dev.isocheck.examples.jooq.TwoRequestsAtOnce.Opening;
import java.nio.file.Path;
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
        FixtureRun run = FixtureRun.of(FromTheStatements.class, "twoFeesOnAccountsOpenedInTheTest", reports);

        assertThat(run.failure()).isInstanceOfSatisfying(IsolationViolationError.class, failure -> {
            assertThat(failure.result().anomaliesShown()).contains("lost update");
            assertThat(failure.getMessage()).contains(BankAnomalyTests.JOOQ_UPDATE);
            assertThat(failure.notModelled()).isEmpty();
        });
        assertThat(run.reportEntry("isocheck.writes")).contains("from the statements");
    }

    @Test
    void onAccountsOpenedBeforeTheLostUpdateIsCaught() {
        FixtureRun run = FixtureRun.of(FromTheStatements.class, "twoFeesOnAccountsOpenedUnrecorded", reports);

        assertThat(run.failure()).isInstanceOfSatisfying(IsolationViolationError.class, failure -> {
            assertThat(failure.result().anomaliesShown()).contains("lost update");
            assertThat(failure.getMessage()).contains(BankAnomalyTests.JOOQ_UPDATE);
            assertThat(failure.notModelled()).isEmpty();
        });
        assertThat(run.reportEntry("isocheck.writes")).contains("from the statements");
    }

    /**
     * Two fees at once at READ COMMITTED, one of which is lost, on the server without logical
     * decoding. Run by the tests above only.
     */
    @SerializableCheck
    static class FromTheStatements {

        @Test
        void twoFeesOnAccountsOpenedInTheTest(Recording recording) throws Exception {
            loseAFee(Opening.RECORDED);
            assertThat(recording.leftOut()).isEmpty();
            // jOOQ's insert, recorded whole: the row with every column, not only the id it returned.
            assertThat(recording.history().transactions()).anySatisfy(t -> assertThat(t.toString()).contains("w(account/"));
        }

        @Test
        void twoFeesOnAccountsOpenedUnrecorded(Recording recording) throws Exception {
            loseAFee(Opening.UNRECORDED);
            assertThat(recording.leftOut()).isEmpty();
        }

        private static void loseAFee(Opening opening) throws Exception {
            TwoRequestsAtOnce fees = new TwoRequestsAtOnce(Postgres.withoutLogicalDecoding(), Isolation.READ_COMMITTED,
                    Locking.NONE, opening);
            assertThat(fees.twoFees()).containsOnlyNulls();
            assertThat(fees.checkingBalance()).isIn(55, 57);
        }
    }
}
