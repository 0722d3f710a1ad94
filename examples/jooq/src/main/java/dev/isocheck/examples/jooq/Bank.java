package dev.isocheck.examples.jooq;

import static dev.isocheck.examples.jooq.db.Tables.ACCOUNT;

import dev.isocheck.examples.jooq.db.tables.records.AccountRecord;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.DSLContext;
import org.jooq.Result;
import org.jooq.SelectConditionStep;
import org.jooq.SelectSeekStep1;
import org.jooq.TransactionalCallable;
import org.jooq.exception.DataAccessException;

/**
 * A bank written with jOOQ as its manual teaches: classes generated from the schema
 * ({@link dev.isocheck.examples.jooq.db.Tables#ACCOUNT}), one {@link DSLContext} over the
 * application's {@code DataSource}, and each request in {@link DSLContext#transactionResult}.
 *
 * <p>Both of its requests that change a balance read it and write the balance they computed from
 * what they read: a read-modify-write in the application. {@link #charge} takes a fee: two at once on one account can lose one (a lost
 * update, at READ COMMITTED). {@link #withdraw} keeps the bank's rule, that a customer may overdraw
 * one account as long as their accounts together stay at or above zero: two withdrawals at once
 * from two accounts of one customer can both pass the check that only one should (write skew, at
 * READ COMMITTED and REPEATABLE READ). The database's stronger levels (REPEATABLE READ for the
 * first, SERIALIZABLE for both), or reading {@link Locking#FOR_UPDATE}, prevent them.
 */
public final class Bank {

    /** How often a request is tried before its serialization failure reaches the caller. */
    public static final int ATTEMPTS = 10;

    private final DSLContext dsl;
    private final Isolation isolation;
    private final Locking locking;
    private final AtomicInteger retries = new AtomicInteger();

    /**
     * A bank kept in {@code dsl}'s database.
     *
     * @param dsl         jOOQ over the application's {@code DataSource}, in the PostgreSQL dialect
     * @param isolation   the level every request's transaction runs at
     * @param locking     how a fee or a withdrawal reads the accounts it decides on
     */
    public Bank(DSLContext dsl, Isolation isolation, Locking locking) {
        this.dsl = Objects.requireNonNull(dsl, "dsl is null");
        this.isolation = Objects.requireNonNull(isolation, "isolation is null");
        this.locking = Objects.requireNonNull(locking, "locking is null");
    }

    /**
     * Creates the {@code account} table from {@code db/schema.sql} (the script jOOQ generated the
     * classes from), replacing any there was.
     */
    public static void createSchema(DSLContext dsl) {
        dsl.dropTableIfExists(ACCOUNT).execute();
        dsl.execute(schemaScript());
    }

