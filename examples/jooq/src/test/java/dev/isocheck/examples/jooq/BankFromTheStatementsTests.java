package dev.isocheck.examples.jooq;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.IsolationLevel;
import dev.isocheck.IsolationViolationError;
import dev.isocheck.Recording;
import dev.isocheck.SerializableCheck;
import dev.isocheck.examples.jooq.Bank.Isolation;
import dev.isocheck.examples.jooq.Bank.Locking;
import dev.isocheck.examples.jooq.TwoRequestsAtOnce.Opening;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

/**
 * The lost fee of {@link BankAnomalyTests} on a PostgreSQL server without logical decoding, where
 * the recorder takes the writes from the statements: it sends each write with RETURNING added to
 * see the rows written, and leaves out the table of a write it cannot rewrite so. jOOQ's
 * {@code INSERT ... RETURNING "account"."id"} is such a write today: the {@code account} table is
 * left out, the lost update goes unchecked, and the test is aborted saying so (the default
 * {@code isocheck.left-out = abort}). With the accounts opened before the recording, the same
 * requests are checked and the lost update caught.
 */
class BankFromTheStatementsTests {

    /** The SQL jOOQ sends for {@code insertInto(ACCOUNT, OWNER, BALANCE).values(...).returningResult(ID)}. */
    static final String JOOQ_INSERT_RETURNING =
            "insert into \"account\" (\"owner\", \"balance\") values (?, ?) returning \"account\".\"id\"";

    @TempDir
    Path reports;

    @Test
    void theInsertReturningLeavesTheAccountsOutOfTheCheck() {
        FixtureRun run = FixtureRun.of(FromTheStatements.class, "twoFeesOnAccountsOpenedInTheTest", reports);
        Throwable thrown = run.abort();

        assertThat(thrown).isInstanceOf(TestAbortedException.class);
        assertThat(thrown.getMessage())
                .contains("tables they touched were left out of the check")
                .contains("account")
                .contains(JOOQ_INSERT_RETURNING)
                .contains("a INSERT with RETURNING, WITH, joins or ON DUPLICATE KEY");
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
     * decoding; at strict serializable, as {@link BankAnomalyTests}. Run by the tests above only.
     */
    @SerializableCheck(level = IsolationLevel.STRICT_SERIALIZABLE)
    static class FromTheStatements {

        @Test
        void twoFeesOnAccountsOpenedInTheTest(Recording recording) throws Exception {
            loseAFee(Opening.RECORDED);
            // What the recorder says it left out, before the check says it again.
            assertThat(recording.leftOut()).singleElement().asString()
                    .contains("account").contains(JOOQ_INSERT_RETURNING);
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
