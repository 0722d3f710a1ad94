package dev.isocheck.internal.predicate;

/**
 * What {@link WherePredicate#parse(String)} makes of a {@code where} clause: a
 * {@link WherePredicate} to evaluate, or {@link UnsupportedWhere} with the reason.
 */
public sealed interface ParsedWhere permits WherePredicate, UnsupportedWhere {

    /** The clause as recorded. */
    String where();

    /** Whether the clause can be evaluated, that is, whether this is a {@link WherePredicate}. */
    default boolean isSupported() {
        return this instanceof WherePredicate;
    }
}
