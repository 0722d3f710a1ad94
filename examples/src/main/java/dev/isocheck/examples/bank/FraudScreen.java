package dev.isocheck.examples.bank;

/**
 * The bank's fraud screening, asked about every transfer once the balances allow it: in
 * production a call to another service, which takes a moment while the transaction stays open.
 */
@FunctionalInterface
public interface FraudScreen {

    /** Approves everything at once. */
    FraudScreen NONE = (from, to, amount) -> { };

    /**
     * Returns when the transfer may go ahead.
     *
     * @throws IllegalStateException to stop it
     */
    void approve(String from, String to, long amount);
}
