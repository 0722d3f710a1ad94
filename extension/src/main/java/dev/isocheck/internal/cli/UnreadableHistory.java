package dev.isocheck.internal.cli;

/**
 * A history that could not be read: the message is one line naming it, the place where there is
 * one, and the problem, as the command prints it after {@code isocheck: }.
 */
final class UnreadableHistory extends Exception {

    UnreadableHistory(String message) {
        super(message, null, false, false);
    }
}
