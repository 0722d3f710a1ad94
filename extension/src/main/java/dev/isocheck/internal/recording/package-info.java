/**
 * Recording: what the application's JDBC connections do, turned into a
 * {@link dev.isocheck.history.History} for the checker. Input: the calls a test's code makes on
 * recorded connections; output: a {@link dev.isocheck.internal.recording.RecordedHistory} (the
 * history, with the initial state unknown and possibly rewritten, and what could not be modelled).
 *
 * <p>Data flow: {@code jdbc} sees each call and appends {@link dev.isocheck.internal.recording.Observation}s
 * (statements, rows read, rows written, tables left out) to the connection's
 * {@link dev.isocheck.internal.recording.TransactionLog}; when the transaction ends, the log becomes a
 * {@link dev.isocheck.internal.recording.RecordedTransaction} (rows turned into keys
 * {@code table/pk}) in the {@link dev.isocheck.internal.recording.Recording} that was current when
 * it started; {@link dev.isocheck.internal.recording.Recording#finish()} drops every operation on a
 * table some transaction left out, and builds the history. {@code sql} classifies statements and
 * knows the dialects.
 *
 * <p>The rule throughout: never a false alarm. What the recorder cannot see exactly it does not
 * record: a read it cannot key is dropped (the check is weaker), and a write whose rows it cannot
 * see takes its whole table (or every table) out of the check, listed as
 * {@link dev.isocheck.internal.recording.NotModelled}. {@code docs/recording.md} lists the cases.
 *
 * <p><strong>Internal.</strong> This package is not API: it may change at any time without notice,
 * and using it from outside isocheck is not supported.
 */
package dev.isocheck.internal.recording;
