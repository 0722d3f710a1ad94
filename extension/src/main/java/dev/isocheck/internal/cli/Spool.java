package dev.isocheck.internal.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * An input copied into a temporary file, for the readers, which read files (the binary ones
 * weigh each count against the bytes left): standard input, or a gzip file decompressed. Only
 * the user can read the file; it is deleted when closed, or else when the JVM exits (a read
 * abandoned at the time limit may still hold it).
 */
final class Spool implements AutoCloseable {

    private final Path file;

    private Spool(Path file) {
        this.file = file;
    }

    /** Copies {@code in} to the end, without closing it. */
    static Spool of(InputStream in) throws IOException {
        Path file = Files.createTempFile("isocheck-", ".history");
        file.toFile().deleteOnExit();
        try {
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            return new Spool(file);
        } catch (IOException | RuntimeException | Error e) {
            delete(file);
            throw e;
        }
    }

    /** The copy. */
    Path file() {
        return file;
    }

    @Override
    public void close() {
        delete(file);
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // deleteOnExit is still registered.
        }
    }
}
