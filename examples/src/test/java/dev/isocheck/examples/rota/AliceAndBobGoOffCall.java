package dev.isocheck.examples.rota;

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
 * The rota's tests' scenario: Alice and Bob are on call for shift 1 and both ask to go off at the
 * same moment. The pager holds both requests until both have counted the doctors on call, so that
 * they overlap on every run.
 */
final class AliceAndBobGoOffCall {

    private static final int SHIFT = 1;

    private final Rota unrecorded;
    private final Transactions transactions;
    private final Rota rota;

    /** A fresh rota; the one under test runs at {@code isolation} on recorded connections. */
    AliceAndBobGoOffCall(IsolationSetting isolation) throws SQLException {
        DataSource postgres = EmbeddedPostgres.dataSource();
        Rota.createSchema(postgres);
        unrecorded = new Rota(new Transactions(postgres, isolation), Pager.NONE);
        unrecorded.addOnCall("alice", SHIFT);
        unrecorded.addOnCall("bob", SHIFT);
        transactions = new Transactions(Isocheck.record(postgres), isolation);
        Rendezvous bothCounted = new Rendezvous(2);
        rota = new Rota(transactions, (doctors, message) -> bothCounted.arrive());
    }

    /** Both requests at once; for each, {@code null} when it went through, or what it threw. */
    List<Throwable> goOffCall() throws InterruptedException {
        return Concurrently.run(List.of(
                new Concurrently.Task("alice", () -> {
                    rota.goOffCall("alice", SHIFT);
                    return null;
                }),
                new Concurrently.Task("bob", () -> {
                    rota.goOffCall("bob", SHIFT);
                    return null;
                })));
    }

    /** Who is on call now, read without recording. */
    List<String> onCall() throws SQLException {
        return unrecorded.onCall(SHIFT);
    }

    /** How many requests the database made the rota retry. */
    int retries() {
        return transactions.retries();
    }
}
