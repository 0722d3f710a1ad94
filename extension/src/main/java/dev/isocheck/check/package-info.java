/**
 * What a check asks and answers: the {@link dev.isocheck.check.IsolationLevel}, the
 * {@link dev.isocheck.check.Checker} role, and the three-valued {@link dev.isocheck.check.Verdict}
 * with the {@link dev.isocheck.check.Anomaly} that explains a violation.
 */
package dev.isocheck.check;
