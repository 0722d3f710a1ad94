package dev.isocheck.examples.jooq;

import dev.isocheck.Isocheck;
import dev.isocheck.examples.jooq.Bank.Isolation;
import dev.isocheck.examples.jooq.Bank.Locking;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

/**
 * The bank's tests' scenario: Alice has a checking account with 60 and a savings account with 40,
 * and two requests arrive at the same moment: two fees charged to her checking account, or two
 * withdrawals of 80, one from each account. The accounts are opened by the bank under test, so
 * that the history holds jOOQ's {@code INSERT ... RETURNING} that wrote the rows the requests then
 * read ({@link Opening#RECORDED}), or before the recording starts ({@link Opening#UNRECORDED}).
 *
 * <p>The requests overlap on every run. With plain reads the fraud screen holds each request until
 * both have read ({@link Rendezvous}). With {@code forUpdate()} the second request cannot read
 * before the first commits, so the screen holds the first until the second is waiting for its
 * lock, as the server says ({@code pg_stat_activity}).
 */
final class TwoRequestsAtOnce {

    static final String ALICE = "alice";

    private final DataSource database;
    private final Bank unrecorded;
    private final Bank bank;
    private final long checking;
    private final long savings;

    /**
     * A fresh {@code account} table in {@code database}, Alice's accounts opened in it by the bank
     * under test, and that bank on it, recorded, at {@code isolation}, reading as {@code locking}
     * says.
     */
    TwoRequestsAtOnce(DataSource database, Isolation isolation, Locking locking) {
        this(database, isolation, locking, Opening.RECORDED);
    }

    /**
     * A fresh {@code account} table in {@code database}, Alice's accounts opened in it as
     * {@code opening} says, and the bank under test on it, recorded, at {@code isolation}, reading
     * as {@code locking} says.
     */
    TwoRequestsAtOnce(DataSource database, Isolation isolation, Locking locking, Opening opening) {
        this.database = database;
        DSLContext plain = DSL.using(database, SQLDialect.POSTGRES);
        Bank.createSchema(plain);
        unrecorded = new Bank(plain, Isolation.READ_COMMITTED, Locking.NONE, FraudScreen.NONE);
        // What a team's test adds: jOOQ over the recorded DataSource.
        DSLContext recorded = DSL.using(Isocheck.record(database), SQLDialect.POSTGRES);
        bank = new Bank(recorded, isolation, locking, locking == Locking.FOR_UPDATE ? firstWaitsForTheSecondsLock() : bothRead());
        Bank opener = opening == Opening.RECORDED ? bank : unrecorded;
        checking = opener.open(ALICE, 60);
        savings = opener.open(ALICE, 40);
    }

    /** Who opens Alice's accounts. */
    enum Opening {

        /** The bank under test: the {@code INSERT ... RETURNING}s are recorded. */
        RECORDED,

        /**
         * A bank on the plain {@code DataSource}, before the test's first recorded transaction
         * (where, with logical decoding, the test's slot starts): the rows' values are unknown
         * initial values to the check.
         */
        UNRECORDED
    }

    private static FraudScreen bothRead() {
        Rendezvous rendezvous = new Rendezvous(2);
        return (account, amount) -> rendezvous.arrive();
    }

    /** The first request screened waits until another backend waits for a lock (ten seconds at most). */
    private FraudScreen firstWaitsForTheSecondsLock() {
        AtomicBoolean first = new AtomicBoolean(true);
        return (account, amount) -> {
            if (first.getAndSet(false)) {
                awaitALockWait();
            }
        };
    }

    private void awaitALockWait() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        try (Connection c = database.getConnection();
                PreparedStatement waiting = c.prepareStatement(
                        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()")) {
            while (System.nanoTime() < deadline) {
                try (ResultSet rows = waiting.executeQuery()) {
                    if (rows.next() && rows.getInt(1) > 0) {
                        return;
                    }
                }
                Thread.sleep(10);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Alice's checking account. */
    long checking() {
        return checking;
    }

    /** A fee of 5 (the card's) and one of 3 (the account's) charged to checking at once. */
    List<Throwable> twoFees() throws InterruptedException {
        return concurrently(
                "card-fee", () -> bank.charge(checking, 5),
                "account-fee", () -> bank.charge(checking, 3));
    }

    /** 80 taken out of checking and 80 out of savings at once: 100 cover one of them only. */
    List<Throwable> twoWithdrawals() throws InterruptedException {
        return concurrently(
                "from-checking", () -> bank.withdraw(ALICE, checking, 80),
                "from-savings", () -> bank.withdraw(ALICE, savings, 80));
    }

    /** Checking's balance, read without recording. */
    int checkingBalance() {
        return unrecorded.balance(checking);
    }

    /** What Alice's accounts hold together, read without recording. */
    int total() {
        return unrecorded.total(ALICE);
    }

    /** How many requests the database made the bank under test retry. */
    int retries() {
        return bank.retries();
    }

    /**
     * Runs the two requests on threads of their own, named for the report, started here so that
     * they inherit the test's recording; for each, {@code null} when it went through, or what it
     * threw.
     */
    private static List<Throwable> concurrently(String oneName, Runnable one, String otherName, Runnable other)
            throws InterruptedException {
        Throwable[] ends = new Throwable[2];
        Thread a = new Thread(() -> ends[0] = run(one), oneName);
        Thread b = new Thread(() -> ends[1] = run(other), otherName);
        a.start();
        b.start();
        a.join();
        b.join();
        // join() makes each thread's write of its outcome visible here.
        return Arrays.asList(ends);
    }

    private static Throwable run(Runnable request) {
        try {
            request.run();
            return null;
        } catch (Throwable e) {
            return e;
        }
    }
}
