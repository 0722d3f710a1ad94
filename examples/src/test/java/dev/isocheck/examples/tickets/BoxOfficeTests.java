package dev.isocheck.examples.tickets;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.SerializableCheck;
import dev.isocheck.examples.EmbeddedPostgres;
import org.jdbi.v3.core.transaction.TransactionIsolationLevel;
import org.junit.jupiter.api.Test;

/** The box office's concurrency tests: every transaction is recorded and checked at serializable. */
@SerializableCheck
class BoxOfficeTests {

    /**
     * PostgreSQL's SERIALIZABLE aborts one of the two purchases (40001); Jdbi retries it, and the
     * retry counts the other's ticket: one seat, one ticket, and a history that is serializable.
     */
    @Test
    void atSerializableTheLastSeatIsSoldOnce() throws Exception {
        TwoFansAtOnce fans = new TwoFansAtOnce(EmbeddedPostgres.dataSource(), TransactionIsolationLevel.SERIALIZABLE);

        assertThat(fans.buy()).filteredOn(t -> t != null).singleElement().isInstanceOf(SoldOut.class);

        assertThat(fans.retries()).isPositive();
        assertThat(fans.sold()).isEqualTo(1);
    }
}
