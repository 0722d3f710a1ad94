package dev.isocheck.examples.inventory;

/** The carrier's booking service, called for each reservation while its transaction is open. */
@FunctionalInterface
public interface Shipping {

    /** Books nothing. */
    Shipping NONE = (sku, quantity) -> { };

    /** Books the pickup of {@code quantity} of {@code sku}. */
    void bookPickup(String sku, int quantity);
}
