package dev.isocheck.examples.tickets;

/** Charges a fan's card, between the box office's seat count and the ticket it issues. */
@FunctionalInterface
public interface CardPayments {

    /** Charges nothing, at once. */
    CardPayments NONE = holder -> { };

    /** Charges {@code holder} for one ticket. */
    void charge(String holder);
}
