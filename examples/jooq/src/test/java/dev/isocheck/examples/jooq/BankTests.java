package dev.isocheck.examples.jooq;

import static dev.isocheck.assertj.IsocheckAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.InterleavingTest;
import dev.isocheck.Recording;
import dev.isocheck.SerializableCheck;
import dev.isocheck.examples.jooq.Bank.Isolation;
import dev.isocheck.examples.jooq.Bank.Locking;
import dev.isocheck.examples.jooq.TwoRequestsAtOnce.Opening;
import java.util.Objects;
import org.junit.jupiter.api.BeforeEach;

/**
 * The jOOQ bank's concurrency tests, the ones a team keeps: the same two requests at once as
 * {@link BankAnomalyTests}, at the level or with the {@code forUpdate()} that prevents each
 * anomaly, in every schedule explored. Every transaction, the accounts' {@code INSERT ... RETURNING}
 * included, is recorded (writes from logical decoding) and checked at serializable, and each test
 * asserts that the recording left nothing out, so that its pass covers every statement jOOQ sent.
 *
 * <p>Eight schedules each rather than the default twenty: every run recreates the table and opens
 * Alice's accounts and a replication slot, and round robin with seven random walks already takes
 * the requests one after the other, either first, and interleaved.
 */
@SerializableCheck
class BankTests {

    TwoRequestsAtOnce alice;

    @BeforeEach
    void aliceOpensHerAccounts() {
        alice = new TwoRequestsAtOnce(Postgres.logical(), Opening.RECORDED);
    }

    /**
     * PostgreSQL's REPEATABLE READ refuses the second fee's write of the row the first changed
     * since the second's snapshot (40001); retried, it reads the first fee's balance. In the orders
     * where one fee runs after the other nothing is retried. Both fees count either way.
     */
    @InterleavingTest(schedules = 8)
    void atRepeatableReadBothFeesCount(Recording recording) throws Exception {
        Bank bank = alice.bank(Isolation.REPEATABLE_READ, Locking.NONE);

        assertThat(alice.twoFees(bank)).containsOnlyNulls();

        assertThat(alice.checkingBalance()).isEqualTo(52);
        assertThat(recording).hasNothingLeftOut();
    }

    /**
     * With {@code forUpdate()} the second fee waits for the first one's lock and then reads its
     * balance, even at READ COMMITTED: both fees count, and nothing is retried.
     */
    @InterleavingTest(schedules = 8)
    void forUpdateAtReadCommittedBothFeesCount(Recording recording) throws Exception {
        Bank bank = alice.bank(Isolation.READ_COMMITTED, Locking.FOR_UPDATE);
        assertThat(alice.twoFees(bank)).containsOnlyNulls();

        assertThat(bank.retries()).isZero();
        assertThat(alice.checkingBalance()).isEqualTo(52);
        assertThat(recording).hasNothingLeftOut();
    }

    /**
     * PostgreSQL's SERIALIZABLE aborts one of two withdrawals that both read before either wrote
     * (40001); retried, it sees the other's and is refused, as the second of two withdrawals one
     * after the other is: Alice's accounts keep 20 together.
     */
    @InterleavingTest(schedules = 8)
    void atSerializableOneWithdrawalIsRefused(Recording recording) throws Exception {
        Bank bank = alice.bank(Isolation.SERIALIZABLE, Locking.NONE);

        assertThat(alice.twoWithdrawals(bank)).filteredOn(Objects::nonNull).singleElement().isInstanceOf(InsufficientFunds.class);

        assertThat(alice.total()).isEqualTo(20);
        assertThat(recording).hasNothingLeftOut();
    }

    /**
     * With {@code forUpdate()} on the query of Alice's accounts, the second withdrawal waits for the
     * first one's locks and then sees what it took, even at READ COMMITTED: it is refused.
     */
    @InterleavingTest(schedules = 8)
    void forUpdateAtReadCommittedOneWithdrawalIsRefused(Recording recording) throws Exception {
        Bank bank = alice.bank(Isolation.READ_COMMITTED, Locking.FOR_UPDATE);

        assertThat(alice.twoWithdrawals(bank)).filteredOn(Objects::nonNull).singleElement().isInstanceOf(InsufficientFunds.class);

        assertThat(bank.retries()).isZero();
        assertThat(alice.total()).isEqualTo(20);
        assertThat(recording).hasNothingLeftOut();
    }
}
