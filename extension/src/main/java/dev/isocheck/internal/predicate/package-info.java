/**
 * The {@code where} clause of a predicate read, shared by every checker and explainer: parsed
 * once with JSqlParser into a small compiled condition, then evaluated on a row with SQL's
 * three-valued logic.
 *
 * <p>{@link dev.isocheck.internal.predicate.WherePredicate#parse(String)} answers either a
 * {@link dev.isocheck.internal.predicate.WherePredicate} or an {@link dev.isocheck.internal.predicate.UnsupportedWhere}
 * naming why; no exception escapes for a clause that is merely broken or outside the supported
 * grammar. The choices made where SQL dialects differ are listed on
 * {@link dev.isocheck.internal.predicate.WherePredicate} and in {@code docs/semantics.md}.
 *
 * <p><strong>Internal.</strong> This package is not API: it may change at any time without notice,
 * and using it from outside isocheck is not supported.
 */
package dev.isocheck.internal.predicate;
