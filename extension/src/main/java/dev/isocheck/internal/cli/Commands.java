package dev.isocheck.internal.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Writer;
import picocli.AutoComplete;
import picocli.CommandLine;

/**
 * The {@code isocheck} command line as picocli parses it: {@link IsocheckCommand} with its
 * commands {@code check}, {@code help} and {@code generate-completion}, and how errors, help and
 * usage are written. Built only for a line {@link PlainCheckLine} leaves to picocli, and by
 * {@link CheckCommand#run(String[])}.
 */
final class Commands {

    private Commands() {
    }

    /**
     * The whole command line, with {@code check} as its {@code check} command, writing help and
     * usage to {@code out} and errors (with the usage) to {@code err}.
     */
    static CommandLine of(CheckCommand check, PrintStream out, PrintStream err) {
        CommandLine line = new CommandLine(new IsocheckCommand())
                .addSubcommand("check", check)
                .addSubcommand(new CommandLine.HelpCommand())
                .addSubcommand(new AutoComplete.GenerateCompletion());
        // Listed with the other commands: it is how a shell learns them.
        line.getSubcommands().get("generate-completion").getCommandSpec().usageMessage().hidden(false);
        line.setOut(new PrintWriter(new StreamWriter(out), true));
        line.setErr(new PrintWriter(new StreamWriter(err), true));
        // Room for "--classify[=true|false]" beside its description.
        line.setUsageHelpLongOptionsMaxWidth(24);
        line.setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
        // "@file" is a history's name, not a file of arguments.
        line.setExpandAtFiles(false);
        // The last of a repeated option wins, as it always has.
        line.setOverwrittenOptionsAllowed(true);
        line.setParameterExceptionHandler(new UsageErrors());
        line.setExecutionExceptionHandler((e, command, parsed) -> Main.internalError(e, err));
        return line;
    }

    /**
     * Writes to a {@link PrintStream} in its own encoding ({@link PrintWriter} over it would encode
     * in the platform's), so that picocli's help comes out as the verdicts do.
     */
    private static final class StreamWriter extends Writer {

        private final PrintStream stream;

        StreamWriter(PrintStream stream) {
            this.stream = stream;
        }

        @Override
        public void write(char[] chars, int offset, int length) {
            stream.print(new String(chars, offset, length));
        }

        @Override
        public void flush() {
            stream.flush();
        }

        @Override
        public void close() {
            stream.flush();
        }
    }
}
