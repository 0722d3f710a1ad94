package dev.isocheck.examples.hotel;

/** The payment provider, asked to authorise each booking while its transaction is open. */
@FunctionalInterface
public interface Payments {

    /** Authorises everything. */
    Payments NONE = guest -> { };

    /** Returns when {@code guest}'s payment is authorised. */
    void authorize(String guest);
}
