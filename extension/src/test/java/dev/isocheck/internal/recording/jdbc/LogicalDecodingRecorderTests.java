package dev.isocheck.internal.recording.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.CheckResult;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Isocheck;
import dev.isocheck.internal.recording.RecordedHistory;
import dev.isocheck.internal.recording.Recording;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What recording writes from PostgreSQL's logical decoding adds: the writes of connections the
 * test did not wrap, anomalies that happen through triggers, the slot's life, and what the report
 * says. {@link LogicalDecodingScenariosTests} and {@link LogicalDecodingConstructsTests} run the
 * recorder's scenarios and the constructs on the same server.
 */
class LogicalDecodingRecorderTests {

    static PostgresDatabase db() {
        try {
            return PostgresDatabase.logical();
        } catch (Throwable e) {
            throw new IllegalStateException("embedded PostgreSQL did not start", e);
        }
    }

    @BeforeEach
    void schema() throws SQLException {
        ledger(db());
    }

    /** Two accounts, and a trigger that audits every update of one in another table. */
    static void ledger(TestDatabase database) throws SQLException {
        database.run("DROP TABLE IF EXISTS ledger, ledger_audit CASCADE",
                "CREATE TABLE ledger (id int PRIMARY KEY, balance int NOT NULL)",
                "INSERT INTO ledger VALUES (1, 100), (2, 100)",
                "CREATE TABLE ledger_audit (id serial PRIMARY KEY, account int, balance int)",
                "CREATE OR REPLACE FUNCTION ledger_audited() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                        + " INSERT INTO ledger_audit (account, balance) VALUES (NEW.id, NEW.balance); RETURN NEW; END $$",
                "CREATE TRIGGER ledger_audit AFTER UPDATE ON ledger FOR EACH ROW EXECUTE FUNCTION ledger_audited()");
    }

