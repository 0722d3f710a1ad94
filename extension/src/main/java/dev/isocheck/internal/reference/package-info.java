/**
 * The reference checker: a brute-force oracle, written straight from the definitions of
 * {@code docs/semantics.md}, that every fast engine is differentially tested against on small
 * histories.
 *
 * <p>{@link dev.isocheck.internal.reference.ReferenceChecker} enumerates orders (and, for snapshot
 * isolation, snapshots) and replays each transaction atomically at its place; its static
 * {@code explains...} methods replay a given witness.
 *
 * <p><strong>Internal.</strong> This package is not API: it may change at any time without notice,
 * and using it from outside isocheck is not supported.
 */
package dev.isocheck.internal.reference;
