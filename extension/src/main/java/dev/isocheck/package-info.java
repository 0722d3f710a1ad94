/**
 * What a check asks and answers: the {@link dev.isocheck.IsolationLevel}, the
 * {@link dev.isocheck.internal.engine.Checker} role, and the three-valued {@link dev.isocheck.Verdict}
 * with the {@link dev.isocheck.Anomaly} that explains a violation.
 */
package dev.isocheck;
