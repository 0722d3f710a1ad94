package dev.isocheck.examples.spring.jpa;

import dev.isocheck.examples.spring.Porter;
import java.util.NoSuchElementException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Isolation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The stockroom with Spring Data JPA. Taking boxes reads the supply, checks the count, calls the
 * porter and lets Hibernate write the new count at commit: a read-modify-write in the application.
 */
@Service
public class JpaStockroom {

    private final SupplyRepository supplies;
    private final Porter porter;

    /** The stockroom of {@code supplies}, calling {@code porter} for each box taken. */
    public JpaStockroom(SupplyRepository supplies, Porter porter) {
        this.supplies = supplies;
        this.porter = porter;
    }

    /**
     * Takes {@code quantity} boxes of {@code sku} at READ COMMITTED, PostgreSQL's default. Two
     * requests at once can both read 10 and both write 9: a lost update.
     */
    @Transactional(isolation = Isolation.READ_COMMITTED)
    public void take(String sku, int quantity) {
        takeFrom(supplies.findById(sku).orElseThrow(() -> new NoSuchElementException(sku)), quantity);
    }

    /**
     * The same at READ COMMITTED, reading the supply with its row locked
     * ({@link SupplyRepository#findLockedBySku}): a second request waits for the first to commit and
     * then reads its count, so both boxes count.
     */
    @Transactional(isolation = Isolation.READ_COMMITTED)
    public void takeLocked(String sku, int quantity) {
        takeFrom(supplies.findLockedBySku(sku).orElseThrow(() -> new NoSuchElementException(sku)), quantity);
    }

    private void takeFrom(Supply supply, int quantity) {
        supply.take(quantity);
        porter.fetch(supply.getSku(), quantity);
        // Hibernate's dirty checking writes the new count when the transaction commits.
    }
}
