package dev.isocheck.examples.jooq;

import static dev.isocheck.assertj.IsocheckAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.Recording;
import dev.isocheck.SerializableCheck;
import dev.isocheck.examples.jooq.Bank.Isolation;
import dev.isocheck.examples.jooq.Bank.Locking;
import org.junit.jupiter.api.Test;

/**
 * The jOOQ bank's concurrency tests, the ones a team keeps: the same two requests at once as
 * {@link BankAnomalyTests}, at the level or with the {@code forUpdate()} that prevents each
 * anomaly. Every transaction, the accounts' {@code INSERT ... RETURNING} included, is recorded
 * (writes from logical decoding) and checked at serializable, and each test
 * asserts that the recording left nothing out, so that its pass covers every statement jOOQ sent.
 */
@SerializableCheck
class BankTests {

    /**
     * PostgreSQL's REPEATABLE READ refuses the second fee's write of the row the first changed
     * (40001); retried, it reads the first fee's balance: both fees count.
     */
    @Test
    void atRepeatableReadTheSecondFeeIsRetriedAndBothCount(Recording recording) throws Exception {
        TwoRequestsAtOnce fees = new TwoRequestsAtOnce(Postgres.logical(), Isolation.REPEATABLE_READ, Locking.NONE);

        assertThat(fees.twoFees()).containsOnlyNulls();

        assertThat(fees.retries()).isPositive();
        assertThat(fees.checkingBalance()).isEqualTo(52);
        assertThat(recording).hasNothingLeftOut();
    }

    /**
     * With {@code forUpdate()} the second fee waits for the first one's lock and then reads its
     * balance, even at READ COMMITTED: both fees count, and nothing is retried.
     */
    @Test
    void forUpdateAtReadCommittedBothFeesCount(Recording recording) throws Exception {
        TwoRequestsAtOnce fees = new TwoRequestsAtOnce(Postgres.logical(), Isolation.READ_COMMITTED, Locking.FOR_UPDATE);

        assertThat(fees.twoFees()).containsOnlyNulls();

        assertThat(fees.retries()).isZero();
        assertThat(fees.checkingBalance()).isEqualTo(52);
        assertThat(recording).hasNothingLeftOut();
    }

    /**
     * PostgreSQL's SERIALIZABLE aborts one of the two withdrawals (40001); retried, it sees the
     * other's and is refused: Alice's accounts keep 20 together.
     */
    @Test
    void atSerializableOneWithdrawalIsRefused(Recording recording) throws Exception {
        TwoRequestsAtOnce withdrawals = new TwoRequestsAtOnce(Postgres.logical(), Isolation.SERIALIZABLE, Locking.NONE);

        assertThat(withdrawals.twoWithdrawals()).filteredOn(t -> t != null).singleElement().isInstanceOf(InsufficientFunds.class);

        assertThat(withdrawals.retries()).isPositive();
        assertThat(withdrawals.total()).isEqualTo(20);
        assertThat(recording).hasNothingLeftOut();
    }

    /**
     * With {@code forUpdate()} on the query of Alice's accounts, the second withdrawal waits for the
     * first one's locks and then sees what it took, even at READ COMMITTED: it is refused.
     */
    @Test
    void forUpdateAtReadCommittedOneWithdrawalIsRefused(Recording recording) throws Exception {
        TwoRequestsAtOnce withdrawals = new TwoRequestsAtOnce(Postgres.logical(), Isolation.READ_COMMITTED, Locking.FOR_UPDATE);

        assertThat(withdrawals.twoWithdrawals()).filteredOn(t -> t != null).singleElement().isInstanceOf(InsufficientFunds.class);

        assertThat(withdrawals.retries()).isZero();
        assertThat(withdrawals.total()).isEqualTo(20);
        assertThat(recording).hasNothingLeftOut();
    }
}
