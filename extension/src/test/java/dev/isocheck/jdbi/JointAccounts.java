package dev.isocheck.jdbi;

import dev.isocheck.Isocheck;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.transaction.TransactionIsolationLevel;
import org.jdbi.v3.sqlobject.SqlObjectPlugin;

/**
 * Alice's and Bob's accounts, 100 each, in a fresh database of their own (H2 unless given one), used through Jdbi on
 * a recorded data source. The bank lets either withdraw as long as the two accounts together
 * cover it: each reads both balances, then withdraws from their own account. Run concurrently
 * the two withdrawals are the write skew of the overdraft example.
 */
public final class JointAccounts {

    /** Alice's account. */
    public static final int ALICE = 1;
    /** Bob's account. */
    public static final int BOB = 2;

    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static final long WAIT_SECONDS = 10;

    private final DataSource plain;
    private final Jdbi jdbi;
    private final TransactionIsolationLevel isolation;

    /** Fresh accounts in H2, the SqlObject plugin installed and, when {@code named}, the isocheck plugin. */
    public JointAccounts(boolean named) {
        this(freshH2(), named, TransactionIsolationLevel.UNKNOWN);
    }

    /**
     * The accounts in an empty database, its tables created outside the recording; transactions at
     * {@code isolation} ({@link TransactionIsolationLevel#UNKNOWN}: the database's default).
     */
    public JointAccounts(DataSource empty, boolean named, TransactionIsolationLevel isolation) {
        plain = empty;
        this.isolation = isolation;
        run("CREATE TABLE accounts (id INT PRIMARY KEY, owner VARCHAR(20) NOT NULL, balance INT NOT NULL)",
                "INSERT INTO accounts VALUES (1, 'alice', 100), (2, 'bob', 100)");
        jdbi = Jdbi.create(Isocheck.record(plain)).installPlugin(new SqlObjectPlugin());
        if (named) {
            jdbi.installPlugin(new IsocheckPlugin());
        }
    }

    private static DataSource freshH2() {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:accounts-" + DATABASES.incrementAndGet() + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000");
        return h2;
    }

    /** The Jdbi on the recorded data source. */
    public Jdbi jdbi() {
        return jdbi;
    }

    /** The database, not recorded. */
    public DataSource plain() {
        return plain;
    }

    /**
     * {@code from} withdraws {@code amount} in one transaction if the two accounts together cover
     * it, through {@link AccountDao}; {@code afterRead} runs between the reads and the write.
     */
    public boolean withdraw(int from, int other, int amount, Runnable afterRead) {
        HandleCallback<Boolean, RuntimeException> withdrawal = handle -> {
            AccountDao accounts = handle.attach(AccountDao.class);
            int total = accounts.balance(from) + accounts.balance(other);
            afterRead.run();
            if (total < amount) {
                return false;
            }
            accounts.withdraw(from, amount);
            return true;
        };
        return isolation == TransactionIsolationLevel.UNKNOWN ? jdbi.inTransaction(withdrawal)
                : jdbi.inTransaction(isolation, withdrawal);
    }

    /**
     * Alice and Bob withdraw 150 each at once, on threads named after them: both read before
     * either writes, so each misses the other's withdrawal. Latches order the steps, Alice commits
     * first, so that the history does not depend on scheduling.
     */
    public void writeSkew() throws Exception {
        CountDownLatch aliceRead = new CountDownLatch(1);
        CountDownLatch bobRead = new CountDownLatch(1);
        CountDownLatch aliceCommitted = new CountDownLatch(1);
        CompletableFuture<Boolean> alice = new CompletableFuture<>();
        CompletableFuture<Boolean> bob = new CompletableFuture<>();
        new Thread(() -> complete(alice, () -> {
            try {
                return withdraw(ALICE, BOB, 150, () -> {
                    aliceRead.countDown();
                    await(bobRead);
                });
            } finally {
                aliceCommitted.countDown();
            }
        }), "alice").start();
        new Thread(() -> complete(bob, () -> {
            await(aliceRead);
            return withdraw(BOB, ALICE, 150, () -> {
                bobRead.countDown();
                await(aliceCommitted);
            });
        }), "bob").start();
        alice.get(WAIT_SECONDS, TimeUnit.SECONDS);
        bob.get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    private static void complete(CompletableFuture<Boolean> future, java.util.function.Supplier<Boolean> work) {
        try {
            future.complete(work.get());
        } catch (RuntimeException | Error e) {
            future.completeExceptionally(e);
        }
    }

    private void run(String... sql) {
        try (Connection c = plain.getConnection(); Statement s = c.createStatement()) {
            for (String statement : sql) {
                s.execute(statement);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the other withdrawal did not get there in " + WAIT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
