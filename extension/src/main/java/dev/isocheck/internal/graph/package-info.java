/**
 * Graph building: from a history to the known dependencies and the uncertainty the search
 * resolves.
 *
 * <p>{@link dev.isocheck.internal.graph.ReadExplanations} lists, for every value a committed transaction
 * observed from the database, the writes that can explain it (the candidate write-read edges);
 * {@link dev.isocheck.internal.graph.ReadAnomalies} reports the anomalies visible without any search
 * (G1a, G1b, thin-air, INT, initial-value conflicts). Both follow {@code docs/semantics.md}.
 *
 * <p>{@link dev.isocheck.internal.graph.KnownGraph} holds the edges every valid order respects (session
 * order, real time for strict levels, write-read edges with a single explanation), and
 * {@link dev.isocheck.internal.graph.HyperPolygraph} the choices left (which write each read observed, the
 * version order of each key) and the rule that derives read-write edges from them.
 *
 * <p><strong>Internal.</strong> This package is not API: it may change at any time without notice,
 * and using it from outside isocheck is not supported.
 */
package dev.isocheck.internal.graph;
