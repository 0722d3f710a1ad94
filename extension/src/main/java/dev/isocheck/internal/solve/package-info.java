/**
 * The fast engine's search: a SAT solver (sat4j) over the {@link dev.isocheck.internal.graph.HyperPolygraph}
 * with a lazy acyclicity theory, deciding serializability, strict serializability and snapshot
 * isolation on histories far beyond the reference checker's reach.
 *
 * <p>{@link dev.isocheck.internal.solve.SatChecker} is the entry point; every witness it returns has passed
 * {@link dev.isocheck.internal.solve.WitnessReplay}, a replay from the definitions of {@code docs/semantics.md}.
 *
 * <p><strong>Internal.</strong> This package is not API: it may change at any time without notice,
 * and using it from outside isocheck is not supported.
 */
package dev.isocheck.internal.solve;
