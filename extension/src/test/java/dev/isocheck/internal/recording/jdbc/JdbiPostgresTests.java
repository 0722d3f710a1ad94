package dev.isocheck.internal.recording.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.isocheck.AnomalyType;
import dev.isocheck.CheckResult;
import dev.isocheck.IsolationLevel;
import dev.isocheck.history.SqlStatement;
import dev.isocheck.history.Transaction;
import dev.isocheck.internal.recording.RecordedHistory;
import dev.isocheck.jdbi.JointAccounts;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import javax.sql.DataSource;
import org.jdbi.v3.core.transaction.TransactionIsolationLevel;
import org.junit.jupiter.api.Test;

/** Jdbi SqlObject DAOs with the isocheck plugin on the embedded PostgreSQL server. */
class JdbiPostgresTests {

    @Test
    void aWriteSkewAtRepeatableReadIsCaughtWithTheDaoMethodsNamed() throws Exception {
        JointAccounts accounts = new JointAccounts(freshDatabase(), true, TransactionIsolationLevel.REPEATABLE_READ);
        RecordedHistory recorded = RecordedRun.record("repeatable read", accounts.plain(), ignored -> accounts.writeSkew());

        assertThat(recorded.notModelled()).isEmpty();
        assertThat(recorded.history().transactions()).extracting(Transaction::isCommitted).containsExactly(true, true);
        assertThat(recorded.history().transactions()).extracting(t -> t.statements().stream().map(SqlStatement::name).toList())
                .containsOnly(List.of(Optional.of("AccountDao.balance"), Optional.of("AccountDao.balance"), Optional.of("AccountDao.withdraw")));
        CheckResult serializable = RecordedRun.check(recorded, IsolationLevel.SERIALIZABLE);
        assertThat(RecordedRun.cycleTypes(serializable)).containsExactly(AnomalyType.G2_ITEM);
        assertThat(serializable.explanationText().orElseThrow().replaceAll("\\s+", " "))
                .contains("T1: AccountDao.withdraw: UPDATE accounts SET balance = balance - ? WHERE id = ? [150, 1]");
        // PostgreSQL's REPEATABLE READ is snapshot isolation, which allows write skew: no false alarm there.
        assertThat(RecordedRun.check(recorded, IsolationLevel.SNAPSHOT_ISOLATION).isSatisfied()).isTrue();
    }

    @Test
    void atSerializablePostgresAbortsOneWithdrawalAndTheHistoryIsSerializable() throws Exception {
        JointAccounts accounts = new JointAccounts(freshDatabase(), true, TransactionIsolationLevel.SERIALIZABLE);
        RecordedHistory recorded = RecordedRun.record("serializable", accounts.plain(),
                ignored -> assertThatThrownBy(accounts::writeSkew).isInstanceOf(ExecutionException.class));

        assertThat(recorded.notModelled()).isEmpty();
        assertThat(recorded.history().transactions()).extracting(Transaction::isCommitted).containsExactly(true, false);
        assertThat(RecordedRun.check(recorded, IsolationLevel.SERIALIZABLE).isSatisfied()).isTrue();
    }

    private static DataSource freshDatabase() throws Exception {
        PostgresDatabase server;
        try {
            server = PostgresDatabase.get();
        } catch (Throwable e) {
            throw new IllegalStateException("embedded PostgreSQL did not start", e);
        }
        server.run("DROP DATABASE IF EXISTS jdbi_accounts", "CREATE DATABASE jdbi_accounts");
        return server.database("jdbi_accounts");
    }
}
