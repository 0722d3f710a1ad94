/**
 * Text that reaches users: names taken from a history (ids, keys, sessions, threads, SQL, values,
 * file names) made safe to print ({@link dev.isocheck.internal.text.Printable}), an excerpt of
 * input bounded in length, so that no message echoes megabytes
 * ({@link dev.isocheck.internal.text.Excerpt}), and the known name a misspelt one is nearest to
 * ({@link dev.isocheck.internal.text.NearestName}).
 *
 * <p><strong>Internal.</strong> This package is not API: it may change at any time without notice,
 * and using it from outside isocheck is not supported.
 */
package dev.isocheck.internal.text;