    private static String schemaScript() {
        try (InputStream in = Bank.class.getResourceAsStream("/db/schema.sql")) {
            if (in == null) {
                throw new IllegalStateException("db/schema.sql is not on the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Opens an account for {@code owner} with {@code balance} in it.
     *
     * @return the account's number, which the database assigns (jOOQ's
     *         {@code INSERT ... RETURNING})
     */
    public long open(String owner, int balance) {
        return inTransaction(trx -> trx.dsl()
                .insertInto(ACCOUNT, ACCOUNT.OWNER, ACCOUNT.BALANCE)
                .values(owner, balance)
                .returningResult(ACCOUNT.ID)
                .fetchSingle()
                .value1());
    }

    /**
     * Charges {@code fee} to {@code account}: reads its balance and writes back the balance less
     * the fee (a fee may overdraw). Two charges at once at READ COMMITTED can both read the same
     * balance, and the second write then loses the first fee (a lost update); with
     * {@link Locking#FOR_UPDATE} the second charge waits for the first and reads its balance.
     */
    public void charge(long account, int fee) {
        inTransaction(trx -> {
            DSLContext tx = trx.dsl();
            SelectConditionStep<AccountRecord> select = tx.selectFrom(ACCOUNT).where(ACCOUNT.ID.eq(account));
            AccountRecord read = locking == Locking.FOR_UPDATE ? select.forUpdate().fetchOne() : select.fetchOne();
            if (read == null) {
                throw new IllegalArgumentException("no account " + account);
            }
            tx.update(ACCOUNT)
                    .set(ACCOUNT.BALANCE, read.getBalance() - fee)
                    .where(ACCOUNT.ID.eq(account))
                    .execute();
            return null;
        });
    }

    /**
     * Takes {@code amount} out of {@code customer}'s {@code account}, which may go below zero as
     * long as the customer's accounts together stay at or above zero. Two withdrawals at once from
     * two accounts of one customer can each see the other account untouched and both pass the
     * check (write skew, at READ COMMITTED and REPEATABLE READ); with {@link Locking#FOR_UPDATE}
     * the second waits for the first and sees what it took.
     *
     * @throws InsufficientFunds   when the customer's accounts do not hold {@code amount} together
     * @throws IllegalArgumentException when {@code account} is not one of the customer's
     * @throws DataAccessException when the database fails, a serialization failure included once
     *                             {@value #ATTEMPTS} attempts are spent
     */
    public void withdraw(String customer, long account, int amount) {
        inTransaction(trx -> {
            DSLContext tx = trx.dsl();
            Result<AccountRecord> accounts = customersAccounts(tx, customer);
            AccountRecord from = accounts.stream().filter(a -> a.getId() == account).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("account " + account + " is not " + customer + "'s"));
            int total = accounts.stream().mapToInt(AccountRecord::getBalance).sum();
            if (total < amount) {
                throw new InsufficientFunds(customer, total, amount);
            }
            tx.update(ACCOUNT)
                    .set(ACCOUNT.BALANCE, from.getBalance() - amount)
                    .where(ACCOUNT.ID.eq(account))
                    .execute();
            return null;
        });
    }

    /**
     * The customer's accounts in number order, in one query; with {@link Locking#FOR_UPDATE},
     * locked in that order, so that two withdrawals of one customer queue on the first account
     * rather than deadlock.
     */
    private Result<AccountRecord> customersAccounts(DSLContext tx, String customer) {
        SelectSeekStep1<AccountRecord, Long> select = tx.selectFrom(ACCOUNT).where(ACCOUNT.OWNER.eq(customer)).orderBy(ACCOUNT.ID);
        return locking == Locking.FOR_UPDATE ? select.forUpdate().fetch() : select.fetch();
    }

    /** The balance of {@code account}. */
    public int balance(long account) {
        return inTransaction(trx -> trx.dsl().selectFrom(ACCOUNT).where(ACCOUNT.ID.eq(account)).fetchSingle().getBalance());
    }

    /** What {@code owner}'s accounts hold together. */
    public int total(String owner) {
        return inTransaction(trx -> trx.dsl().selectFrom(ACCOUNT).where(ACCOUNT.OWNER.eq(owner)).fetch()
                .stream().mapToInt(AccountRecord::getBalance).sum());
    }

    /** How many requests the database made the bank try again, so far. */
    public int retries() {
        return retries.get();
    }

    /**
     * Runs {@code work} in a jOOQ transaction at the bank's level and, when the database aborts it
     * to keep transactions isolated (SQLSTATE 40001, or 40P01 for a deadlock), runs it again from
     * the start, as every application at REPEATABLE READ or SERIALIZABLE on PostgreSQL must: jOOQ
     * does not retry by itself.
     */
    private <T> T inTransaction(TransactionalCallable<T> work) {
        for (int attempt = 1; ; attempt++) {
            try {
                return dsl.transactionResult(trx -> {
                    // jOOQ 3.19 takes no isolation level: set it on the transaction's connection
                    // before its first statement (pgjdbc refuses once a transaction has begun).
                    trx.dsl().connection(c -> c.setTransactionIsolation(isolation.jdbcLevel()));
                    return work.run(trx);
                });
            } catch (DataAccessException e) {
                if (!isSerializationFailure(e) || attempt == ATTEMPTS) {
                    throw e;
                }
                retries.incrementAndGet();
                pause(attempt);
            }
        }
    }

    private static boolean isSerializationFailure(DataAccessException e) {
        return "40001".equals(e.sqlState()) || "40P01".equals(e.sqlState());
    }

    /** A little later, so that two retrying requests part ways. */
    private static void pause(int attempt) {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(1, 10L * attempt));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The SQL isolation levels the bank can run at, as JDBC names them. */
    public enum Isolation {

        /** Each statement sees what was committed when it started (PostgreSQL's default). */
        READ_COMMITTED(Connection.TRANSACTION_READ_COMMITTED),

        /** One snapshot per transaction: snapshot isolation on PostgreSQL. */
        REPEATABLE_READ(Connection.TRANSACTION_REPEATABLE_READ),

        /** As if one at a time: PostgreSQL aborts one transaction (40001) where they would not be. */
        SERIALIZABLE(Connection.TRANSACTION_SERIALIZABLE);

        private final int jdbcLevel;

        Isolation(int jdbcLevel) {
            this.jdbcLevel = jdbcLevel;
        }

        /** The {@link Connection} constant. */
        public int jdbcLevel() {
            return jdbcLevel;
        }
    }

    /** How a fee or a withdrawal reads the accounts it decides on. */
    public enum Locking {

        /** A plain query: nothing stops another request from changing them before this one writes. */
        NONE,

        /**
         * {@code SELECT ... FOR UPDATE} (jOOQ's {@code forUpdate()}): the rows read stay locked until
         * the request commits, so a second request on them waits, then reads the first one's
         * balances, even at READ COMMITTED.
         */
        FOR_UPDATE
    }
}
