package dev.isocheck.internal.predicate;

import java.util.Objects;

/**
 * A {@code where} clause that isocheck does not evaluate: broken SQL, or SQL outside the
 * supported grammar (functions, arithmetic, subqueries, ...). A predicate read with such a
 * clause is <em>unmodelled</em> (see {@code docs/semantics.md}): its returned rows still count
 * as item reads and the rest of the table adds no constraint.
 *
 * @param where  the clause as recorded
 * @param reason why, in one line
 */
public record UnsupportedWhere(String where, String reason) implements ParsedWhere {

    /** Validates. */
    public UnsupportedWhere {
        Objects.requireNonNull(where, "where is null");
        Objects.requireNonNull(reason, "reason is null");
    }
}
