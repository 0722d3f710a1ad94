package dev.isocheck.examples.jooq;

import dev.isocheck.Isocheck;
import dev.isocheck.examples.jooq.Bank.Isolation;
import dev.isocheck.examples.jooq.Bank.Locking;
import java.util.Arrays;
import java.util.List;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;

/**
 * The bank's tests' scenario: Alice has a checking account with 60 and a savings account with 40,
 * and two requests arrive at the same moment: two fees charged to her checking account, or two
 * withdrawals of 80, one from each account. The accounts are opened through the recorded
 * {@code DataSource}, so that the history holds jOOQ's {@code INSERT ... RETURNING} that wrote the
 * rows the requests then read ({@link Opening#RECORDED}), or before the recording starts
 * ({@link Opening#UNRECORDED}).
 *
 * <p>The two requests run plainly, each on a thread the test starts, with no latch: the tests are
 * {@code @InterleavingTest}s, whose schedules hold the threads at each statement and commit and
 * let them through in the orders that overlap them (and in the orders that do not). A test
 * creates the scenario in its {@code @BeforeEach}, so that every schedule starts from a fresh
 * table and the same two accounts.
 */
final class TwoRequestsAtOnce {

    static final String ALICE = "alice";

    private final DSLContext recorded;
    private final Bank unrecorded;
    private final long checking;
    private final long savings;

    /**
     * A fresh {@code account} table in {@code database}, Alice's accounts opened in it as
     * {@code opening} says.
     */
    TwoRequestsAtOnce(DataSource database, Opening opening) {
        DSLContext plain = DSL.using(database, SQLDialect.POSTGRES);
        Bank.createSchema(plain);
        unrecorded = new Bank(plain, Isolation.READ_COMMITTED, Locking.NONE);
        // What a team's test adds: jOOQ over the recorded DataSource.
        recorded = DSL.using(Isocheck.record(database), SQLDialect.POSTGRES);
        Bank opener = opening == Opening.RECORDED ? new Bank(recorded, Isolation.READ_COMMITTED, Locking.NONE) : unrecorded;
        checking = opener.open(ALICE, 60);
        savings = opener.open(ALICE, 40);
    }

    /** Who opens Alice's accounts. */
    enum Opening {

        /** A bank on the recorded {@code DataSource}, as the bank under test: the {@code INSERT ... RETURNING}s are recorded. */
        RECORDED,

        /**
         * A bank on the plain {@code DataSource}, before the test's first recorded transaction
         * (where, with logical decoding, the test's slot starts): the rows' values are unknown
         * initial values to the check.
         */
        UNRECORDED
    }

    /** The bank under test: jOOQ over the recorded {@code DataSource}, at {@code isolation}, reading as {@code locking} says. */
    Bank bank(Isolation isolation, Locking locking) {
        return new Bank(recorded, isolation, locking);
    }

    /** A fee of 5 (the card's) and one of 3 (the account's) charged to checking at once by {@code bank}. */
    List<Throwable> twoFees(Bank bank) throws InterruptedException {
        return concurrently(
                "card-fee", () -> bank.charge(checking, 5),
                "account-fee", () -> bank.charge(checking, 3));
    }

    /** 80 taken out of checking and 80 out of savings at once by {@code bank}: 100 cover one of them only. */
    List<Throwable> twoWithdrawals(Bank bank) throws InterruptedException {
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
