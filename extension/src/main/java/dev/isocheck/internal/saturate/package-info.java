/**
 * The saturation stage: the levels below snapshot isolation (read committed, read atomic, causal
 * consistency) decided in polynomial time by saturating the commit order with the edges each
 * level's axiom forces (Biswas and Enea, OOPSLA 2019). {@link dev.isocheck.internal.saturate.ReadEvents}
 * is the history as these levels see it (every read event with its candidate writers),
 * {@link dev.isocheck.internal.saturate.SaturationChecker} the decision, with a sound search over
 * candidate writers where values repeat.
 *
 * <p><strong>Internal.</strong> This package is not API: it may change at any time without notice,
 * and using it from outside isocheck is not supported.
 */
package dev.isocheck.internal.saturate;
