package dev.isocheck.internal.cli;

import dev.isocheck.IsolationLevel;
import dev.isocheck.format.HistoryFormat;
import dev.isocheck.internal.limit.DurationText;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A {@code check} command line read without picocli, when it is a plain one: {@code check}, its
 * options in the forms {@code --name=value} and {@code --name value}, {@code --json} and
 * {@code --classify} alone or with {@code =true}/{@code =false}, {@code --}, and at least one
 * input; every value one the command accepts.
 *
 * <p>Why: picocli builds its model of the commands from their annotations by reflection, which
 * on a cold JVM costs about 200 ms before the first history is read (its class files are Java 5's,
 * which older JVMs cannot put in a class-data archive either), against 20 to 40 ms for checking a
 * history of a thousand transactions once the JVM is warm. Anything else (help, version, another
 * command, an unknown option or value, a value that begins with {@code -}, {@code --json true}
 * with the value apart) is left to picocli, so that its usage, its messages and its reading of
 * unusual lines stay the only ones. {@code PlainCheckLineTests} holds the two readings equal.
 *
 * <p>Reading by hand is what the project's rule on dependencies asks to avoid; this stays for what
 * it was measured to save, whole command against whole command: 48 to 63 ms a check with the
 * launcher's class-data archive, 84 to 104 ms without, where picocli's model built through its
 * programmatic API kept about half of that ({@code docs/benchmarks.md}, "Reading the command
 * line"). Should picocli start faster, so that the saving falls below some 40 ms, this class goes.
 */
final class PlainCheckLine {

    private PlainCheckLine() {
    }

    /** The arguments of a plain {@code check} command line; empty for any other, which picocli reads. */
    static Optional<CheckCommand.Arguments> parse(String[] args) {
        if (args.length < 2 || !args[0].equals("check")) {
            return Optional.empty();
        }
        IsolationLevel level = null;
        boolean classify = false;
        HistoryFormat format = null;
        Duration timeout = null;
        boolean json = false;
        Path report = null;
        List<String> inputs = new ArrayList<>();
        boolean optionsEnded = false;
        for (int i = 1; i < args.length; i++) {
            String arg = args[i];
            if (optionsEnded || arg.equals("-") || !arg.startsWith("-")) {
                inputs.add(arg);
                continue;
            }
            if (arg.equals("--")) {
                optionsEnded = true;
                continue;
            }
            int equals = arg.indexOf('=');
            String name = equals < 0 ? arg : arg.substring(0, equals);
            String attached = equals < 0 ? null : arg.substring(equals + 1);
            if (name.equals("--json") || name.equals("--classify")) {
                Boolean value = attached == null ? Boolean.TRUE : booleanOf(attached);
                // "--json false", the value apart, is picocli's to read: it takes it as the value.
                if (value == null || attached == null && i + 1 < args.length && booleanOf(args[i + 1]) != null) {
                    return Optional.empty();
                }
                if (name.equals("--json")) {
                    json = value;
                } else {
                    classify = value;
                }
                continue;
            }
            String value = attached;
            if (value == null) {
                if (i + 1 >= args.length || args[i + 1].startsWith("-")) {
                    return Optional.empty();
                }
                value = args[++i];
            }
            switch (name) {
                case "--level" -> {
                    level = levelOf(value);
                    if (level == null) {
                        return Optional.empty();
                    }
                }
                case "--format" -> {
                    format = formatOf(value);
                    if (format == null) {
                        return Optional.empty();
                    }
                }
                case "--timeout" -> {
                    timeout = DurationText.parse(value).orElse(null);
                    if (timeout == null) {
                        return Optional.empty();
                    }
                }
                case "--report" -> {
                    report = pathOf(value);
                    if (report == null) {
                        return Optional.empty();
                    }
                }
                default -> {
                    return Optional.empty();
                }
            }
        }
        if (inputs.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new CheckCommand.Arguments(level, classify, format, timeout, json, report, List.copyOf(inputs)));
    }

    /** {@code true} or {@code false} in any case, as picocli reads a boolean; else {@code null}. */
    private static Boolean booleanOf(String text) {
        if (text.equalsIgnoreCase("true")) {
            return Boolean.TRUE;
        }
        return text.equalsIgnoreCase("false") ? Boolean.FALSE : null;
    }

    private static IsolationLevel levelOf(String name) {
        try {
            return IsolationLevel.fromName(name);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static HistoryFormat formatOf(String name) {
        try {
            return HistoryFormat.fromName(name);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static Path pathOf(String text) {
        try {
            return Path.of(text);
        } catch (InvalidPathException e) {
            return null;
        }
    }
}
