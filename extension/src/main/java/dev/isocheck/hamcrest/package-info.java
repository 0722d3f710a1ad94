/**
 * Hamcrest matchers on recorded histories: {@code serializable()}, {@code satisfies(level)},
 * {@code violates(level)}, {@code hasAnomaly(...)}, whose mismatch descriptions are isocheck's
 * explanations.
 *
 * <p>Hamcrest is an optional dependency of isocheck, and this is the only package that refers to
 * it: the rest of isocheck loads and records without Hamcrest on the class path.
 */
package dev.isocheck.hamcrest;
