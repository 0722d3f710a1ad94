package dev.isocheck.examples.spring.mybatis;

import dev.isocheck.examples.spring.OutOfStock;
import dev.isocheck.examples.spring.Porter;
import java.util.NoSuchElementException;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Isolation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The stockroom with MyBatis: read the row, check the count, call the porter, write the count
 * computed in Java; or write it only if the row's version is the one read (optimistic locking).
 */
@Service
public class MyBatisStockroom {

    private final SupplyMapper supplies;
    private final Porter porter;

    /** The stockroom of {@code supplies}, calling {@code porter} for each box taken. */
    public MyBatisStockroom(SupplyMapper supplies, Porter porter) {
        this.supplies = supplies;
        this.porter = porter;
    }

    /**
     * Takes {@code quantity} boxes of {@code sku} at READ COMMITTED: two requests at once can both
     * read 10 and both write 9, a lost update.
     */
    @Transactional(isolation = Isolation.READ_COMMITTED)
    public void take(String sku, int quantity) {
        SupplyMapper.Row row = read(sku, quantity);
        supplies.setOnHand(sku, row.onHand() - quantity);
    }

    /**
     * The same, writing only if the version is still the one read: of two requests at once, the
     * second's update finds the version moved on, changes nothing, and the request fails with
     * {@link OptimisticLockingFailureException} (the caller may try again; nothing was lost).
     */
    @Transactional(isolation = Isolation.READ_COMMITTED)
    public void takeIfUnchanged(String sku, int quantity) {
        SupplyMapper.Row row = read(sku, quantity);
        if (supplies.setOnHandIfUnchanged(sku, row.onHand() - quantity, row.version()) == 0) {
            throw new OptimisticLockingFailureException(sku + " changed since it was read");
        }
    }

    private SupplyMapper.Row read(String sku, int quantity) {
        SupplyMapper.Row row = supplies.find(sku);
        if (row == null) {
            throw new NoSuchElementException(sku);
        }
        if (row.onHand() < quantity) {
            throw new OutOfStock(sku, row.onHand(), quantity);
        }
        porter.fetch(sku, quantity);
        return row;
    }
}
