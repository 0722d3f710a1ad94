package dev.isocheck.examples.spring;

/**
 * The porters' service, called for each box taken from the stockroom while its transaction is open:
 * after the count has been read and checked, before the new count is written.
 */
@FunctionalInterface
public interface Porter {

    /** Asks a porter to bring {@code quantity} of {@code sku} to the ward. */
    void fetch(String sku, int quantity);
}
