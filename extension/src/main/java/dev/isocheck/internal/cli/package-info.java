/**
 * The {@code check} command: checks history files at an isolation level and prints one verdict
 * per history.
 *
 * <p>Input: command-line arguments. Output: verdict lines, each violation explained under its line
 * (or one JSON object per history, and with {@code --report} an HTML page per violation), and an
 * exit status (0 every history satisfies the level, 1 one violates it, 2 an input or the command
 * line is invalid).
 *
 * <p><strong>Internal.</strong> This package is not API: it may change at any time without notice,
 * and using it from outside isocheck is not supported.
 */
package dev.isocheck.internal.cli;
