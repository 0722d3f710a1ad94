/**
 * The checking pipeline: screens a history for anomalies found without search, then searches for an
 * order that explains it. Input: a {@link dev.isocheck.history.History} and a level. Output: a
 * {@link dev.isocheck.check.Verdict}.
 */
package dev.isocheck.engine;
