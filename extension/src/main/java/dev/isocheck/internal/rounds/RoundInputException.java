package dev.isocheck.internal.rounds;

/**
 * A batch that rounds cannot check: it breaks the order an earlier round relied on, or has what
 * rounds do not handle. Never a verdict: the caller says what and where, and stops.
 */
public final class RoundInputException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** With what is wrong, in words. */
    public RoundInputException(String message) {
        super(message);
    }
}
