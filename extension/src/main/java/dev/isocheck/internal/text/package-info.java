/**
 * Small text helpers shared by the parts that talk to users about what they wrote: the known
 * name a misspelt one is nearest to ({@link dev.isocheck.internal.text.NearestName}), and an
 * excerpt of input bounded in length, so that no message echoes megabytes
 * ({@link dev.isocheck.internal.text.Excerpt}).
 *
 * <p><strong>Internal.</strong> This package is not API: it may change at any time without notice,
 * and using it from outside isocheck is not supported.
 */
package dev.isocheck.internal.text;
