package dev.isocheck.examples.tickets;

import dev.isocheck.Isocheck;
import dev.isocheck.examples.Concurrently;
import dev.isocheck.examples.Rendezvous;
import dev.isocheck.jdbi.IsocheckPlugin;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.transaction.TransactionIsolationLevel;

/**
 * The box office's tests' scenario: one seat left for the concert, and two fans buying it at the
 * same moment. Charging the card holds both purchases until both have counted the seats.
 */
final class TwoFansAtOnce {

    static final String CONCERT = "quartet";

    private final BoxOffice unrecorded;
    private final BoxOffice boxOffice;

    /** A fresh concert of one seat in {@code database}; the box office under test recorded, at {@code isolation}. */
    TwoFansAtOnce(DataSource database, TransactionIsolationLevel isolation) throws SQLException {
        BoxOffice.createSchema(database);
        unrecorded = new BoxOffice(Jdbi.create(database), isolation, CardPayments.NONE);
        unrecorded.announce(CONCERT, 1);
        // What a team's test adds: the recorded data source, and statement names for the reports.
        Jdbi recorded = Jdbi.create(Isocheck.record(database)).installPlugin(new IsocheckPlugin());
        Rendezvous bothCounted = new Rendezvous(2);
        boxOffice = new BoxOffice(recorded, isolation, holder -> bothCounted.arrive());
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

    /** The tickets sold, read without recording. */
    int sold() {
        return unrecorded.sold(CONCERT);
    }

    /** How many purchases the database made the box office retry. */
    int retries() {
        return boxOffice.retries();
    }
}
