package dev.isocheck.examples.spring.jpa;

import dev.isocheck.examples.spring.OutOfStock;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * Boxes of one supply in the stockroom. Deliberately without {@code @Version}: the stockroom's
 * plain {@link JpaStockroom#take} is the read-modify-write that loses updates, and
 * {@link JpaStockroom#takeLocked} the fix by a row lock.
 */
@Entity
@Table(name = "supply")
public class Supply {

    @Id
    private String sku;

    @Column(name = "on_hand", nullable = false)
    private int onHand;

    /** For JPA. */
    protected Supply() {
    }

    /** {@code onHand} boxes of {@code sku}. */
    public Supply(String sku, int onHand) {
        this.sku = sku;
        this.onHand = onHand;
    }

    /** The supply's stock-keeping unit, its key. */
    public String getSku() {
        return sku;
    }

    /** How many boxes are on hand. */
    public int getOnHand() {
        return onHand;
    }

    /**
     * Takes {@code quantity} boxes off the shelf; Hibernate writes the new count when the
     * transaction commits.
     *
     * @throws OutOfStock when fewer are on hand
     */
    public void take(int quantity) {
        if (onHand < quantity) {
            throw new OutOfStock(sku, onHand, quantity);
        }
        onHand -= quantity;
    }
}
