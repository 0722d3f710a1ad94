package dev.isocheck.internal.cli;

import dev.isocheck.format.HistoryFormat;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Tells what standard input holds, which has no name to go by: gzip by its magic bytes, JSON Lines
 * by how it begins. dbcop's binary format begins with counts, which any bytes could be, so it is
 * never guessed: it has to be named.
 */
final class ContentSniffer {

    /** Why the format of standard input is not known, after {@code <stdin>: }. */
    static final String UNKNOWN = "cannot tell the history's format from its content: it does not begin as JSON Lines"
            + " does (with '{' or a '//' comment), and dbcop's binary format has nothing to tell it by; name the format"
            + " with --format (jsonl or dbcop)";

    private ContentSniffer() {
    }

    /** Whether {@code in} begins as gzip data does (ID1, ID2, deflate); {@code in} is left where it was. */
    static boolean isGzip(BufferedInputStream in) throws IOException {
        in.mark(3);
        try {
            return in.read() == 0x1f && in.read() == 0x8b && in.read() == 8;
        } finally {
            in.reset();
        }
    }

    /**
     * {@link HistoryFormat#JSONL} when the file, after a byte order mark and white space, begins
     * with {@code '{'} or {@code "//"}, or holds nothing else (then there is nothing to check, which
     * the command says); empty otherwise.
     */
    static Optional<HistoryFormat> format(Path file) throws IOException {
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file))) {
            int b = in.read();
            if (b == 0xef && in.read() == 0xbb && in.read() == 0xbf) {
                b = in.read();
            }
            while (b == ' ' || b == '\t' || b == '\r' || b == '\n') {
                b = in.read();
            }
            boolean jsonLines = b == -1 || b == '{' || b == '/' && in.read() == '/';
            return jsonLines ? Optional.of(HistoryFormat.JSONL) : Optional.empty();
        }
    }
}
