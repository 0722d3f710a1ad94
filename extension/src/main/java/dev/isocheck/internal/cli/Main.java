package dev.isocheck.internal.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Entry point of {@code java -jar isocheck.jar}: the command line ({@link IsocheckCommand} and its
 * commands {@code check}, {@code help} and {@code generate-completion}), parsed by picocli, which
 * also writes the usage and {@code --help} from the options ({@link Commands}); a plain
 * {@code check} line is read without it ({@link PlainCheckLine}).
 *
 * <p>This class names no picocli type, so that loading it loads none of picocli's classes (Java 5
 * class files, verified slowly and kept out of class-data archives by older JVMs).
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
        // A plain check skips picocli's model of the commands, a fifth of a second on a cold JVM;
        // a line it would refuse goes to picocli, which words the usage error.
        Optional<CheckCommand.Arguments> plain = PlainCheckLine.parse(args)
                .filter(arguments -> CheckCommand.contradiction(arguments).isEmpty());
        if (plain.isPresent()) {
            return check.callWith(plain.get());
        }
        return Commands.of(check, out, err).execute(args);
    }

    /**
     * A last resort for an exception out of a command: one line on {@code err}, no stack trace
     * (the check command answers its own failures history by history); returns exit status 2.
     */
    static int internalError(Exception e, PrintStream err) {
        err.println("isocheck: internal error: " + e.getClass().getName() + " (please report)");
        return CheckCommand.EXIT_INVALID;
    }
}
