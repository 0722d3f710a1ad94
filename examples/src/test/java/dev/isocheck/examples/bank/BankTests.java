package dev.isocheck.examples.bank;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.IsolationLevel;
import dev.isocheck.SerializableCheck;
import dev.isocheck.examples.IsolationSetting;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * The bank's concurrency tests, as its team writes them: every transaction the bank runs during
 * a test is recorded and checked after it, at serializable unless the test says otherwise.
 */
@SerializableCheck
class BankTests {

    @Test
    void atSerializableTheOverdraftRuleHoldsAndOnePaymentIsRefused() throws Exception {
        AlicesTwoPayments payments = new AlicesTwoPayments(IsolationSetting.SERIALIZABLE);

        List<Throwable> outcomes = payments.pay();

        // PostgreSQL aborted one payment (40001); retried, it found the money gone.
        assertThat(payments.retries()).isPositive();
        assertThat(outcomes).filteredOn(Objects::nonNull).singleElement().isInstanceOf(InsufficientFunds.class);
        assertThat(payments.alicesTotal()).isEqualTo(20);
    }

    /**
     * PostgreSQL's REPEATABLE READ is snapshot isolation, which allows write skew: the check at
     * snapshot isolation passes, though the rule is broken. The same run fails a check at
     * serializable ({@link BankAnomalyTests}).
     */
    @Test
    @SerializableCheck(level = IsolationLevel.SNAPSHOT_ISOLATION)
    void repeatableReadIsSnapshotIsolationWhichAllowsWriteSkew() throws Exception {
        AlicesTwoPayments payments = new AlicesTwoPayments(IsolationSetting.REPEATABLE_READ);

        List<Throwable> outcomes = payments.pay();

        assertThat(outcomes).containsOnlyNulls();
        assertThat(payments.alicesTotal()).isEqualTo(-60);
    }
}
