package dev.isocheck.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.Recording;
import dev.isocheck.SerializableCheck;
import dev.isocheck.assertj.IsocheckAssertions;
import dev.isocheck.examples.spring.jdbc.JdbcRota;
import dev.isocheck.examples.spring.jpa.JpaRota;
import dev.isocheck.examples.spring.mybatis.MyBatisRota;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.ConcurrencyFailureException;

/**
 * The rota's concurrency tests, as the team keeps them: Alice and Bob ask to go off call at once,
 * through the fixed code of each stack; someone stays on call, every transaction is recorded and
 * checked at serializable, and the recording left nothing out.
 */
@HospitalTest
@SerializableCheck
class WriteSkewTests {

    @Autowired
    HeldRequests held;

    @Autowired
    JpaRota jpa;

    @Autowired
    JdbcRota jdbcTemplate;

    @Autowired
    MyBatisRota myBatis;

    @BeforeEach
    void bothOnCall() {
        Ward.putAliceAndBobOnCall();
        held.holdAt(Rendezvous.of(2));
    }

    /** SERIALIZABLE: PostgreSQL fails one request with 40001, which Spring gives as a concurrency failure. */
    @Test
    void jpaAtSerializableKeepsSomeoneOnCall(Recording recording) throws Exception {
        List<Throwable> outcomes = bothGoOff(jpa::goOffCallSerializably);

        assertThat(outcomes).filteredOn(Objects::nonNull).singleElement().isInstanceOf(ConcurrencyFailureException.class);
        assertThat(Ward.onCall()).hasSize(1);
        IsocheckAssertions.assertThat(recording).hasNothingLeftOut().isSerializable();
    }

    /** The same with JdbcTemplate. */
    @Test
    void jdbcTemplateAtSerializableKeepsSomeoneOnCall(Recording recording) throws Exception {
        List<Throwable> outcomes = bothGoOff(jdbcTemplate::goOffCallSerializably);

        assertThat(outcomes).filteredOn(Objects::nonNull).singleElement().isInstanceOf(ConcurrencyFailureException.class);
        assertThat(Ward.onCall()).hasSize(1);
        IsocheckAssertions.assertThat(recording).hasNothingLeftOut().isSerializable();
    }

    /**
     * {@code SELECT ... FOR UPDATE} at READ COMMITTED: the second request waits for the first one's
     * locks, then reads one doctor on call, itself, and is refused.
     */
    @Test
    void myBatisLockingTheDoctorsOnCallKeepsSomeoneOnCall(Recording recording) throws Exception {
        held.holdAt(Rendezvous.orLockWait(2, EmbeddedPostgres.dataSource()));

        List<Throwable> outcomes = bothGoOff(myBatis::goOffCallLocking);

        assertThat(outcomes).filteredOn(Objects::nonNull).singleElement().isInstanceOf(LastDoctorOnCall.class);
        assertThat(Ward.onCall()).hasSize(1);
        IsocheckAssertions.assertThat(recording).hasNothingLeftOut().isSerializable();
    }

    private static List<Throwable> bothGoOff(WriteSkewAnomalyTests.GoOffCall request) throws InterruptedException {
        return Ward.atOnce(
                "alice", () -> request.goOffCall("alice", Ward.SHIFT),
                "bob", () -> request.goOffCall("bob", Ward.SHIFT));
    }
}
