package dev.isocheck.internal.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code isocheck}: the commands; given none, a usage error. */
@Command(name = "isocheck", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Checks recorded database histories at an isolation level.",
        synopsisSubcommandLabel = "COMMAND",
        commandListHeading = "%nCommands:%n",
        footer = {"", "Run 'isocheck help COMMAND' or 'isocheck COMMAND --help' for a command's options."})
final class IsocheckCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(spec.commandLine(), "no command given (check a history with 'isocheck check')");
    }
}
