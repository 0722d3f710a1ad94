/**
 * The limits of one check: a deadline, checked cooperatively by the stages, and a memory budget
 * that a stage reserves from before it builds something whose size it has estimated. A stage
 * that would go past either throws {@link dev.isocheck.internal.limit.LimitExceededException},
 * which the search turns into a {@link dev.isocheck.Verdict.Unknown} naming the limit and the
 * stage.
 *
 * <p><strong>Internal.</strong> This package is not API: it may change at any time without notice,
 * and using it from outside isocheck is not supported.
 */
package dev.isocheck.internal.limit;
