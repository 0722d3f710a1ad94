package dev.isocheck.internal.cli;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * One run of {@code isocheck} as a user runs it ({@link Main#run}: no system properties set),
 * and what came of it: the exit status and the two streams.
 */
record CommandRun(int status, String out, String err) {

    /** Runs {@code args} with nothing on standard input. */
    static CommandRun of(String... args) {
        return withInput(InputStream.nullInputStream(), args);
    }

    /** Runs {@code args} with {@code in} as standard input. */
    static CommandRun withInput(InputStream in, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(args, name -> null, in, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new CommandRun(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** A file or directory of {@code src/test/resources/cli}. */
    static Path resource(String name) {
        try {
            return Path.of(CommandRun.class.getResource("/cli/" + name).toURI());
        } catch (URISyntaxException | NullPointerException e) {
            throw new IllegalStateException("no test resource cli/" + name, e);
        }
    }
}
