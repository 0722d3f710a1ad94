/**
 * The history model: what a test (or a history file) observed of a database, as immutable values.
 *
 * <p>Input of every later stage. A {@link dev.isocheck.history.History} holds transactions in
 * session order with their operations (reads, writes, predicate reads); keys and values are
 * interned into {@link dev.isocheck.history.KeyTable} and {@link dev.isocheck.history.ValueTable}
 * so that the checkers work on {@code int}s and a 100k-transaction history stays small.
 * The semantics are those of {@code docs/history-format.md} and {@code docs/semantics.md}.
 */
package dev.isocheck.history;
