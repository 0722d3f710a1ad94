package dev.isocheck.internal.cli;

import dev.isocheck.format.HistoryFormat;
import dev.isocheck.format.HistoryFormatException;
import dev.isocheck.format.HistoryReader;
import dev.isocheck.history.History;
import dev.isocheck.internal.text.Printable;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * One history the command checks: its name in the output, the name its report page encodes, and
 * how it is read. A file is read as it is; a gzip file ({@code *.gz}) and standard input are
 * first copied into a {@link Spool}, and what the reader says of the copy is said of the input.
 */
sealed interface HistorySource {

    /** The name standard input goes by in the output. */
    String STANDARD_INPUT = "<stdin>";

    /** How much of a reader's problem a message keeps: the problem's words and an echo of the input. */
    int PROBLEM_LIMIT = 300;

    /** The history as the output names it: the path as given or found, or {@value #STANDARD_INPUT}. */
    String name();

    /** What its report page's file name encodes ({@link ReportPages#name}). */
    String reportKey();

    /**
     * Reads the history, telling {@code warnings} (sentences naming this input) of what the reader
     * did not understand.
     *
     * @throws UnreadableHistory naming this input, when it cannot be read or is malformed
     */
    History read(Consumer<String> warnings) throws UnreadableHistory;

    /** A file, or a Cobra directory, read as it is. */
    record Plain(Path path, HistoryFormat format) implements HistorySource {

        @Override
        public String name() {
            return path.toString();
        }

        @Override
        public String reportKey() {
            return path.normalize().toString();
        }

        @Override
        public History read(Consumer<String> warnings) throws UnreadableHistory {
            return HistorySource.read(format, path, name(), null, warnings);
        }
    }

    /** A gzip file ({@code x.jsonl.gz}), decompressed first. */
    record Compressed(Path path, HistoryFormat format) implements HistorySource {

        @Override
        public String name() {
            return path.toString();
        }

        @Override
        public String reportKey() {
            return path.normalize().toString();
        }

        @Override
        public History read(Consumer<String> warnings) throws UnreadableHistory {
            Spool spool;
            try (InputStream in = new GZIPInputStream(Files.newInputStream(path), 1 << 16)) {
                spool = Spool.of(in);
            } catch (IOException | UncheckedIOException e) {
                throw new UnreadableHistory(name() + ": " + gzipProblem(e));
            }
            try (spool) {
                return HistorySource.read(format, spool.file(), name(), spool.file(), warnings);
            }
        }
    }

    /**
     * Standard input ({@code -}), gzip-compressed or not (told by its first bytes), in the format
     * named, or else the one its content begins as.
     */
    record StandardInput(InputStream in, Optional<HistoryFormat> format) implements HistorySource {

        @Override
        public String name() {
            return STANDARD_INPUT;
        }

        @Override
        public String reportKey() {
            return STANDARD_INPUT;
        }

        @Override
        public History read(Consumer<String> warnings) throws UnreadableHistory {
            Spool spool;
            try {
                BufferedInputStream buffered = new BufferedInputStream(in, 1 << 16);
                boolean gzip = ContentSniffer.isGzip(buffered);
                // Not closed: standard input is the process's, not this history's.
                spool = Spool.of(gzip ? new GZIPInputStream(buffered, 1 << 16) : buffered);
            } catch (IOException | UncheckedIOException e) {
                throw new UnreadableHistory(name() + ": " + gzipProblem(e));
            }
            try (spool) {
                HistoryFormat chosen = format.isPresent() ? format.get() : ContentSniffer.format(spool.file())
                        .orElseThrow(() -> new UnreadableHistory(name() + ": " + ContentSniffer.UNKNOWN));
                return HistorySource.read(chosen, spool.file(), name(), spool.file(), warnings);
            } catch (IOException e) {
                throw new UnreadableHistory(name() + ": cannot be read: " + describe(e));
            }
        }
    }

    /**
     * Reads {@code file} in {@code format}; {@code copy}, when not {@code null}, is the spooled copy
     * of the input called {@code name}, whose path the reader's messages name and this replaces.
     */
    private static History read(HistoryFormat format, Path file, String name, Path copy, Consumer<String> warnings)
            throws UnreadableHistory {
        Consumer<String> renamed = copy == null ? warnings : w -> warnings.accept(w.replace(copy.toString(), name));
        try {
            return HistoryReader.of(format).read(file, renamed);
        } catch (HistoryFormatException e) {
            String where = copy != null && e.file().equals(copy) ? name : e.file().toString();
            throw new UnreadableHistory(where + (e.place().isEmpty() ? "" : ":" + e.place()) + ": "
                    + Printable.bounded(e.problem(), PROBLEM_LIMIT));
        } catch (IOException | UncheckedIOException e) {
            throw new UnreadableHistory(name + ": cannot be read: " + describe(e));
        }
    }

    /** What went wrong decompressing, in gzip's terms. */
    private static String gzipProblem(Exception e) {
        Throwable cause = e instanceof UncheckedIOException u ? u.getCause() : e;
        if (cause instanceof EOFException) {
            return "the gzip data ends early (a truncated file?)";
        }
        if (cause instanceof ZipException zip) {
            return "Not in GZIP format".equals(zip.getMessage()) ? "not gzip data (a *.gz history must be gzip-compressed)"
                    : "corrupt gzip data (" + describe(zip) + ")";
        }
        return "cannot be read: " + describe(e);
    }

    /** An I/O failure in words. */
    static String describe(Exception e) {
        Throwable cause = e instanceof UncheckedIOException u ? u.getCause() : e;
        if (cause instanceof NoSuchFileException) {
            return "no such file";
        }
        if (cause instanceof AccessDeniedException) {
            return "permission denied";
        }
        String message = cause.getMessage();
        return message == null || message.isBlank() ? cause.getClass().getSimpleName()
                : Printable.bounded(message.replaceAll("\\s+", " ").strip(), PROBLEM_LIMIT);
    }
}
