package dev.isocheck.examples.bank;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.InterleavingTest;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Recording;
import dev.isocheck.SerializableCheck;
import dev.isocheck.assertj.IsocheckAssertions;
import dev.isocheck.examples.IsolationSetting;
import java.util.List;
import java.util.Objects;

/**
 * The bank's concurrency tests, as its team writes them: every transaction the bank runs during
 * a test is recorded and checked after it, at serializable unless the test says otherwise. Each
 * test runs its two payments in several schedules (5 in the examples' build, set by
 * {@code isocheck.schedules} in {@code junit-platform.properties}; 20 by default), round robin
 * first (both balance checks before either withdrawal), each from fresh accounts; what it asserts
 * holds in every one of them.
 */
@SerializableCheck
class BankTests {

    @InterleavingTest
    void atSerializableTheOverdraftRuleHoldsAndOnePaymentIsRefused() throws Exception {
        AlicesTwoPayments payments = new AlicesTwoPayments(IsolationSetting.SERIALIZABLE);

        List<Throwable> outcomes = payments.pay();

        // One payment went through; the other found the money gone, at once when it came second,
        // or when retried after PostgreSQL aborted it (40001) for overlapping the first.
        assertThat(outcomes).filteredOn(Objects::nonNull).singleElement().isInstanceOf(InsufficientFunds.class);
        assertThat(payments.alicesTotal()).isEqualTo(20);
    }

    /**
     * PostgreSQL's REPEATABLE READ is snapshot isolation, which allows write skew: the check at
     * snapshot isolation passes in every schedule, though in those where both balance checks came
     * before either payment committed, both went through and the rule is broken. Those runs are
     * write skews that a check at serializable fails ({@link BankAnomalyTests}), as the test
     * asserts on its own recording.
     */
    @InterleavingTest
    @SerializableCheck(level = IsolationLevel.SNAPSHOT_ISOLATION)
    void repeatableReadIsSnapshotIsolationWhichAllowsWriteSkew(Recording recording) throws Exception {
        AlicesTwoPayments payments = new AlicesTwoPayments(IsolationSetting.REPEATABLE_READ);

        long paid = payments.assertThePaymentsAddUp(payments.pay());

        if (paid == 2) {
            IsocheckAssertions.assertThat(recording).violates(IsolationLevel.SERIALIZABLE).hasAnomaly("write skew");
        } else {
            IsocheckAssertions.assertThat(recording).isSerializable();
        }
    }
}
