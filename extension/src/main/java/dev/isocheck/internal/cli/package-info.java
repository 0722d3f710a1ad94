/**
 * The {@code isocheck} command line, parsed by picocli ({@link dev.isocheck.internal.cli.Main}):
 * {@code check} checks histories at an isolation level and prints one result per history;
 * {@code help}, {@code --version} and {@code generate-completion} beside it.
 *
 * <p>Input: command-line arguments naming history files (gzipped or not), directories, or standard
 * input. Output: result lines, each violation explained under its line, every name escaped (or one
 * JSON object per history, and with {@code --report} an HTML page per violation), and an exit
 * status (0 every history satisfies the level, 1 one violates it, 2 the command line or an input
 * is invalid, a history has nothing to check or was not decided).
 *
 * <p><strong>Internal.</strong> This package is not API: it may change at any time without notice,
 * and using it from outside isocheck is not supported.
 */
package dev.isocheck.internal.cli;
