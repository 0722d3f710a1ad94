package dev.isocheck.examples.bank;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.Isocheck;
import dev.isocheck.examples.Concurrently;
import dev.isocheck.examples.EmbeddedPostgres;
import dev.isocheck.examples.IsolationSetting;
import dev.isocheck.examples.Transactions;
import dev.isocheck.examples.Unrecorded;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * The bank's tests' scenario: Alice holds 50 in checking and 50 in savings, and pays 80 from each
 * at the same moment, to Bob and to Carol, each payment on a thread of its own. Nothing in the
 * application holds them: an {@code @InterleavingTest} runs them in the orders that break them,
 * creating the scenario in its body so that every schedule starts from fresh accounts.
 */
final class AlicesTwoPayments {

    private final Bank unrecorded;
    private final Bank bank;

    /** Fresh accounts; the bank under test runs at {@code isolation} on recorded connections. */
    AlicesTwoPayments(IsolationSetting isolation) throws SQLException {
        DataSource setUp = Unrecorded.postgres();
        Bank.createSchema(setUp);
        unrecorded = new Bank(new Transactions(setUp, isolation), FraudScreen.NONE);
        unrecorded.open("alice-checking", "alice", 50);
        unrecorded.open("alice-savings", "alice", 50);
        unrecorded.open("bob", "bob", 0);
        unrecorded.open("carol", "carol", 0);
        bank = new Bank(new Transactions(Isocheck.record(EmbeddedPostgres.dataSource()), isolation), FraudScreen.NONE);
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

    /**
     * Asserts what holds in every order, at every level: a payment refused found the money gone,
     * and Alice's accounts hold 100 less 80 for each payment that went through (-60 when both
     * did: the bank's rule broken, which only overlapping payments can do).
     *
     * @param outcomes what {@link #pay()} returned
     * @return how many payments went through
     */
    long assertThePaymentsAddUp(List<Throwable> outcomes) throws SQLException {
        long paid = outcomes.stream().filter(Objects::isNull).count();
        assertThat(outcomes).filteredOn(Objects::nonNull).allSatisfy(refused -> assertThat(refused).isInstanceOf(InsufficientFunds.class));
        assertThat(alicesTotal()).as("what Alice's accounts hold together").isEqualTo(100 - 80 * paid);
        return paid;
    }

    /** What Alice's accounts hold together, read without recording. */
    long alicesTotal() throws SQLException {
        return unrecorded.balancesOf("alice").values().stream().mapToLong(Long::longValue).sum();
    }
}
