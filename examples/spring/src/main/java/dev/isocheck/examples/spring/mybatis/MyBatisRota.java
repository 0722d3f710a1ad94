package dev.isocheck.examples.spring.mybatis;

import dev.isocheck.examples.spring.LastDoctorOnCall;
import dev.isocheck.examples.spring.Pager;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Isolation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The on-call rota with MyBatis: at READ COMMITTED two doctors at once can both go off call (write
 * skew); reading the doctors on call {@code FOR UPDATE} makes the second request wait for the
 * first and then see that it is the last one on call.
 */
@Service
public class MyBatisRota {

    private final DoctorMapper doctors;
    private final Pager pager;

    /** The rota of {@code doctors}, paging through {@code pager}. */
    public MyBatisRota(DoctorMapper doctors, Pager pager) {
        this.doctors = doctors;
        this.pager = pager;
    }

    /** Takes {@code name} off call for {@code shift} at READ COMMITTED, if another doctor stays on. */
    @Transactional(isolation = Isolation.READ_COMMITTED)
    public void goOffCall(String name, int shift) {
        leave(name, shift, doctors.onCall(shift));
    }

    /** The same, locking the rows of the doctors on call ({@link DoctorMapper#onCallForUpdate}). */
    @Transactional(isolation = Isolation.READ_COMMITTED)
    public void goOffCallLocking(String name, int shift) {
        leave(name, shift, doctors.onCallForUpdate(shift));
    }

    private void leave(String name, int shift, List<String> doctorsOnCall) {
        List<String> others = new ArrayList<>(doctorsOnCall);
        if (!others.remove(name)) {
            return;
        }
        if (others.isEmpty()) {
            throw new LastDoctorOnCall(name, shift);
        }
        pager.page(others, name + " is going off call for shift " + shift);
        doctors.goOffCall(name);
    }
}
