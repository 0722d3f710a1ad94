package dev.isocheck.examples.hotel;

import dev.isocheck.Isocheck;
import dev.isocheck.examples.Concurrently;
import dev.isocheck.examples.EmbeddedPostgres;
import dev.isocheck.examples.IsolationSetting;
import dev.isocheck.examples.Rendezvous;
import dev.isocheck.examples.Transactions;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;

/**
 * The hotel's tests' scenario: Ann and Ben book room 12 for night 200 at the same moment. The
 * payment provider holds both bookings until both have looked for the room's bookings.
 */
final class TwoGuestsOneRoom {

    static final int ROOM = 12;
    static final int NIGHT = 200;

    private final Hotel unrecorded;
    private final Transactions transactions;
    private final Hotel hotel;

    /** No bookings yet; the hotel under test runs at {@code isolation} on recorded connections. */
    TwoGuestsOneRoom(IsolationSetting isolation) throws SQLException {
        DataSource postgres = EmbeddedPostgres.dataSource();
        Hotel.createSchema(postgres);
        unrecorded = new Hotel(new Transactions(postgres, isolation), Payments.NONE);
        transactions = new Transactions(Isocheck.record(postgres), isolation);
        Rendezvous bothLooked = new Rendezvous(2);
        hotel = new Hotel(transactions, guest -> bothLooked.arrive());
    }

    /** Both bookings at once; for each, {@code null} when it went through, or what it threw. */
    List<Throwable> book() throws InterruptedException {
        return Concurrently.run(List.of(
                new Concurrently.Task("ann", () -> {
                    hotel.book("ann", ROOM, NIGHT);
                    return null;
                }),
                new Concurrently.Task("ben", () -> {
                    hotel.book("ben", ROOM, NIGHT);
                    return null;
                })));
    }

    /** The room's bookings that night, read without recording. */
    List<String> bookings() throws SQLException {
        return unrecorded.bookings(ROOM, NIGHT);
    }

    /** How many bookings the database made the hotel retry. */
    int retries() {
        return transactions.retries();
    }
}
