/**
 * History files: reading and writing isocheck's JSON Lines format, and reading the formats of other
 * checkers (dbcop's {@code history.bincode}, Cobra's per-client {@code *.log} directories).
 *
 * <p>Input: a path. Output: a {@link dev.isocheck.history.History}, or a
 * {@link dev.isocheck.format.HistoryFormatException} naming the file, the place and the problem.
 */
package dev.isocheck.format;
