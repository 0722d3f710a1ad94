package dev.isocheck.internal.recording.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.isocheck.CheckResult;
import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.recording.NotModelled;
import dev.isocheck.internal.recording.RecordedHistory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A write with a RETURNING of its own ({@code INSERT ... RETURNING id}, jOOQ's every insert on
 * PostgreSQL), where the writes come from the statements: sent with every column of its table added
 * to its RETURNING and hidden, its rows are recorded as the application reads its result, and the
 * application sees exactly what it asked for.
 */
@DisplayName("writes with a RETURNING of their own, from the statements")
class ReturningTests {

    private static final String INSERT = "insert into \"public\".\"account\" (\"owner\", \"balance\") values (?, ?)"
            + " returning \"public\".\"account\".\"id\"";

    private PostgresDatabase server;

    @BeforeEach
    void createTable() throws Throwable {
        server = PostgresDatabase.get();
        server.run("DROP TABLE IF EXISTS account",
                "CREATE TABLE account (id serial PRIMARY KEY, owner text NOT NULL, balance int NOT NULL, note text DEFAULT 'new')");
    }

    private static long insert(Connection c, String owner, int balance) throws SQLException {
        try (PreparedStatement insert = c.prepareStatement(INSERT)) {
            insert.setString(1, owner);
            insert.setInt(2, balance);
            try (ResultSet rs = insert.executeQuery()) {
                assertThat(rs.next()).isTrue();
                long id = rs.getLong(1);
                assertThat(rs.next()).isFalse();
                return id;
            }
        }
    }

    @Test
    void anInsertReturningItsKeyIsRecordedWithItsWholeRow() throws Exception {
        RecordedHistory recorded = RecordedRun.record("insert returning", server.dataSource(), ds -> {
            try (Connection c = ds.getConnection()) {
                assertThat(insert(c, "ann", 100)).isOne();
                c.setAutoCommit(false);
                assertThat(insert(c, "bob", 50)).isEqualTo(2);
                c.commit();
            }
        });

        assertThat(recorded.notModelled()).isEmpty();
        assertThat(recorded.history().transactions()).extracting(Object::toString).containsExactly(
                "T1: r(account/1, null) w(account/1, {\"balance\":100,\"id\":1,\"note\":\"new\",\"owner\":\"ann\"})",
                "T2: r(account/2, null) w(account/2, {\"balance\":50,\"id\":2,\"note\":\"new\",\"owner\":\"bob\"})");
    }

    /** What the application sees of the result is the same recorded or not: columns, labels, values, a missing column's failure. */
    @Test
    void theApplicationSeesOnlyTheColumnsItAskedFor() throws Exception {
        List<String> plain = seen(server.dataSource());
        server.run("TRUNCATE account RESTART IDENTITY");
        List<String> recorded = new ArrayList<>();
        RecordedHistory history = RecordedRun.record("what the application sees", server.dataSource(), ds -> recorded.addAll(seen(ds)));
        assertThat(history.notModelled()).isEmpty();
        assertThat(history.history().transactions()).extracting(Object::toString).singleElement().satisfies(t -> assertThat(t)
                .contains("w(account/1, {\"balance\":100,\"id\":1,\"note\":\"new\",\"owner\":\"ann\"})")
                .contains("w(account/1, {\"balance\":80,\"id\":1,\"note\":\"new\",\"owner\":\"ann\"})")
                .contains("w(account/2, {\"balance\":5,\"id\":2,\"note\":\"new\",\"owner\":\"eve\"})"));

        assertThat(recorded).isEqualTo(plain).contains("columns: 1", "label: id", "no balance: 42703",
                "update returning: 2 [80, ann]", "text: 2 id [5, 2]");
    }

