/**
 * The explainers: from a violated history to the smallest evidence a developer can follow.
 *
 * <p>Input: a {@link dev.isocheck.history.History}, the level it violates and the transactions a
 * verdict names. Output: an {@link dev.isocheck.explain.Explanation}, never a wrong one: the read
 * that shows a non-cycle anomaly, the shortest forbidden cycles (a case analysis when no cycle is
 * certain), or why nothing could be shown.
 * {@link dev.isocheck.internal.explain.ExhaustiveExplainer} searches every explanation of at most 10
 * committed transactions; {@link dev.isocheck.internal.explain.CoreExplainer}, for histories of any
 * size, first shrinks the history to a minimal set of transactions that still violates the level.
 * See {@code docs/explanations.md}.
 *
 * <p><strong>Internal.</strong> This package is not API: it may change at any time without notice,
 * and using it from outside isocheck is not supported.
 */
package dev.isocheck.internal.explain;
