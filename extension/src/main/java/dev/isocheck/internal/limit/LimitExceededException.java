package dev.isocheck.internal.limit;

/**
 * A check went past one of its {@link Limits}: the message says which, by how much where that is
 * known, and in which stage. Thrown by the stages, turned into a
 * {@link dev.isocheck.Verdict.Unknown} by the search; it carries no stack trace (it is an
 * answer, not a bug).
 */
public final class LimitExceededException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Which limit. */
    public enum Kind {
        /** The time limit. */
        TIME,
        /** The memory budget. */
        MEMORY
    }

    private final Kind kind;

    LimitExceededException(Kind kind, String message) {
        super(message, null, false, false);
        this.kind = kind;
    }

    /** Which limit was exceeded. */
    public Kind kind() {
        return kind;
    }
}
