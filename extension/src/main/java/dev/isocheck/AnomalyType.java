package dev.isocheck;

/**
 * The kinds of anomaly a verdict can name, in the Adya/Elle vocabulary where there is one.
 *
 * <p>The first five are found without search (see {@code docs/semantics.md}); the rest name what
 * a search over orders or cycles found.
 */
public enum AnomalyType {

    /** A committed read can only be explained by a write of an aborted transaction. */
    G1A("G1a", "aborted read"),

    /** A committed read can only be explained by a write that its transaction later overwrote. */
    G1B("G1b", "intermediate read"),

    /** A read returned something other than the transaction's own latest access to the key. */
    INTERNAL("INT", "internal inconsistency"),

    /** No write, and not the initial state, explains the value read. */
    THIN_AIR("thin-air", "read of a value nobody wrote"),

    /** Reads that only the (unknown) initial value can explain saw different initial values. */
    INITIAL_VALUE_CONFLICT("initial-value-conflict", "conflicting reads of the initial value"),

    /** No order of the committed transactions allowed at the level explains what they read. */
    NO_VALID_ORDER("no-valid-order", "no order of the committed transactions explains the reads");

    private final String shortName;
    private final String description;

    AnomalyType(String shortName, String description) {
        this.shortName = shortName;
        this.description = description;
    }

    /** The name reports use, e.g. {@code G1a}. */
    public String shortName() {
        return shortName;
    }

    /** A few words a developer who never read Adya can follow, e.g. {@code aborted read}. */
    public String description() {
        return description;
    }

    @Override
    public String toString() {
        return shortName;
    }
}
