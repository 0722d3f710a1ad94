package dev.isocheck.internal.cli;

/** Entry point of {@code java -jar isocheck.jar}: dispatches to the commands. */
public final class Main {

    private Main() {
    }

    /** Runs a command and exits with its status. */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String[] args) {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help")) {
            System.out.println(CheckCommand.USAGE);
            return args.length == 0 ? CheckCommand.EXIT_INVALID : CheckCommand.EXIT_OK;
        }
        if (!args[0].equals("check")) {
            System.err.println("isocheck: unknown command '" + args[0] + "'\n" + CheckCommand.USAGE);
            return CheckCommand.EXIT_INVALID;
        }
        String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
        return new CheckCommand(System.out, System.err).run(rest);
    }
}
