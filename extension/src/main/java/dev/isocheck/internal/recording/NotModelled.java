package dev.isocheck.internal.recording;

import java.util.Objects;

/**
 * Something the recorder saw but could not turn into operations, and so left out of the check: a
 * table whose writes are not fully known, or a statement it could not analyse.
 *
 * @param subject what was left out, such as {@code table doctors} or the statement's SQL
 * @param reason  why, in a few words a developer can act on
 */
public record NotModelled(String subject, String reason) {

    /** Validates. */
    public NotModelled {
        Objects.requireNonNull(subject, "subject is null");
        Objects.requireNonNull(reason, "reason is null");
    }

    /**
     * Whether a whole table (or every table) was left out, rather than some reads: the check then
     * says nothing about that table, and a passing test must not look like a full pass.
     */
    public boolean leavesTableOut() {
        return subject.startsWith("table ") || subject.startsWith("every table");
    }

    @Override
    public String toString() {
        return subject + ": " + reason;
    }
}
