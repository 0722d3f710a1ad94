package dev.isocheck.internal.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/** Finds {@code ../shared} beside the checkout, where CI puts it. */
final class SharedSamples {

    private SharedSamples() {
    }

    static Path path(String sample) {
        String configured = System.getProperty("isocheck.shared");
        Path shared = configured != null ? Path.of(configured) : Path.of("..", "..", "shared");
        Path found = shared.resolve("samples").resolve(sample);
        if (!Files.exists(found)) {
            throw new IllegalStateException("shared sample missing: " + found.toAbsolutePath()
                    + " (CI puts ../shared beside the checkout; set -Disocheck.shared otherwise)");
        }
        return found;
    }
}
