/**
 * Warming the checker up before the first check a JVM makes: a small workload whose verdict is
 * known by construction ({@link dev.isocheck.internal.warmup.TrainingWorkload}) and the checks
 * that run it ({@link dev.isocheck.internal.warmup.Warmup}), so that the classes a check loads
 * are loaded and its hot code compiled before a user's history comes. The JUnit extension runs
 * them on a background thread while a test's body runs; the {@code check} command's launcher
 * runs them once to build a class-data archive.
 *
 * <p><strong>Internal.</strong> This package is not API: it may change at any time without notice,
 * and using it from outside isocheck is not supported.
 */
package dev.isocheck.internal.warmup;
