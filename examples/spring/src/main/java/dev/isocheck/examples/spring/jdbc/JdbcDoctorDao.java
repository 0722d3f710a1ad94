package dev.isocheck.examples.spring.jdbc;

import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/** The rota's doctors, with {@link JdbcTemplate}. */
@Repository
public class JdbcDoctorDao {

    private final JdbcTemplate jdbc;

    /** Doctors in {@code jdbc}'s database. */
    public JdbcDoctorDao(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The names of the doctors on call for {@code shift}. */
    public List<String> onCall(int shift) {
        return jdbc.queryForList("SELECT name FROM doctor WHERE shift = ? AND on_call = TRUE ORDER BY name", String.class, shift);
    }

    /** Takes {@code name} off call. */
    public void goOffCall(String name) {
        jdbc.update("UPDATE doctor SET on_call = FALSE WHERE name = ?", name);
    }
}