    private static List<String> seen(DataSource ds) throws SQLException {
        List<String> seen = new ArrayList<>();
        try (Connection c = ds.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement insert = c.prepareStatement(INSERT)) {
                insert.setString(1, "ann");
                insert.setInt(2, 100);
                ResultSet rs = insert.executeQuery();
                ResultSetMetaData meta = rs.getMetaData();
                seen.add("columns: " + meta.getColumnCount());
                seen.add("label: " + meta.getColumnLabel(1));
                rs.next();
                seen.add("id: " + rs.getLong("id"));
                SQLException missing = catchThrowableOfType(SQLException.class, () -> rs.getInt("balance"));
                seen.add("no balance: " + missing.getSQLState());
                SQLException past = catchThrowableOfType(SQLException.class, () -> rs.getObject(2));
                seen.add("no column 2: " + past.getSQLState());
                seen.add("statement: " + (rs.getStatement() == insert));
                rs.close();
            }
            try (PreparedStatement update = c.prepareStatement("UPDATE account SET balance = balance - ? WHERE owner = ?"
                    + " RETURNING balance, owner")) {
                update.setInt(1, 20);
                update.setString(2, "ann");
                boolean result = update.execute();
                ResultSet rs = update.getResultSet();
                rs.next();
                seen.add("update returning: " + rs.getMetaData().getColumnCount() + " [" + rs.getInt(1) + ", " + rs.getString(2) + "]");
                seen.add("result: " + result + ", more: " + update.getMoreResults() + ", count: " + update.getUpdateCount());
            }
            try (Statement text = c.createStatement();
                 ResultSet rs = text.executeQuery("INSERT INTO account (owner, balance) VALUES ('eve', 5) RETURNING balance, id")) {
                rs.next();
                seen.add("text: " + rs.getMetaData().getColumnCount() + " " + rs.getMetaData().getColumnLabel(2)
                        + " [" + rs.getInt("balance") + ", " + rs.getLong("id") + "]");
            }
            c.commit();
        }
        return seen;
    }

    /** A lost update through UPDATE ... RETURNING, at READ COMMITTED: each read the balance, then each wrote its own. */
    @Test
    void aLostUpdateThroughUpdateReturningIsCaught() throws Exception {
        // The row is inserted in the recording: its INSERT reads it absent, so that the two reads
        // of its balance cannot be taken for the row's initial value, with the INSERT between them.
        RecordedHistory recorded = RecordedRun.record("lost update, returning", server.dataSource(), ds -> {
            try (Connection setup = ds.getConnection()) {
                insert(setup, "ann", 100);
            }
            try (Connection a = ds.getConnection(); Connection b = ds.getConnection()) {
                for (Connection c : List.of(a, b)) {
                    c.setAutoCommit(false);
                    c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
                }
                int readByA = balance(a);
                int readByB = balance(b);
                assertThat(setBalance(a, readByA - 30)).isEqualTo(70);
                a.commit();
                assertThat(setBalance(b, readByB - 20)).isEqualTo(80);
                b.commit();
            }
        });

        assertThat(recorded.notModelled()).isEmpty();
        CheckResult result = RecordedRun.check(recorded, IsolationLevel.SERIALIZABLE);
        assertThat(result.isViolated()).as(result + " " + recorded.history().transactions()).isTrue();
        assertThat(RecordedRun.check(recorded, IsolationLevel.READ_COMMITTED).isSatisfied()).isTrue();
    }

    private static int balance(Connection c) throws SQLException {
        try (PreparedStatement select = c.prepareStatement("SELECT balance FROM account WHERE id = 1");
             ResultSet rs = select.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static int setBalance(Connection c, int balance) throws SQLException {
        try (PreparedStatement update = c.prepareStatement("UPDATE account SET balance = ? WHERE id = 1 RETURNING balance")) {
            update.setInt(1, balance);
            try (ResultSet rs = update.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    @Test
    void aDeleteReturningRecordsTheRowsItDeleted() throws Exception {
        RecordedHistory recorded = RecordedRun.record("delete returning", server.dataSource(), ds -> {
            try (Connection c = ds.getConnection()) {
                insert(c, "ann", 100);
                insert(c, "bob", 50);
                try (PreparedStatement delete = c.prepareStatement("DELETE FROM account WHERE balance < ? RETURNING *");
                     ResultSet rs = deleteBelow(delete, 60)) {
                    assertThat(rs.getMetaData().getColumnCount()).isEqualTo(4);
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString("owner")).isEqualTo("bob");
                    assertThat(rs.next()).isFalse();
                }
            }
        });

        assertThat(recorded.notModelled()).isEmpty();
        assertThat(recorded.history().transactions()).extracting(Object::toString)
                .anySatisfy(t -> assertThat(t).contains("w(account/2, null)"));
    }

    private static ResultSet deleteBelow(PreparedStatement delete, int balance) throws SQLException {
        delete.setInt(1, balance);
        return delete.executeQuery();
    }

    /**
     * Rows the application never read before its transaction ended, or a result it capped, are not
     * known to be every row written: the table is left out, and says why.
     */
    @Test
    void rowsNotReadToTheEndLeaveTheTableOut() throws Exception {
        RecordedHistory unread = RecordedRun.record("returning unread", server.dataSource(), ds -> {
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(false);
                try (PreparedStatement insert = c.prepareStatement("INSERT INTO account (owner, balance)"
                        + " VALUES ('ann', 1), ('bob', 2) RETURNING id")) {
                    ResultSet rs = insert.executeQuery();
                    rs.next();
                    c.commit();
                }
            }
        });
        assertThat(unread.notModelled()).extracting(NotModelled::reason).singleElement().satisfies(reason ->
                assertThat(reason).contains("had not read the rows its RETURNING gave back to their end"));

        RecordedHistory capped = RecordedRun.record("returning capped", server.dataSource(), ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                try (PreparedStatement insert = c.prepareStatement("INSERT INTO account (owner, balance)"
                        + " VALUES ('cid', 1), ('dan', 2) RETURNING id")) {
                    insert.setMaxRows(1);
                    try (ResultSet rs = insert.executeQuery()) {
                        int rows = 0;
                        while (rs.next()) {
                            rows++;
                        }
                        assertThat(rows).isOne();
                    }
                }
            }
        });
        assertThat(capped.notModelled()).extracting(NotModelled::reason).singleElement().satisfies(reason ->
                assertThat(reason).contains("were not all read"));
    }
}
