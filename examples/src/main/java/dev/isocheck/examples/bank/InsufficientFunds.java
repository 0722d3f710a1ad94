package dev.isocheck.examples.bank;

/** A transfer refused because it would take the customer's accounts together below zero. */
public final class InsufficientFunds extends RuntimeException {

    /**
     * @param customer whose accounts
     * @param total    what they held together
     * @param amount   what the transfer asked for
     */
    public InsufficientFunds(String customer, long total, long amount) {
        super(customer + "'s accounts hold " + total + " together, not enough for " + amount);
    }
}
