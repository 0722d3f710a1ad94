/**
 * Explanations: from a violated history to the smallest evidence a developer can follow.
 *
 * <p>Between solving and the reports. An {@link dev.isocheck.internal.explain.Explainer} turns a history, the
 * level it violates and the transactions a verdict names into an {@link dev.isocheck.explain.Explanation}:
 * the read that shows a non-cycle anomaly (G1a, G1b, INT, thin air), or the shortest cycle of
 * dependencies that no order allowed at the level can contain, named in the Adya/Elle vocabulary
 * ({@link dev.isocheck.AnomalyType}, by {@link dev.isocheck.explain.AnomalyCycle#typeOf}) with each edge justified by the operations behind it;
 * when no single cycle is certain (the order of some writes, or which of several equal writes a
 * read saw, is unknown), one cycle for each case; when those cases are too many to show (reads of
 * values several transactions wrote), the likeliest case, its assumptions stated. Renderers ({@link dev.isocheck.explain.TextRenderer},
 * {@link dev.isocheck.explain.JsonRenderer}, {@link dev.isocheck.explain.DotRenderer},
 * {@link dev.isocheck.explain.HtmlRenderer}) present the same data for consoles, tools, Graphviz and
 * browsers. See {@code docs/explanations.md}.
 */
package dev.isocheck.explain;
