package dev.isocheck.examples.tickets;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.InterleavingTest;
import dev.isocheck.SerializableCheck;
import org.jdbi.v3.core.transaction.TransactionIsolationLevel;

/**
 * The box office's concurrency tests: every transaction is recorded and checked at serializable,
 * in several schedules (5 in the examples' build, set in {@code junit-platform.properties}), round
 * robin first (both counts before either ticket), each with the seat unsold to start from; what
 * the test asserts holds in every one of them.
 */
@SerializableCheck
class BoxOfficeTests {

    /**
     * Where the purchases overlap, PostgreSQL's SERIALIZABLE aborts one of them (40001); Jdbi
     * retries it, and the retry counts the other's ticket. In every order: one seat, one ticket,
     * and a history that is serializable.
     */
    @InterleavingTest
    void atSerializableTheLastSeatIsSoldOnce() throws Exception {
        TwoFansAtOnce fans = new TwoFansAtOnce(TransactionIsolationLevel.SERIALIZABLE);

        assertThat(fans.buy()).filteredOn(t -> t != null).singleElement().isInstanceOf(SoldOut.class);

        assertThat(fans.sold()).isEqualTo(1);
    }
}
