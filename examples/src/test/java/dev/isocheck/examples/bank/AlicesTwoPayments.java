package dev.isocheck.examples.bank;

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
 * The bank's tests' scenario: Alice holds 50 in checking and 50 in savings, and pays 80 from each
 * at the same moment, to Bob and to Carol. The fraud screen holds both payments until both have
 * checked the balances, so that they overlap on every run.
 */
final class AlicesTwoPayments {

    private final DataSource postgres = EmbeddedPostgres.dataSource();
    private final Bank unrecorded;
    private final Transactions transactions;
    private final Bank bank;

    /** Fresh accounts; the bank under test runs at {@code isolation} on recorded connections. */
    AlicesTwoPayments(IsolationSetting isolation) throws SQLException {
        Bank.createSchema(postgres);
        unrecorded = new Bank(new Transactions(postgres, isolation), FraudScreen.NONE);
        unrecorded.open("alice-checking", "alice", 50);
        unrecorded.open("alice-savings", "alice", 50);
        unrecorded.open("bob", "bob", 0);
        unrecorded.open("carol", "carol", 0);
        transactions = new Transactions(Isocheck.record(postgres), isolation);
        Rendezvous bothChecked = new Rendezvous(2);
        bank = new Bank(transactions, (from, to, amount) -> bothChecked.arrive());
    }

    /** Runs both payments at once; for each, {@code null} when it went through, or what it threw. */
    List<Throwable> pay() throws InterruptedException {
        return Concurrently.run(List.of(
                new Concurrently.Task("pay-bob", () -> {
                    bank.transfer("alice-checking", "bob", 80);
                    return null;
                }),
                new Concurrently.Task("pay-carol", () -> {
                    bank.transfer("alice-savings", "carol", 80);
                    return null;
                })));
    }

    /** What Alice's accounts hold together, read without recording. */
    long alicesTotal() throws SQLException {
        return unrecorded.balancesOf("alice").values().stream().mapToLong(Long::longValue).sum();
    }

    /** How many transfers the database made the bank retry. */
    int retries() {
        return transactions.retries();
    }
}
