package dev.isocheck.examples.tickets;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.Isocheck;
import dev.isocheck.examples.Concurrently;
import dev.isocheck.examples.EmbeddedPostgres;
import dev.isocheck.examples.Unrecorded;
import dev.isocheck.jdbi.IsocheckPlugin;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.transaction.TransactionIsolationLevel;

/**
 * The box office's tests' scenario: one seat left for the concert, and two fans buying it at the
 * same moment, each on a thread of its own. Nothing in the application holds them: an
 * {@code @InterleavingTest} runs them in the orders that break them, creating the scenario in its
 * body so that every schedule starts with the seat unsold.
 */
final class TwoFansAtOnce {

    static final String CONCERT = "quartet";

    private final BoxOffice unrecorded;
    private final BoxOffice boxOffice;

    /** A fresh concert of one seat in the embedded PostgreSQL; the box office under test recorded, at {@code isolation}. */
    TwoFansAtOnce(TransactionIsolationLevel isolation) throws SQLException {
        DataSource setUp = Unrecorded.postgres();
        BoxOffice.createSchema(setUp);
        unrecorded = new BoxOffice(Jdbi.create(setUp), isolation, CardPayments.NONE);
        unrecorded.announce(CONCERT, 1);
        // What a team's test adds: the recorded data source, and statement names for the reports.
        Jdbi recorded = Jdbi.create(Isocheck.record(EmbeddedPostgres.dataSource())).installPlugin(new IsocheckPlugin());
        boxOffice = new BoxOffice(recorded, isolation, CardPayments.NONE);
    }

    /** Both purchases at once; for each, {@code null} when it went through, or what it threw. */
    List<Throwable> buy() throws InterruptedException {
        return Concurrently.run(List.of(
                new Concurrently.Task("ann", () -> {
                    boxOffice.buy(CONCERT, "ann");
                    return null;
                }),
                new Concurrently.Task("ben", () -> {
                    boxOffice.buy(CONCERT, "ben");
                    return null;
                })));
    }

    /**
     * Asserts what holds in every order, at every level: a purchase refused found the concert sold
     * out, and a ticket was sold for each that went through (two for the one seat, when both did:
     * the rule broken, which only overlapping purchases can do).
     *
     * @param outcomes what {@link #buy()} returned
     */
    void assertTheTicketsAddUp(List<Throwable> outcomes) {
        long bought = outcomes.stream().filter(Objects::isNull).count();
        assertThat(outcomes).filteredOn(Objects::nonNull).allSatisfy(refused -> assertThat(refused).isInstanceOf(SoldOut.class));
        assertThat(sold()).as("tickets sold").isEqualTo(bought);
    }

    /** The tickets sold, read without recording. */
    int sold() {
        return unrecorded.sold(CONCERT);
    }
}
