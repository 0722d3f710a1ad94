package dev.isocheck.examples.spring.jpa;

import jakarta.persistence.LockModeType;
import java.util.Optional;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Lock;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

/** The stockroom's supplies. */
public interface SupplyRepository extends JpaRepository<Supply, String> {

    /**
     * The supply, its row locked until the transaction ends ({@code PESSIMISTIC_WRITE}: Hibernate
     * sends a {@code SELECT ... FOR [NO KEY] UPDATE}), so that a second request to take from it
     * waits here, and then reads the first one's count.
     */
    @Lock(LockModeType.PESSIMISTIC_WRITE)
    @Query("select s from Supply s where s.sku = :sku")
    Optional<Supply> findLockedBySku(@Param("sku") String sku);
}
