package dev.isocheck.internal.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.util.function.UnaryOperator;
import picocli.AutoComplete;
import picocli.CommandLine;

/**
 * Entry point of {@code java -jar isocheck.jar}: the command line ({@link IsocheckCommand} and its
 * commands {@code check}, {@code help} and {@code generate-completion}), parsed by picocli, which
 * also writes the usage and {@code --help} from the options.
 */
public final class Main {

    private Main() {
    }

    /** Runs a command and exits with its status. */
    public static void main(String[] args) {
        System.exit(run(args, System::getProperty, System.out, System.err));
    }

    /**
     * Runs the command {@code args} name, with the options the system properties set (read once,
     * when {@code check} runs: {@link SystemProperties}), reading standard input for {@code -},
     * and returns its exit status: 0, 1 or 2 ({@link CheckCommand#EXIT_OK} and the others).
     */
    static int run(String[] args, UnaryOperator<String> properties, PrintStream out, PrintStream err) {
        return run(args, properties, System.in, out, err);
    }

    /** As {@link #run(String[], UnaryOperator, PrintStream, PrintStream)}, reading {@code in} for {@code -}. */
    static int run(String[] args, UnaryOperator<String> properties, InputStream in, PrintStream out, PrintStream err) {
        CheckCommand check = new CheckCommand(out, err, in, () -> SystemProperties.checkOptions(properties), null);
        return commandLine(check, out, err).execute(args);
    }

    /**
     * The whole command line, with {@code check} as its {@code check} command, writing help and
     * usage to {@code out} and errors (with the usage) to {@code err}.
     */
    static CommandLine commandLine(CheckCommand check, PrintStream out, PrintStream err) {
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
        line.setExecutionExceptionHandler((e, command, parsed) -> {
            // A last resort: the check command answers its own failures history by history.
            err.println("isocheck: internal error: " + e.getClass().getName() + " (please report)");
            return CheckCommand.EXIT_INVALID;
        });
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
