package dev.isocheck.examples.spring;

/** The porters' service, told of each box taken from the stockroom, so that a porter brings it. */
@FunctionalInterface
public interface Porter {

    /** Asks a porter to bring {@code quantity} of {@code sku} to the ward. */
    void fetch(String sku, int quantity);
}
