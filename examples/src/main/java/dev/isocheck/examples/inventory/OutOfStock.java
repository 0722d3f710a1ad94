package dev.isocheck.examples.inventory;

/** An order refused: fewer articles on hand than it asks for. */
public final class OutOfStock extends RuntimeException {

    /**
     * @param sku      the article
     * @param onHand   how many are on hand
     * @param quantity how many the order asked for
     */
    public OutOfStock(String sku, int onHand, int quantity) {
        super(onHand + " of " + sku + " on hand, not enough for " + quantity);
    }
}
