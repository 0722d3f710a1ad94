package dev.isocheck.examples.rota;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.IsolationLevel;
import dev.isocheck.Recording;
import dev.isocheck.SerializableCheck;
import dev.isocheck.assertj.IsocheckAssertions;
import dev.isocheck.examples.IsolationSetting;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/** The rota's concurrency tests: every transaction is recorded and checked after the test. */
@SerializableCheck
class RotaTests {

    @Test
    void atSerializableSomeoneStaysOnCall() throws Exception {
        AliceAndBobGoOffCall requests = new AliceAndBobGoOffCall(IsolationSetting.SERIALIZABLE);

        var outcomes = requests.goOffCall();

        assertThat(requests.retries()).isPositive();
        assertThat(outcomes).filteredOn(Objects::nonNull).singleElement().isInstanceOf(LastDoctorOnCall.class);
        assertThat(requests.onCall()).hasSize(1);
    }

    /**
     * Snapshot isolation (PostgreSQL's REPEATABLE READ) allows this write skew; serializable does
     * not ({@link RotaAnomalyTests}). The check after the body checks snapshot isolation; the test
     * asserts, on its own recording, that the run is the write skew serializable would have
     * refused, and that the recording left nothing out of the check.
     */
    @Test
    @SerializableCheck(level = IsolationLevel.SNAPSHOT_ISOLATION)
    void repeatableReadIsSnapshotIsolationWhichAllowsWriteSkew(Recording recording) throws Exception {
        AliceAndBobGoOffCall requests = new AliceAndBobGoOffCall(IsolationSetting.REPEATABLE_READ);

        assertThat(requests.goOffCall()).containsOnlyNulls();
        assertThat(requests.onCall()).isEmpty();

        IsocheckAssertions.assertThat(recording).hasNothingLeftOut()
                .violates(IsolationLevel.SERIALIZABLE).hasAnomaly("write skew");
    }

    /**
     * The same run, documented as the known weakness it is: checked at serializable, it must show
     * a write skew, and the test fails the day it does not (the requests stopped overlapping, or
     * the rota moved to SERIALIZABLE).
     */
    @Test
    @SerializableCheck(level = IsolationLevel.SERIALIZABLE, expect = "write skew")
    void repeatableReadLetsTheLastTwoDoctorsBothGoOffCall() throws Exception {
        AliceAndBobGoOffCall requests = new AliceAndBobGoOffCall(IsolationSetting.REPEATABLE_READ);

        assertThat(requests.goOffCall()).containsOnlyNulls();
        assertThat(requests.onCall()).isEmpty();
    }
}
