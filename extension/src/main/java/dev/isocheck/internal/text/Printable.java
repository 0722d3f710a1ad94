package dev.isocheck.internal.text;

/**
 * Text from a history made safe for a terminal or a log, where it sits among lines the program
 * writes: a name must not be able to end a line and begin one that reads like a verdict
 * ({@code "T1\nother.jsonl: OK"}), move the cursor or recolour the screen (an ESC sequence), or
 * reorder what is shown ({@code "gnp.exe"} behind U+202E reads {@code exe.png}).
 *
 * <p>{@link #escape} writes such characters as visible escapes: {@code \n}, {@code \r}, {@code \t},
 * and {@code \}{@code uXXXX} for the other C0 and C1 controls, DEL, the bidirectional controls
 * (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069), the line and paragraph
 * separators U+2028 and U+2029, and a surrogate without its pair (which no encoder can write).
 * Everything else, other scripts and emoji included, stays as it is. A backslash stays too:
 * values are printed as JSON, whose own escapes must not be doubled.
 */
public final class Printable {

    /** How much of an input a message quotes at most before it says how much it left out. */
    public static final int ECHO_LIMIT = 200;

    private Printable() {
    }

    /**
     * {@code text} with every character that could change how the lines around it are shown
     * written as an escape; {@code text} itself when it has none.
     */
    public static String escape(String text) {
        int first = firstUnsafe(text);
        if (first < 0) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, first);
        for (int i = first; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                out.append(c).append(text.charAt(++i));
            } else if (!isUnsafe(c)) {
                out.append(c);
            } else if (c == '\n') {
                out.append("\\n");
            } else if (c == '\r') {
                out.append("\\r");
            } else if (c == '\t') {
                out.append("\\t");
            } else {
                out.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
            }
        }
        return out.toString();
    }

    /**
     * {@code text}, or its first {@code limit} characters followed by
     * {@code "… (N more characters)"} when it is longer: for quoting an input in a message, which
     * must stay a line a person reads (an input may hold a string of megabytes). A surrogate pair
     * is never cut in two.
     *
     * @param limit positive
     */
    public static String bounded(String text, int limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be positive: " + limit);
        }
        return Excerpt.of(text, limit, java.util.function.UnaryOperator.identity());
    }

    /** An input quoted in a message: {@linkplain #bounded bounded} to {@value #ECHO_LIMIT} characters, then {@linkplain #escape escaped}. */
    public static String echo(String text) {
        return escape(bounded(text, ECHO_LIMIT));
    }

    private static int firstUnsafe(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (isUnsafe(c)) {
                return i;
            }
        }
        return -1;
    }

    /** Whether {@code c}, not the first half of a pair, must be escaped. */
    private static boolean isUnsafe(char c) {
        if (c < 0x20 || c >= 0x7f && c <= 0x9f) {
            return true;
        }
        if (c < 0x61c) {
            return false;
        }
        return c == 0x061c || c == 0x200e || c == 0x200f || c >= 0x202a && c <= 0x202e || c >= 0x2066 && c <= 0x2069
                || c == 0x2028 || c == 0x2029 || Character.isSurrogate(c);
    }
}
