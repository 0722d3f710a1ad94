package dev.isocheck.examples.spring.jdbc;

import dev.isocheck.examples.spring.OutOfStock;
import dev.isocheck.examples.spring.Porter;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Isolation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The stockroom with {@code JdbcTemplate}: read the count, check it, call the porter, write the
 * count computed in Java.
 */
@Service
public class JdbcStockroom {

    private final JdbcSupplyDao supplies;
    private final Porter porter;

    /** The stockroom of {@code supplies}, calling {@code porter} for each box taken. */
    public JdbcStockroom(JdbcSupplyDao supplies, Porter porter) {
        this.supplies = supplies;
        this.porter = porter;
    }

    /**
     * Takes {@code quantity} boxes of {@code sku} at READ COMMITTED: two requests at once can both
     * read 10 and both write 9, a lost update.
     */
    @Transactional(isolation = Isolation.READ_COMMITTED)
    public void take(String sku, int quantity) {
        takeFrom(sku, supplies.onHand(sku), quantity);
    }

    /** The same, reading the count with {@code SELECT ... FOR UPDATE}: both boxes count. */
    @Transactional(isolation = Isolation.READ_COMMITTED)
    public void takeForUpdate(String sku, int quantity) {
        takeFrom(sku, supplies.onHandForUpdate(sku), quantity);
    }

    private void takeFrom(String sku, int onHand, int quantity) {
        if (onHand < quantity) {
            throw new OutOfStock(sku, onHand, quantity);
        }
        porter.fetch(sku, quantity);
        supplies.setOnHand(sku, onHand - quantity);
    }
}
