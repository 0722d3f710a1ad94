package dev.isocheck.internal.text;

import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * Text taken from an input, bounded for a message: a 10 MB string in a history must not become a
 * 10 MB error line. Up to {@value #LIMIT} characters are shown whole; a longer text is cut there
 * and followed by {@code "… (N more characters)"}, so the reader still learns how long it was.
 */
public final class Excerpt {

    /** The characters of an input shown at most, enough to recognise a key, a value or a token. */
    public static final int LIMIT = 200;

    private Excerpt() {
    }

    /** {@code text} itself when at most {@value #LIMIT} characters long, else its beginning and the count of the rest. */
    public static String of(String text) {
        return of(text, LIMIT, UnaryOperator.identity());
    }

    /**
     * {@code text} rendered by {@code render} (quoting, say) when at most {@code limit} characters
     * long; else its first {@code limit} characters rendered, then {@code "… (N more characters)"}.
     * Never cuts a surrogate pair in two, so the excerpt is valid text.
     */
    public static String of(String text, int limit, UnaryOperator<String> render) {
        if (text.length() <= limit) {
            return render.apply(text);
        }
        int end = Character.isHighSurrogate(text.charAt(limit - 1)) ? limit - 1 : limit;
        return render.apply(text.substring(0, end))
                + String.format(Locale.ROOT, "… (%,d more characters)", text.length() - end);
    }
}
