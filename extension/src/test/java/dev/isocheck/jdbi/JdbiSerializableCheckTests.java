package dev.isocheck.jdbi;

import static dev.isocheck.jdbi.JdbiRecordingTests.flat;
import static dev.isocheck.jdbi.JointAccounts.ALICE;
import static dev.isocheck.jdbi.JointAccounts.BOB;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.isocheck.IsolationViolationError;
import dev.isocheck.SerializableCheck;
import dev.isocheck.format.JsonlHistoryReader;
import dev.isocheck.history.SqlStatement;
import dev.isocheck.history.Transaction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/** {@code @SerializableCheck} on tests whose code uses Jdbi SqlObject DAOs with the isocheck plugin. */
class JdbiSerializableCheckTests {

    @TempDir
    Path reports;

    @Test
    void aWriteSkewThroughADaoFailsTheTestNamingTheDaoMethods() throws Exception {
        List<Event> failed = run(OverdraftTestCase.class).testEvents().failed().list();

        assertThat(failed).hasSize(1);
        Throwable failure = failed.get(0).getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();
        assertThat(failure).isInstanceOf(IsolationViolationError.class);
        String message = flat(failure.getMessage());
        assertThat(message)
                .startsWith("isocheck: the transactions of JdbiSerializableCheckTests$OverdraftTestCase > overdraft() violate serializable")
                .contains("G2-item (write skew) at serializable: a cycle of 2 transactions")
                .contains(flat("T1: AccountDao.balance: SELECT balance FROM accounts WHERE id = ?  [2]"))
                .contains(flat("T2: AccountDao.withdraw: UPDATE accounts SET balance = balance - ? WHERE id = ?  [150, 2]"))
                .contains(flat("T2: AccountDao.balance: SELECT balance FROM accounts WHERE id = ?  [1]"))
                .contains(flat("T1: AccountDao.withdraw: UPDATE accounts SET balance = balance - ? WHERE id = ?  [150, 1]"))
                .doesNotContain("Not modelled");

        IsolationViolationError violation = (IsolationViolationError) failure;
        // The history file keeps the names: read back, each statement has its method.
        List<Transaction> transactions = new JsonlHistoryReader().read(violation.historyFile()).transactions();
        assertThat(transactions).extracting(t -> t.statements().stream().map(SqlStatement::name).toList()).containsOnly(
                List.of(Optional.of("AccountDao.balance"), Optional.of("AccountDao.balance"), Optional.of("AccountDao.withdraw")));
        assertThat(Files.readString(violation.reportFile(), StandardCharsets.UTF_8))
                .contains("AccountDao.withdraw: UPDATE accounts SET balance = balance - ? WHERE id = ?  [150, 1]");
    }

    @Test
    void withdrawalsOneAfterTheOtherPass() {
        EngineExecutionResults results = run(OneAfterTheOtherTestCase.class);

        assertThat(results.testEvents().failed().list()).isEmpty();
        assertThat(results.testEvents().succeeded().count()).isEqualTo(1);
    }

    private EngineExecutionResults run(Class<?> testCase) {
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(testCase))
                .configurationParameter("isocheck.report.dir", reports.toString())
                .execute();
    }

    @SerializableCheck
    static class OverdraftTestCase {

        final JointAccounts accounts = new JointAccounts(true);

        @Test
        void overdraft() throws Exception {
            accounts.writeSkew();
        }
    }

    @SerializableCheck
    static class OneAfterTheOtherTestCase {

        final JointAccounts accounts = new JointAccounts(true);

        @Test
        void oneAfterTheOther() {
            assertThat(accounts.withdraw(ALICE, BOB, 150, () -> { })).isTrue();
            // Bob sees Alice's withdrawal: 50 left between them, not enough.
            assertThat(accounts.withdraw(BOB, ALICE, 150, () -> { })).isFalse();
        }
    }
}