    /**
     * A pool of one connection, which the test's transactions hold whenever the recorder would
     * borrow it: the recorder asks for it at the test's first transaction, is refused, and does
     * not ask again at every transaction (each ask waits for the pool's timeout); the writes come
     * from the statements, said so.
     */
    @Test
    void aPoolTheTestHoldsWholeIsAskedOncePerTestNotAtEveryTransaction() throws Exception {
        java.util.concurrent.atomic.AtomicInteger refused = new java.util.concurrent.atomic.AtomicInteger();
        DataSource poolOfOne = poolOfOne(db().dataSource(), refused);
        RecordedHistory recorded = RecordedRun.record("pool of one", poolOfOne, ds -> {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                for (int i = 0; i < 5; i++) {
                    s.executeUpdate("UPDATE ledger SET balance = balance - 1 WHERE id = 2");
                }
            }
        });
        // The database's name, and the slot: one refusal each at most, not one per transaction.
        assertThat(refused.get()).isBetween(1, 2);
        assertThat(recorded.writesFrom()).anyMatch(line -> line.startsWith("writes recorded from the statements"));
    }

    /**
     * A data source of one connection, counting the borrows it refuses while that one is lent (as
     * a pool at its maximum does once its wait runs out).
     */
    static DataSource poolOfOne(DataSource real, java.util.concurrent.atomic.AtomicInteger refused) {
        java.util.concurrent.Semaphore one = new java.util.concurrent.Semaphore(1);
        return (DataSource) java.lang.reflect.Proxy.newProxyInstance(LogicalDecodingRecorderTests.class.getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    if (!method.getName().equals("getConnection")) {
                        return method.invoke(real, args);
                    }
                    if (!one.tryAcquire()) {
                        refused.incrementAndGet();
                        throw new SQLException("the pool has no connection free (its one is in use)");
                    }
                    Connection lent = real.getConnection();
                    return java.lang.reflect.Proxy.newProxyInstance(LogicalDecodingRecorderTests.class.getClassLoader(),
                            new Class<?>[] {Connection.class}, (c, m, a) -> {
                                if (m.getName().equals("close")) {
                                    one.release();
                                }
                                try {
                                    return m.invoke(lent, a);
                                } catch (java.lang.reflect.InvocationTargetException e) {
                                    throw e.getCause();
                                }
                            });
                });
    }

    /**
     * Two data sources of one database, one whose log could not be opened (its pool held whole):
     * its transactions write from their statements, and the other's log shows them too, claimed by
     * none. They are not added again as transactions no recorded connection ran (a write made twice
     * looks like a lost update): the tables they wrote are left out, said so.
     */
    @Test
    void aTransactionWrittenFromItsStatementsIsNotTakenAgainFromAnotherDataSourcesLog() throws Exception {
        DataSource held = Isocheck.record(poolOfOne(db().dataSource(), new java.util.concurrent.atomic.AtomicInteger()));
        DataSource logged = Isocheck.record(db().dataSource());
        Recording recording = new Recording("one database, two data sources");
        try (Recording.Binding ignored = recording.bind()) {
            try (Connection c = logged.getConnection(); Statement s = c.createStatement()) {
                s.executeQuery("SELECT balance FROM ledger WHERE id = 2").close();
            }
            try (Connection c = held.getConnection()) {
                c.setAutoCommit(false);
                try (Statement s = c.createStatement()) {
                    s.executeQuery("SELECT balance FROM ledger WHERE id = 2").close();
                    s.executeUpdate("UPDATE ledger SET balance = 99 WHERE id = 2");
                }
                c.commit();
            }
            assertThat(balance(logged, 2)).isEqualTo(99);
        }
        RecordedHistory recorded = recording.finish();
        assertThat(recorded.writesFrom()).anyMatch(line -> line.startsWith("writes recorded from the statements"));
        assertThat(recorded.notModelled()).anyMatch(n -> n.subject().startsWith("table ledger (server transaction")
                && n.reason().contains("may be one of theirs"));
        assertThat(recorded.history().transactions()).noneMatch(t -> t.thread().orElse("").startsWith("not recorded"));
    }

    @Test
    void writesOfAConnectionTheTestDidNotWrapAreTransactionsOfTheirOwn() throws Exception {
        RecordedHistory recorded = RecordedRun.record("unwrapped writer", db().dataSource(), ds -> {
            assertThat(balance(ds, 1)).isEqualTo(100);
            // Another pool, a migration, a scheduled job: a connection nobody recorded.
            try (Connection other = db().dataSource().getConnection(); Statement s = other.createStatement()) {
                s.executeUpdate("UPDATE ledger SET balance = 70 WHERE id = 1");
            }
            assertThat(balance(ds, 1)).isEqualTo(70);
        });

        assertThat(recorded.history().transactions()).extracting(Object::toString).containsExactly(
                "T1: r(ledger/1, {\"balance\":100})",
                "T2: r(ledger/1, {\"balance\":70})",
                "T3: r(ledger/1, {\"id\":1}) w(ledger/1, {\"balance\":70,\"id\":1}) r(ledger_audit/1, null) w(ledger_audit/1, {\"account\":1,\"balance\":70,\"id\":1})");
        assertThat(recorded.history().sessionOf(recorded.history().transactions().get(2)).isImplicit())
                .as("a session of its own").isTrue();
        assertThat(recorded.notModelled()).isEmpty();
        assertThat(RecordedRun.check(recorded, IsolationLevel.SERIALIZABLE).isSatisfied()).isTrue();
    }

    @Test
    void aLostUpdateOnATableWithATriggerIsCaught() throws Exception {
        RecordedHistory recorded = RecordedRun.record("lost update with trigger", db().dataSource(), this::lostUpdate);

        assertThat(recorded.notModelled()).isEmpty();
        CheckResult result = RecordedRun.check(recorded, IsolationLevel.SERIALIZABLE);
        assertThat(result.isSatisfied()).as("%s", recorded.history().transactions()).isFalse();
        assertThat(RecordedRun.cycleTypes(result)).isNotEmpty();
    }

    @Test
    void withoutLogicalDecodingTheSameAnomalyIsNeverPassedSilently() throws Exception {
        TestDatabase plain = statementsOnly();
        ledger(plain);
        RecordedHistory recorded = RecordedRun.record("lost update, statements", plain.dataSource(), this::lostUpdate);

        boolean caught = !RecordedRun.check(recorded, IsolationLevel.SERIALIZABLE).isSatisfied();
        assertThat(caught || !recorded.notModelled().isEmpty()).as("caught, or what was left out is listed").isTrue();
        assertThat(recorded.writesFrom()).singleElement().asString().contains("not available", "wal_level");
    }

    /** Two transfers at READ COMMITTED, both read the balance before either writes it back: one is lost. */
    private void lostUpdate(DataSource ds) throws Exception {
        try (Connection a = ds.getConnection(); Connection b = ds.getConnection()) {
            for (Connection c : List.of(a, b)) {
                c.setAutoCommit(false);
                c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            }
            int seenByA = balance(a, 1);
            int seenByB = balance(b, 1);
            setBalance(a, 1, seenByA - 10);
            a.commit();
            setBalance(b, 1, seenByB - 20);
            b.commit();
        }
    }

    @Test
    void rowsATriggerWroteAreReadAsTheTransactionLeftThemOrNotChecked() throws Exception {
        RecordedHistory recorded = RecordedRun.record("trigger rows read", db().dataSource(), ds -> {
            try (Connection c = ds.getConnection()) {
                // Met between transactions: its key is looked up, and its reads are recorded.
                c.createStatement().executeQuery("SELECT * FROM ledger_audit").close();
                c.setAutoCommit(false);
                setBalance(c, 1, 60);
                // Its own row, after the statement that wrote it: kept.
                assertThat(balance(c, 1)).isEqualTo(60);
                // The trigger's row: written by that statement or the next, as the log tells it.
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM ledger_audit")) {
                    rs.next();
                    assertThat(rs.getInt(1)).isEqualTo(1);
                }
                setBalance(c, 2, 140);
                c.commit();
            }
        });

        assertThat(recorded.history().transactions()).last().asString()
                .contains("w(ledger/1, {\"balance\":60,\"id\":1}) r(ledger_audit/1, null) w(ledger_audit/1", "r(ledger/1, {\"balance\":60})")
                .doesNotContain("predicate(ledger_audit");
        assertThat(recorded.notModelled()).extracting(Object::toString).singleElement().asString()
                .contains("a trigger", "not checked");
        assertThat(RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();
    }

    @Test
    void autoCommittedWritesAreMatchedToTheirStatements() throws Exception {
        RecordedHistory recorded = RecordedRun.record("auto-commit", db().dataSource(), ds -> {
            try (Connection c = ds.getConnection()) {
                for (int n = 1; n <= 5; n++) {
                    setBalance(c, 2, n);
                    assertThat(balance(c, 2)).isEqualTo(n);
                }
            }
        });

        List<String> sessions = new ArrayList<>();
        recorded.history().transactions().forEach(t -> sessions.add(recorded.history().sessionOf(t).name()));
        assertThat(sessions).as("every write is its statement's, none a transaction of no session")
                .containsOnly("connection-1").hasSize(10);
        assertThat(recorded.notModelled()).isEmpty();
        assertThat(RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();
    }

    /** A role with the right to replicate, not a superuser: the slot, the log and the values all work. */
    @Test
    void aReplicationRoleThatIsNoSuperuserRecordsFromTheLog() throws Exception {
        db().run("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'replicator') THEN"
                        + " CREATE ROLE replicator LOGIN REPLICATION; END IF; END $$",
                "GRANT ALL ON ledger, ledger_audit TO replicator", "GRANT ALL ON SEQUENCE ledger_audit_id_seq TO replicator");
        RecordedHistory recorded = RecordedRun.record("replicator", db().as("replicator"), ds -> {
            try (Connection c = ds.getConnection()) {
                setBalance(c, 2, 7);
                assertThat(balance(c, 2)).isEqualTo(7);
            }
        });

        assertThat(recorded.writesFrom()).first().asString().contains("logical decoding (replication slot");
        assertThat(recorded.history().transactions()).extracting(Object::toString)
                .anySatisfy(t -> assertThat(t).contains("w(ledger/2, {\"balance\":7,\"id\":2})", "w(ledger_audit/"));
        assertThat(recorded.notModelled()).isEmpty();
    }

    @Test
    void twoDataSourcesOfOneDatabaseShareOneSlot() throws Exception {
        db().run("ALTER TABLE ledger REPLICA IDENTITY FULL");
        DataSource other = dev.isocheck.Isocheck.record(db().dataSource());
        RecordedHistory recorded = RecordedRun.record("two pools", db().dataSource(), ds -> {
            try (Connection c = ds.getConnection()) {
                c.setAutoCommit(false);
                setBalance(c, 1, 40);
                c.commit();
            }
            try (Connection c = other.getConnection()) {
                c.setAutoCommit(false);
                assertThat(balance(c, 1)).isEqualTo(40);
                setBalance(c, 1, 30);
                c.commit();
            }
            assertThat(slots()).hasSize(1);
        });

        assertThat(recorded.writesFrom()).as("one slot").filteredOn(w -> w.startsWith("writes recorded")).hasSize(1);
        assertThat(recorded.writesFrom()).contains("2 of 2 transactions found in the log by the rows they changed");
        assertThat(recorded.history().transactions()).as("every transaction of the log matched, none twice")
                .allSatisfy(t -> assertThat(recorded.history().sessionOf(t).isImplicit()).isFalse());
        assertThat(RecordedRun.check(recorded, IsolationLevel.STRICT_SERIALIZABLE).isSatisfied()).isTrue();
    }

    @Test
    void theSlotIsDroppedWhenTheRecordingFinishesAndTheReportSaysHowWritesWereRecorded() throws Exception {
        RecordedHistory recorded = RecordedRun.record("slot", db().dataSource(), ds -> {
            assertThat(slots()).as("opened before the test's first transaction, not before").isEmpty();
            try (Connection c = ds.getConnection()) {
                setBalance(c, 1, 5);
            }
            assertThat(slots()).singleElement().asString().startsWith("isocheck_");
        });

        assertThat(slots()).isEmpty();
        assertThat(recorded.writesFrom()).first().asString()
                .startsWith("writes recorded from PostgreSQL's logical decoding (replication slot isocheck_");
        assertThat(recorded.writesFrom()).contains("1 of 1 transactions found in the log by the rows they changed");
    }

    @Test
    void aRecordingThatFailsStillDropsItsSlot() {
        try {
            RecordedRun.record("failing", db().dataSource(), ds -> {
                balance(ds, 1);
                throw new IllegalStateException("the test failed");
            });
        } catch (Exception expected) {
            assertThat(expected).hasMessage("the test failed");
        }
        assertThat(slots()).isEmpty();
    }

    private static List<String> slots() {
        List<String> names = new ArrayList<>();
        try (Connection c = db().dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT slot_name FROM pg_replication_slots")) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return names;
    }

    static TestDatabase statementsOnly() {
        try {
            return PostgresDatabase.get();
        } catch (Throwable e) {
            throw new IllegalStateException("embedded PostgreSQL did not start", e);
        }
    }

    static int balance(DataSource ds, int id) throws SQLException {
        try (Connection c = ds.getConnection()) {
            return balance(c, id);
        }
    }

    static int balance(Connection c, int id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT balance FROM ledger WHERE id = ?")) {
            s.setInt(1, id);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    static void setBalance(Connection c, int id, int balance) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("UPDATE ledger SET balance = ? WHERE id = ?")) {
            s.setInt(1, balance);
            s.setInt(2, id);
            assertThat(s.executeUpdate()).isOne();
        }
    }
}
