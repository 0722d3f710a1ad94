/**
 * Text that reaches a terminal: names taken from a history (ids, keys, sessions, threads, SQL,
 * values, file names) made safe to print, and echoes of the input kept short.
 *
 * <p><strong>Internal.</strong> This package is not API: it may change at any time without notice,
 * and using it from outside isocheck is not supported.
 */
package dev.isocheck.internal.text;
