/**
 * Graph building: from a history to the known dependencies and the uncertainty the search
 * resolves.
 *
 * <p>{@link dev.isocheck.graph.ReadExplanations} lists, for every value a committed transaction
 * observed from the database, the writes that can explain it (the candidate write-read edges);
 * {@link dev.isocheck.graph.ReadAnomalies} reports the anomalies visible without any search
 * (G1a, G1b, thin-air, INT, initial-value conflicts). Both follow {@code docs/semantics.md}.
 */
package dev.isocheck.graph;
