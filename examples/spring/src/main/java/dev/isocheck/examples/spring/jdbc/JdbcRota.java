package dev.isocheck.examples.spring.jdbc;

import dev.isocheck.examples.spring.LastDoctorOnCall;
import dev.isocheck.examples.spring.Pager;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Isolation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The on-call rota with {@code JdbcTemplate}: at READ COMMITTED two doctors at once can both go off
 * call (write skew); at SERIALIZABLE PostgreSQL refuses one of them.
 */
@Service
public class JdbcRota {

    private final JdbcDoctorDao doctors;
    private final Pager pager;

    /** The rota of {@code doctors}, paging through {@code pager}. */
    public JdbcRota(JdbcDoctorDao doctors, Pager pager) {
        this.doctors = doctors;
        this.pager = pager;
    }

    /** Takes {@code name} off call for {@code shift} at READ COMMITTED, if another doctor stays on. */
    @Transactional(isolation = Isolation.READ_COMMITTED)
    public void goOffCall(String name, int shift) {
        leave(name, shift);
    }

    /**
     * The same at SERIALIZABLE: of two such requests at once, PostgreSQL fails one with SQLSTATE
     * 40001, which Spring gives the caller as a {@code ConcurrencyFailureException} to retry.
     */
    @Transactional(isolation = Isolation.SERIALIZABLE)
    public void goOffCallSerializably(String name, int shift) {
        leave(name, shift);
    }

    private void leave(String name, int shift) {
        List<String> onCall = new ArrayList<>(doctors.onCall(shift));
        if (!onCall.remove(name)) {
            return;
        }
        if (onCall.isEmpty()) {
            throw new LastDoctorOnCall(name, shift);
        }
        pager.page(onCall, name + " is going off call for shift " + shift);
        doctors.goOffCall(name);
    }
}
