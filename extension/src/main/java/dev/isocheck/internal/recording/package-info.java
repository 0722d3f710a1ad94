/**
 * Recording: what the application's JDBC connections do, turned into a
 * {@link dev.isocheck.history.History} for the checker. Input: the calls a test's code makes on
 * recorded connections; output: a {@link dev.isocheck.internal.recording.RecordedHistory} (the
 * history, with the initial state unknown and possibly rewritten, and what could not be modelled).
 *
 * <p><strong>Internal.</strong> This package is not API: it may change at any time without notice,
 * and using it from outside isocheck is not supported.
 */
package dev.isocheck.internal.recording;
