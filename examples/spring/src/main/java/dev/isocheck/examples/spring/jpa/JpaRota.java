package dev.isocheck.examples.spring.jpa;

import dev.isocheck.examples.spring.LastDoctorOnCall;
import dev.isocheck.examples.spring.Pager;
import java.util.List;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Isolation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The on-call rota with Spring Data JPA. A doctor goes off call only while another stays on: the
 * request reads the doctors on call, checks there are two or more, pages the others and takes its
 * own doctor off. The same request at three levels, as a team trying each would: at READ COMMITTED
 * and REPEATABLE READ two doctors at once can both leave (write skew); at SERIALIZABLE PostgreSQL
 * refuses one of them (SQLSTATE 40001, a {@code ConcurrencyFailureException} to the caller).
 */
@Service
public class JpaRota {

    private final DoctorRepository doctors;
    private final Pager pager;

    /** The rota of {@code doctors}, paging through {@code pager}. */
    public JpaRota(DoctorRepository doctors, Pager pager) {
        this.doctors = doctors;
        this.pager = pager;
    }

    /** Takes {@code name} off call for {@code shift} at READ COMMITTED. */
    @Transactional(isolation = Isolation.READ_COMMITTED)
    public void goOffCall(String name, int shift) {
        leave(name, shift);
    }

    /** The same at REPEATABLE READ, PostgreSQL's snapshot isolation, which allows write skew too. */
    @Transactional(isolation = Isolation.REPEATABLE_READ)
    public void goOffCallAtRepeatableRead(String name, int shift) {
        leave(name, shift);
    }

    /** The same at SERIALIZABLE, where PostgreSQL refuses one of two such requests. */
    @Transactional(isolation = Isolation.SERIALIZABLE)
    public void goOffCallSerializably(String name, int shift) {
        leave(name, shift);
    }

    private void leave(String name, int shift) {
        List<Doctor> onCall = doctors.findByShiftAndOnCallTrueOrderByName(shift);
        Doctor leaving = onCall.stream().filter(d -> d.getName().equals(name)).findFirst().orElse(null);
        if (leaving == null) {
            return;
        }
        if (onCall.size() < 2) {
            throw new LastDoctorOnCall(name, shift);
        }
        pager.page(onCall.stream().map(Doctor::getName).filter(n -> !n.equals(name)).toList(),
                name + " is going off call for shift " + shift);
        leaving.goOffCall();
    }
}
