/**
 * The {@code check} command: checks history files at an isolation level and prints one verdict
 * per history. Input: command-line arguments. Output: verdict lines and an exit status (0 every
 * history satisfies the level, 1 one violates it, 2 an input or the command line is invalid).
 */
package dev.isocheck.internal.cli;
