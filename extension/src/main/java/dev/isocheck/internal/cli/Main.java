package dev.isocheck.internal.cli;

import dev.isocheck.CheckOptions;
import java.io.PrintStream;
import java.util.function.UnaryOperator;

/** Entry point of {@code java -jar isocheck.jar}: dispatches to the commands. */
public final class Main {

    private Main() {
    }

    /** Runs a command and exits with its status. */
    public static void main(String[] args) {
        System.exit(run(args, System::getProperty, System.out, System.err));
    }

    /**
     * Runs the command {@code args} name, with the options the system properties set (read here,
     * once: {@link SystemProperties}), and returns its exit status.
     */
    static int run(String[] args, UnaryOperator<String> properties, PrintStream out, PrintStream err) {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help")) {
            out.println(CheckCommand.USAGE);
            return args.length == 0 ? CheckCommand.EXIT_INVALID : CheckCommand.EXIT_OK;
        }
        if (!args[0].equals("check")) {
            err.println("isocheck: unknown command '" + args[0] + "'\n" + CheckCommand.USAGE);
            return CheckCommand.EXIT_INVALID;
        }
        CheckOptions options;
        try {
            options = SystemProperties.checkOptions(properties);
        } catch (IllegalArgumentException e) {
            // Before any history is read: every check would fail the same way.
            err.println("isocheck: " + e.getMessage());
            return CheckCommand.EXIT_INVALID;
        }
        String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
        return new CheckCommand(out, err, options).run(rest);
    }
}
