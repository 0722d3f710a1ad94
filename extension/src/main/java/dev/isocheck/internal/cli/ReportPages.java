package dev.isocheck.internal.cli;

import dev.isocheck.explain.Explanation;
import dev.isocheck.explain.HtmlRenderer;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Locale;

/** {@code --report DIR}: the HTML page explaining each violation, one per history. */
final class ReportPages {

    /** Names longer than this (of the 255 bytes most file systems allow) end in a hash instead. */
    static final int MAX_NAME = 200;

    private ReportPages() {
    }

    /**
     * Writes the page explaining {@code history}'s violation as {@code DIR/}{@link #name name(history)}.
     *
     * @return the page
     */
    static Path write(Path directory, HistorySource history, Explanation explanation) throws IOException {
        Files.createDirectories(directory);
        Path page = directory.resolve(name(history.reportKey(), directory.getFileSystem().getSeparator()));
        writeUtf8(page, new HtmlRenderer().render(explanation, history.name()));
        return page;
    }

    /**
     * Writes {@code text} in UTF-8, half a surrogate pair (which UTF-8 cannot encode) as U+FFFD:
     * the page must not be lost for one character of a name. The renderer shows such halves
     * escaped already; this holds should one slip through.
     */
    static void writeUtf8(Path file, String text) throws IOException {
        CharsetEncoder utf8 = StandardCharsets.UTF_8.newEncoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE)
                .replaceWith("\uFFFD".getBytes(StandardCharsets.UTF_8));
        try (Writer out = new OutputStreamWriter(Files.newOutputStream(file), utf8)) {
            out.write(text);
        }
    }

    /**
     * The file name of the report on the history at {@code path} (normalised, as the command names
     * it), a one-to-one encoding of the path ({@code a/b_c.jsonl} and {@code a_b/c.jsonl} never
     * share one): letters, digits, {@code '.'} and {@code '-'} stay; the {@code separator} is
     * {@code "__"}; every other character ({@code '_'} included) is {@code '_'} and its four
     * hexadecimal digits ({@code "_005f"}); then {@code ".html"}. An underscore is followed by
     * another or by four hexadecimal digits, so the path can be read back. A name that would be
     * longer than {@value #MAX_NAME} characters keeps its end and replaces the rest by a SHA-256
     * prefix of the whole.
     */
    static String name(String path, String separator) {
        StringBuilder name = new StringBuilder(path.length() + 16);
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (path.startsWith(separator, i)) {
                name.append("__");
                i += separator.length() - 1;
            } else if (c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-') {
                name.append(c);
            } else {
                name.append('_').append(String.format(Locale.ROOT, "%04x", (int) c));
            }
        }
        String encoded = name.toString();
        int room = MAX_NAME - ".html".length();
        if (encoded.length() > room) {
            String hash = sha256(encoded).substring(0, 16);
            encoded = hash + "-" + encoded.substring(encoded.length() - (room - hash.length() - 1));
        }
        return encoded + ".html";
    }

    /** {@link #name(String, String)} of a path. */
    static String name(Path history) {
        return name(history.normalize().toString(), history.getFileSystem().getSeparator());
    }

    private static String sha256(String text) {
        try {
            byte[] digest = java.security.MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
