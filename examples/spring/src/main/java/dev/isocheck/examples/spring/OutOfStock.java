package dev.isocheck.examples.spring;

/** A request refused: fewer boxes in the stockroom than it asks for. */
public final class OutOfStock extends RuntimeException {

    /**
     * @param sku      the supply
     * @param onHand   how many boxes are on hand
     * @param quantity how many the request asked for
     */
    public OutOfStock(String sku, int onHand, int quantity) {
        super(onHand + " of " + sku + " on hand, not enough for " + quantity);
    }
}
