package dev.isocheck.internal.predicate;

/**
 * The outcome of a condition on one row: SQL's three truth values, plus {@link #INDETERMINATE}
 * for a row on which isocheck cannot tell what the database computed.
 *
 * <p>{@code INDETERMINATE} stands for "any of TRUE, FALSE, UNKNOWN": the row holds values that
 * dialects compare differently (a number against a string, a nested object), so a checker must
 * neither require nor forbid the row. The connectives below treat it as that set, so a result
 * that is the same for every member (for example {@code FALSE AND x}) stays exact.
 */
public enum Truth {

    /** The condition holds; the row is selected. */
    TRUE,

    /** The condition does not hold. */
    FALSE,

    /** SQL's unknown (a comparison with NULL); the row is not selected. */
    UNKNOWN,

    /** Not SQL's: the database may have computed any of the three; see the type comment. */
    INDETERMINATE;

    /** The truth of a Java boolean. */
    public static Truth of(boolean value) {
        return value ? TRUE : FALSE;
    }

    /** Whether a row with this outcome is certainly selected. */
    public boolean isTrue() {
        return this == TRUE;
    }

    /** Whether a row with this outcome is possibly selected: {@link #TRUE} or {@link #INDETERMINATE}. */
    public boolean maybeTrue() {
        return this == TRUE || this == INDETERMINATE;
    }

    /** SQL {@code AND}: FALSE wins, then INDETERMINATE, then UNKNOWN. */
    public Truth and(Truth other) {
        if (this == FALSE || other == FALSE) {
            return FALSE;
        }
        if (this == INDETERMINATE || other == INDETERMINATE) {
            return INDETERMINATE;
        }
        if (this == UNKNOWN || other == UNKNOWN) {
            return UNKNOWN;
        }
        return TRUE;
    }

    /** SQL {@code OR}: TRUE wins, then INDETERMINATE, then UNKNOWN. */
    public Truth or(Truth other) {
        if (this == TRUE || other == TRUE) {
            return TRUE;
        }
        if (this == INDETERMINATE || other == INDETERMINATE) {
            return INDETERMINATE;
        }
        if (this == UNKNOWN || other == UNKNOWN) {
            return UNKNOWN;
        }
        return FALSE;
    }

    /** SQL {@code NOT}: UNKNOWN and INDETERMINATE stay as they are. */
    public Truth not() {
        return switch (this) {
            case TRUE -> FALSE;
            case FALSE -> TRUE;
            case UNKNOWN, INDETERMINATE -> this;
        };
    }
}
