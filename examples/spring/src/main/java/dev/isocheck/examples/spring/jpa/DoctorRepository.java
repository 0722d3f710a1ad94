package dev.isocheck.examples.spring.jpa;

import java.util.List;
import org.springframework.data.jpa.repository.JpaRepository;

/** The rota's doctors. */
public interface DoctorRepository extends JpaRepository<Doctor, String> {

    /** The doctors on call for {@code shift}, by name (a query Spring Data derives from the name). */
    List<Doctor> findByShiftAndOnCallTrueOrderByName(int shift);
}
