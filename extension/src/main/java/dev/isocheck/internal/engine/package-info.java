/**
 * The checking pipeline: screens a history for anomalies found without search, splits it into
 * independent parts where the level allows, then searches each for an order that explains it. Input: a {@link dev.isocheck.history.History} and a level. Output: a
 * {@link dev.isocheck.Verdict}.
 */
package dev.isocheck.internal.engine;
