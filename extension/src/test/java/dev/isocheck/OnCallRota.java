package dev.isocheck;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * Two doctors on call, each of whom goes off call when the rota still has two on call, checked the
 * textbook way: by counting the doctors on call, a query over a predicate. Both count before
 * either writes (a latch), then both write and commit at once, retrying on a serialization failure
 * (SQLSTATE 40001). A database that keeps reads locked until commit makes one of them wait or
 * fail, never hang: no step waits for the other's commit.
 */
final class OnCallRota {

    private static final long WAIT_SECONDS = 10;

    private final DataSource recorded;
    private final int isolation;
    private final String count;

    /**
     * @param plain     an empty database, set up here without recording
     * @param isolation the isolation level both transactions run at
     * @param count     the query that counts the doctors on call: an aggregate, or rows to count
     */
    OnCallRota(DataSource plain, int isolation, String count) {
        try (Connection c = plain.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS doctors");
            s.execute("CREATE TABLE doctors (name VARCHAR(20) PRIMARY KEY, on_call BOOLEAN NOT NULL)");
            s.execute("INSERT INTO doctors VALUES ('alice', TRUE), ('bob', TRUE)");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        this.recorded = Isocheck.record(plain);
        this.isolation = isolation;
        this.count = count;
    }

    /** Alice and Bob each go off call if both are on call; returns how many are left on call. */
    int bothGoOffCall() throws Exception {
        CountDownLatch bothCounted = new CountDownLatch(2);
        CompletableFuture<Void> alice = CompletableFuture.runAsync(() -> goOffCall("alice", bothCounted),
                task -> new Thread(task, "alice").start());
        CompletableFuture<Void> bob = CompletableFuture.runAsync(() -> goOffCall("bob", bothCounted),
                task -> new Thread(task, "bob").start());
        alice.get(WAIT_SECONDS * 3, TimeUnit.SECONDS);
        bob.get(WAIT_SECONDS * 3, TimeUnit.SECONDS);
        try (Connection c = recorded.getConnection()) {
            return onCall(c);
        }
    }

    private void goOffCall(String doctor, CountDownLatch bothCounted) {
        boolean first = true;
        try (Connection c = recorded.getConnection()) {
            c.setAutoCommit(false);
            c.setTransactionIsolation(isolation);
            while (true) {
                try {
                    int onCall = onCall(c);
                    if (first) {
                        first = false;
                        bothCounted.countDown();
                        await(bothCounted);
                    }
                    if (onCall >= 2) {
                        try (PreparedStatement update = c.prepareStatement("UPDATE doctors SET on_call = FALSE WHERE name = ?")) {
                            update.setString(1, doctor);
                            update.executeUpdate();
                        }
                    }
                    c.commit();
                    return;
                } catch (SQLException e) {
                    c.rollback();
                    if (!"40001".equals(e.getSQLState())) {
                        throw e;
                    }
                    // Serialization failure: the retry counts again and sees the other doctor's commit.
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private int onCall(Connection c) throws SQLException {
        try (PreparedStatement select = c.prepareStatement(count); ResultSet rows = select.executeQuery()) {
            if (count.toLowerCase(java.util.Locale.ROOT).contains("count(")) {
                rows.next();
                return rows.getInt(1);
            }
            int n = 0;
            while (rows.next()) {
                n++;
            }
            return n;
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the other doctor did not count in " + WAIT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
