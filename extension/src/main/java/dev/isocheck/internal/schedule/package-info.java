/**
 * Interleavings explored: the scheduler of an {@code @InterleavingTest}. Input: the test's
 * threads arriving at the recorder's points (each statement, commit, rollback and
 * {@code getConnection}) through {@link dev.isocheck.internal.recording.StatementGate}; output:
 * one {@link dev.isocheck.internal.schedule.Trace} per run, the order in which the
 * {@link dev.isocheck.internal.schedule.Gate} let them through, which the JUnit integration prints
 * beside the check's verdict of that run. {@link dev.isocheck.internal.schedule.Exploration} plans
 * the runs of one test: round robin first, every order of the points when they fit the budget,
 * random walks otherwise, and replays of an order that showed an anomaly.
 */
package dev.isocheck.internal.schedule;
