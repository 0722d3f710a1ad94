package dev.isocheck.examples.jooq;

/**
 * A withdrawal refused because the customer's accounts together do not hold the amount. Unchecked,
 * so that jOOQ rolls the transaction back and rethrows it as it is.
 */
public final class InsufficientFunds extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** A refusal of {@code amount} to {@code owner}, whose accounts hold {@code total} together. */
    public InsufficientFunds(String owner, int total, int amount) {
        super(owner + "'s accounts hold " + total + " together, not enough for " + amount);
    }
}
