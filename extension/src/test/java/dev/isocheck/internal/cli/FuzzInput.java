package dev.isocheck.internal.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A history as the fuzz test handles it: its format, a name, and its files' bytes (one file for
 * JSON Lines and dbcop, the per-client logs of a Cobra directory), written to disk only to be
 * checked. The seeds are the valid histories under {@code src/test/resources/fuzz/seeds/}.
 */
record FuzzInput(Kind kind, String name, Map<String, byte[]> files) {

    /** The three readers. */
    enum Kind {
        JSONL, DBCOP, COBRA
    }

    FuzzInput {
        files = new LinkedHashMap<>(files);
    }

    /** The only file of a one-file history. */
    byte[] bytes() {
        return files.values().iterator().next();
    }

    /** This history with its one file replaced. */
    FuzzInput withBytes(byte[] bytes) {
        return new FuzzInput(kind, name, Map.of(files.keySet().iterator().next(), bytes));
    }

    /** This history with one of its files replaced, or added. */
    FuzzInput withFile(String file, byte[] bytes) {
        Map<String, byte[]> changed = new LinkedHashMap<>(files);
        changed.put(file, bytes);
        return new FuzzInput(kind, name, changed);
    }

    /**
     * Writes the history into {@code dir}: a file named as the seed's, whose extension tells its
     * format, or a directory of logs; returns the path to check.
     */
    Path writeTo(Path dir) throws IOException {
        Files.createDirectories(dir);
        if (kind != Kind.COBRA) {
            return Files.write(dir.resolve(files.keySet().iterator().next()), bytes());
        }
        Path history = Files.createDirectories(dir.resolve(name));
        for (Map.Entry<String, byte[]> log : files.entrySet()) {
            Files.write(history.resolve(log.getKey()), log.getValue());
        }
        return history;
    }

    /** The seeds: every history under {@code fuzz/seeds/jsonl}, {@code dbcop} and {@code cobra} on the test classpath. */
    static List<FuzzInput> seeds() {
        Path root = resource("/fuzz/seeds");
        List<FuzzInput> seeds = new ArrayList<>();
        try {
            for (Path file : sorted(root.resolve("jsonl"))) {
                seeds.add(new FuzzInput(Kind.JSONL, file.getFileName().toString(),
                        Map.of(file.getFileName().toString(), Files.readAllBytes(file))));
            }
            for (Path file : sorted(root.resolve("dbcop"))) {
                seeds.add(new FuzzInput(Kind.DBCOP, file.getFileName().toString(),
                        Map.of(file.getFileName().toString(), Files.readAllBytes(file))));
            }
            for (Path dir : sorted(root.resolve("cobra"))) {
                Map<String, byte[]> logs = new LinkedHashMap<>();
                for (Path log : sorted(dir)) {
                    logs.put(log.getFileName().toString(), Files.readAllBytes(log));
                }
                seeds.add(new FuzzInput(Kind.COBRA, dir.getFileName().toString(), logs));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return seeds;
    }

    private static List<Path> sorted(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.sorted().toList();
        }
    }

    private static Path resource(String name) {
        URL url = FuzzInput.class.getResource(name);
        if (url == null) {
            throw new IllegalStateException("fuzz seeds missing: classpath resource " + name
                    + ", from extension/src/test/resources" + name);
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
