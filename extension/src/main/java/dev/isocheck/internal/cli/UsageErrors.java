package dev.isocheck.internal.cli;

import dev.isocheck.internal.text.Printable;
import java.io.PrintWriter;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.ParameterException;

/**
 * A command line that could not be parsed, or whose options contradict each other: the error in
 * one line, {@code isocheck: } and what is wrong (what it quotes of the arguments
 * {@linkplain Printable#echo bounded and escaped}), then the usage of the command concerned, all on
 * standard error, and exit status 2. Nothing is checked.
 */
final class UsageErrors implements CommandLine.IParameterExceptionHandler {

    /**
     * An option's value the command's converters refuse, in a sentence of their own that names the
     * option and bounds what it quotes: printed as it is, not after picocli's "Invalid value for".
     */
    static final class BadValue extends CommandLine.TypeConversionException {

        BadValue(String message) {
            super(message);
        }
    }

    /**
     * The usage error {@code message} of the command {@code spec} describes, to throw. Typed as a
     * plain {@link RuntimeException} so that the class throwing it loads no picocli class until it
     * does ({@link Main}).
     */
    static RuntimeException refusal(CommandLine.Model.CommandSpec spec, String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    @Override
    public int handleParseException(ParameterException e, String[] args) {
        CommandLine line = e.getCommandLine();
        PrintWriter err = line.getErr();
        err.println("isocheck: " + message(e));
        CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
        err.print(line.getUsageMessage());
        err.flush();
        return CheckCommand.EXIT_INVALID;
    }

    private static String message(ParameterException e) {
        if (e.getCause() instanceof BadValue bad) {
            return bad.getMessage();
        }
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched && e.getCommandLine().getParent() == null
                && !unmatched.getUnmatched().isEmpty()) {
            return "unknown command '" + Printable.echo(unmatched.getUnmatched().get(0)) + "'";
        }
        if (e instanceof CommandLine.MissingParameterException missing && missing.getMissing().stream()
                .anyMatch(ArgSpec::isPositional)) {
            return "no history file or directory given (a file, a directory, or - for standard input)";
        }
        // The command's own messages bound what they quote; picocli's quote an argument whole.
        String message = Printable.escape(Printable.bounded(e.getMessage() == null ? e.getClass().getSimpleName()
                : e.getMessage(), 3 * Printable.ECHO_LIMIT));
        // picocli's sentences begin with a capital; the command's all begin in lower case.
        return message.isEmpty() ? message : message.substring(0, 1).toLowerCase(Locale.ROOT) + message.substring(1);
    }
}
