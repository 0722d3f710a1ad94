package dev.isocheck.jdbi;

import static dev.isocheck.jdbi.JointAccounts.ALICE;
import static dev.isocheck.jdbi.JointAccounts.BOB;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.isocheck.Isocheck;
import dev.isocheck.IsolationLevel;
import dev.isocheck.format.JsonlHistoryWriter;
import dev.isocheck.history.History;
import dev.isocheck.history.SqlStatement;
import dev.isocheck.history.Transaction;
import dev.isocheck.internal.recording.RecordedHistory;
import dev.isocheck.internal.recording.Recording;
import java.io.IOException;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.statement.UnableToExecuteStatementException;
import org.junit.jupiter.api.Test;

/** Jdbi on a recorded data source: recorded as plain JDBC is, statements named by the plugin. */
class JdbiRecordingTests {

    private static final String BALANCE = "SELECT balance FROM accounts WHERE id = ?";
    private static final String WITHDRAW = "UPDATE accounts SET balance = balance - ? WHERE id = ?";
    private static final String OPEN = "INSERT INTO accounts (id, owner, balance) VALUES (?, ?, ?)";

    @Test
    void jdbiTransactionsAreRecordedExactlyLikeJdbcOnes() throws Exception {
        JointAccounts throughJdbc = new JointAccounts(false);
        RecordedHistory jdbc = record("jdbc", () -> {
            try (Connection c = Isocheck.record(throughJdbc.plain()).getConnection()) {
                c.setAutoCommit(false);
                int total = balance(c, ALICE) + balance(c, BOB);
                assertThat(total).isEqualTo(200);
                try (PreparedStatement withdraw = c.prepareStatement(WITHDRAW)) {
                    withdraw.setInt(1, 30);
                    withdraw.setInt(2, ALICE);
                    assertThat(withdraw.executeUpdate()).isEqualTo(1);
                }
                c.commit();
                c.setAutoCommit(true);
                try (PreparedStatement open = c.prepareStatement(OPEN)) {
                    open.setInt(1, 3);
                    open.setString(2, "carol");
                    open.setInt(3, 50);
                    open.executeUpdate();
                }
            }
        });
        JointAccounts throughJdbi = new JointAccounts(false);
        RecordedHistory jdbi = record("jdbi", () -> {
            // One handle, as the JDBC code above used one connection.
            throughJdbi.jdbi().useHandle(handle -> {
                AccountDao accounts = handle.attach(AccountDao.class);
                handle.useTransaction(h -> {
                    assertThat(accounts.balance(ALICE) + accounts.balance(BOB)).isEqualTo(200);
                    accounts.withdraw(ALICE, 30);
                });
                accounts.open(3, "carol", 50);
            });
        });

        assertThat(jdbc.notModelled()).isEmpty();
        assertThat(jdbi.notModelled()).isEmpty();
        assertThat(jdbi.history().transactions()).hasSize(2);
        assertThat(withoutTimes(jdbi.history())).isEqualTo(withoutTimes(jdbc.history()));
    }

    @Test
    void thePluginNamesEachStatementAfterItsSqlObjectMethodAndNothingElse() throws Exception {
        JointAccounts accounts = new JointAccounts(true);
        RecordedHistory recorded = record("named", () -> {
            assertThat(accounts.withdraw(ALICE, BOB, 30, () -> { })).isTrue();
            // The same SQL outside a SqlObject right after: the name went with the DAO's statement.
            accounts.jdbi().useHandle(handle -> handle.createUpdate("UPDATE accounts SET balance = balance - :amount WHERE id = :id")
                    .bind("amount", 10).bind("id", BOB).execute());
            // A DAO statement that fails, then its SQL through plain JDBC on the same thread.
            assertThatThrownBy(() -> accounts.jdbi().useExtension(AccountDao.class, dao -> dao.open(ALICE, "mallory", 0)))
                    .isInstanceOf(UnableToExecuteStatementException.class);
            try (Connection c = Isocheck.record(accounts.plain()).getConnection(); PreparedStatement open = c.prepareStatement(OPEN)) {
                open.setInt(1, 3);
                open.setString(2, "carol");
                open.setInt(3, 50);
                open.executeUpdate();
            }
        });

        List<Transaction> transactions = recorded.history().transactions();
        assertThat(transactions).extracting(t -> t.statements().stream().map(SqlStatement::name).toList()).containsExactly(
                List.of(Optional.of("AccountDao.balance"), Optional.of("AccountDao.balance"), Optional.of("AccountDao.withdraw")),
                List.of(Optional.empty()),
                List.of(Optional.of("AccountDao.open")),
                List.of(Optional.empty()));
        assertThat(transactions.get(0).statements()).extracting(SqlStatement::sql).containsExactly(BALANCE, BALANCE, WITHDRAW);
        assertThat(transactions.get(0).statements().get(2).parameters()).containsExactly("30", "1");
        assertThat(transactions).extracting(Transaction::isCommitted).containsExactly(true, true, false, true);
        assertThat(recorded.notModelled()).isEmpty();
    }

    @Test
    void theExplanationOfAWriteSkewThroughADaoNamesItsMethods() throws Exception {
        JointAccounts accounts = new JointAccounts(true);
        RecordedHistory recorded = record("write skew", accounts::writeSkew);

        String explanation = Isocheck.check(recorded.history(), IsolationLevel.SERIALIZABLE).explanationText().orElseThrow();
        // Long statements wrap in the text: compare with the whitespace flattened.
        assertThat(flat(explanation))
                .startsWith("G2-item (write skew) at serializable")
                .contains(flat("T1: AccountDao.balance: SELECT balance FROM accounts WHERE id = ?  [2]"))
                .contains(flat("T2: AccountDao.withdraw: UPDATE accounts SET balance = balance - ? WHERE id = ?  [150, 2]"))
                .contains(flat("T2: AccountDao.balance: SELECT balance FROM accounts WHERE id = ?  [1]"))
                .contains(flat("T1: AccountDao.withdraw: UPDATE accounts SET balance = balance - ? WHERE id = ?  [150, 1]"));
    }

    static String flat(String text) {
        return text.replaceAll("\\s+", " ").strip();
    }

    private static int balance(Connection c, int id) throws SQLException {
        try (PreparedStatement select = c.prepareStatement(BALANCE)) {
            select.setInt(1, id);
            try (ResultSet rows = select.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        }
    }

    /** The history as its JSONL file has it, without the times, which differ from run to run. */
    private static String withoutTimes(History history) throws IOException {
        StringWriter out = new StringWriter();
        new JsonlHistoryWriter().write(history, out);
        return out.toString().replaceAll("\"(start|end)\":\\d+,?", "");
    }

    /** A workload run on the recorded data sources. */
    @FunctionalInterface
    private interface Workload {
        void run() throws Exception;
    }

    /** Runs the workload inside a recording of its own, as a test under {@code @SerializableCheck} would. */
    private static RecordedHistory record(String name, Workload workload) throws Exception {
        Recording recording = new Recording(name);
        try (Recording.Binding ignored = recording.bind()) {
            workload.run();
        } catch (Exception | Error e) {
            recording.finish();
            throw e;
        }
        return recording.finish();
    }
}
