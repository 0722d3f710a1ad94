package dev.isocheck;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;

/**
 * The rota of the write-skew example in a fresh H2 database of its own, reached through a recorded
 * {@link DataSource}: Alice and Bob are on call, and each may go off call when the other is on.
 * The extension's tests record real JDBC with it.
 */
final class Doctors {

    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static final long WAIT_SECONDS = 10;

    private final DataSource recorded;

    /** A fresh database with Alice and Bob on call; setting it up is not recorded. */
    Doctors() {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:doctors-" + DATABASES.incrementAndGet() + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000");
        try (Connection c = h2.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE doctors (name VARCHAR(20) PRIMARY KEY, on_call BOOLEAN NOT NULL)");
            s.execute("INSERT INTO doctors VALUES ('alice', TRUE), ('bob', TRUE)");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        recorded = Isocheck.record(h2);
    }

    /** {@code doctor} goes off call if {@code other} is on call, in one transaction on a connection of its own. */
    void goOffCall(String doctor, String other) {
        goOffCall(doctor, other, () -> { });
    }

    /**
     * Alice and Bob go off call at once, each on a connection of its own run by {@code forAlice} and
     * {@code forBob}: both read before either writes, so each misses the other's update (write skew).
     * The steps are ordered by latches, Alice commits first, so that the history, and the messages
     * the tests compare, do not depend on scheduling.
     */
    void writeSkew(Executor forAlice, Executor forBob) throws Exception {
        CountDownLatch aliceRead = new CountDownLatch(1);
        CountDownLatch bobRead = new CountDownLatch(1);
        CountDownLatch aliceCommitted = new CountDownLatch(1);
        CompletableFuture<Void> alice = CompletableFuture.runAsync(() -> {
            goOffCall("alice", "bob", () -> {
                aliceRead.countDown();
                await(bobRead);
            });
            aliceCommitted.countDown();
        }, forAlice);
        CompletableFuture<Void> bob = CompletableFuture.runAsync(() -> {
            await(aliceRead);
            goOffCall("bob", "alice", () -> {
                bobRead.countDown();
                await(aliceCommitted);
            });
        }, forBob);
        alice.get(WAIT_SECONDS, TimeUnit.SECONDS);
        bob.get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    /** {@link #writeSkew} on two threads started for it, named {@code alice} and {@code bob}. */
    void writeSkewOnTwoThreads() throws Exception {
        writeSkew(task -> new Thread(task, "alice").start(), task -> new Thread(task, "bob").start());
    }

    /**
     * Starts {@code doctor}'s transaction and reads whether {@code other} is on call, leaving the
     * rest for later: for tests whose transactions span a test's phases.
     */
    OpenTransaction startGoingOffCall(String doctor, String other) throws SQLException {
        Connection c = recorded.getConnection();
        c.setAutoCommit(false);
        return new OpenTransaction(c, doctor, isOnCall(c, other));
    }

    /** A transaction that has read and is yet to write and commit. */
    record OpenTransaction(Connection connection, String doctor, boolean otherOnCall) {

        /** Goes off call if the other was on call, commits and closes the connection. */
        void finish() throws SQLException {
            try (connection) {
                if (otherOnCall) {
                    setOffCall(connection, doctor);
                }
                connection.commit();
            }
        }
    }

    private void goOffCall(String doctor, String other, Runnable afterRead) {
        try (Connection c = recorded.getConnection()) {
            c.setAutoCommit(false);
            boolean otherOnCall = isOnCall(c, other);
            afterRead.run();
            if (otherOnCall) {
                setOffCall(c, doctor);
            }
            c.commit();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean isOnCall(Connection c, String doctor) throws SQLException {
        try (PreparedStatement select = c.prepareStatement("SELECT on_call FROM doctors WHERE name = ?")) {
            select.setString(1, doctor);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() && rows.getBoolean(1);
            }
        }
    }

    private static void setOffCall(Connection c, String doctor) throws SQLException {
        try (PreparedStatement update = c.prepareStatement("UPDATE doctors SET on_call = ? WHERE name = ?")) {
            update.setBoolean(1, false);
            update.setString(2, doctor);
            update.executeUpdate();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the other doctor's transaction did not get there in " + WAIT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
