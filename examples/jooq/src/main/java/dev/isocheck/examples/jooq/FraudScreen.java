package dev.isocheck.examples.jooq;

/**
 * The bank's fraud screen, which every withdrawal passes between checking the balances and
 * booking the new one. A screen that takes its time is exactly where two withdrawals overlap;
 * the tests give the bank one that holds each withdrawal until the other has read too.
 */
@FunctionalInterface
public interface FraudScreen {

    /** Lets every withdrawal through at once. */
    FraudScreen NONE = (account, amount) -> { };

    /** Screens a withdrawal of {@code amount} from {@code account}, returning when it may go on. */
    void screen(long account, int amount);
}
