package dev.isocheck.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.InterleavingTest;
import dev.isocheck.Recording;
import dev.isocheck.SerializableCheck;
import dev.isocheck.assertj.IsocheckAssertions;
import dev.isocheck.examples.spring.jdbc.JdbcRota;
import dev.isocheck.examples.spring.jpa.JpaRota;
import dev.isocheck.examples.spring.mybatis.MyBatisRota;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.ConcurrencyFailureException;

/**
 * The rota's concurrency tests, as the team keeps them: Alice and Bob ask to go off call at once,
 * through the fixed code of each stack, in every schedule explored; someone stays on call, every
 * transaction is recorded and checked at serializable, and the recording left nothing out.
 *
 * <p>Ten schedules each, not the default twenty: round robin with nine random walks takes the
 * requests one after the other, either first, and interleaved, while the module's build stays
 * short.
 */
@HospitalTest
@SerializableCheck
class WriteSkewTests {

    @Autowired
    JpaRota jpa;

    @Autowired
    JdbcRota jdbcTemplate;

    @Autowired
    MyBatisRota myBatis;

    @BeforeEach
    void bothOnCall() {
        Ward.putAliceAndBobOnCall();
    }

    /**
     * SERIALIZABLE: where both requests read before either wrote, PostgreSQL fails one with 40001,
     * which Spring gives as a concurrency failure; where one ran after the other, the second finds
     * its doctor the last on call. Either way one request is refused.
     */
    @InterleavingTest(schedules = 10)
    void jpaAtSerializableKeepsSomeoneOnCall(Recording recording) throws Exception {
        List<Throwable> outcomes = bothGoOff(jpa::goOffCallSerializably);

        assertOneRefused(outcomes, ConcurrencyFailureException.class, LastDoctorOnCall.class);
        IsocheckAssertions.assertThat(recording).hasNothingLeftOut().isSerializable();
    }

    /** The same with JdbcTemplate. */
    @InterleavingTest(schedules = 10)
    void jdbcTemplateAtSerializableKeepsSomeoneOnCall(Recording recording) throws Exception {
        List<Throwable> outcomes = bothGoOff(jdbcTemplate::goOffCallSerializably);

        assertOneRefused(outcomes, ConcurrencyFailureException.class, LastDoctorOnCall.class);
        IsocheckAssertions.assertThat(recording).hasNothingLeftOut().isSerializable();
    }

    /**
     * {@code SELECT ... FOR UPDATE} at READ COMMITTED: in every order, the second request to lock
     * the doctors on call waits for the first one's locks, then reads one doctor on call, itself,
     * and is refused.
     */
    @InterleavingTest(schedules = 10)
    void myBatisLockingTheDoctorsOnCallKeepsSomeoneOnCall(Recording recording) throws Exception {
        List<Throwable> outcomes = bothGoOff(myBatis::goOffCallLocking);

        assertOneRefused(outcomes, LastDoctorOnCall.class);
        IsocheckAssertions.assertThat(recording).hasNothingLeftOut().isSerializable();
    }

    private static List<Throwable> bothGoOff(WriteSkewAnomalyTests.GoOffCall request) throws InterruptedException {
        return Ward.atOnce(
                "alice", () -> request.goOffCall("alice", Ward.SHIFT),
                "bob", () -> request.goOffCall("bob", Ward.SHIFT));
    }

    /** One request refused, with one of {@code refusals}, and one doctor left on call. */
    @SafeVarargs
    private static void assertOneRefused(List<Throwable> outcomes, Class<? extends Throwable>... refusals) {
        assertThat(outcomes).filteredOn(Objects::nonNull).singleElement()
                .satisfies(refused -> assertThat(refused).isInstanceOfAny(refusals));
        assertThat(Ward.onCall()).hasSize(1);
    }
}
