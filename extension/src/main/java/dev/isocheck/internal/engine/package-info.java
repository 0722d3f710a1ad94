/**
 * The checking pipeline: screens a history for anomalies found without search, splits it into
 * independent parts where the level allows, then searches each for an order that explains it.
 * Prefix consistency is decided here too, as the serializability of the history with each
 * transaction split into its snapshot and its commit ({@link dev.isocheck.internal.engine.ReadWriteSplit}).
 *
 * <p>Input: a {@link dev.isocheck.history.History} and a level. Output: a
 * {@link dev.isocheck.Verdict}.
 *
 * <p><strong>Internal.</strong> This package is not API: it may change at any time without notice,
 * and using it from outside isocheck is not supported.
 */
package dev.isocheck.internal.engine;
