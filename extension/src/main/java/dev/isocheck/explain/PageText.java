package dev.isocheck.explain;

import java.util.Locale;

/**
 * What the HTML page does to every text of a history before it shows it: bounds its length, makes
 * invisible characters visible, and escapes it for HTML. A history's names and values are the
 * application's data, of any length and content; the page must stay small and must show them as
 * they are, not as a direction override or a zero-width character makes them look.
 *
 * <p>In this order: {@link #bounded} cuts the raw text (so that "N more characters" counts the
 * history's characters, and no escape below is cut in two), {@link #visible} escapes the
 * invisible characters, and {@link #html} the characters HTML gives a meaning.
 */
final class PageText {

    /** A sentence or a composed text (an edge's reason, an assumption): a value inside may be long. */
    static final int PROSE = 1000;
    /** One name or operation: an id, a session, a thread, {@code read x = 0}. */
    static final int ITEM = 300;
    /** An SQL statement with its parameters: real statements run longer than names. */
    static final int SQL = 2000;

    /**
     * The longest word a table's cell keeps whole: longer than ids, keys and names usually are
     * ({@code DoctorDao.goOffCall:}).
     */
    static final int WORD = 24;
    /** How often a longer word may break: short enough for a table of five such columns to fit a page. */
    static final int CHUNK = 12;

    /**
     * How much of a cut text is kept after the elision: an id or a key often differs from its
     * neighbours only at its end (a counter, a suffix).
     */
    private static final double TAIL = 0.25;

    private PageText() {
    }

    /** {@code text} bounded to {@code limit}, made visible and HTML-escaped: a text of the page, or an attribute's value. */
    static String of(String text, int limit) {
        return shown(bounded(text, limit));
    }

    /** {@code text}, bounded already (a text composed of bounded parts), as {@link #of}. */
    static String shown(String text) {
        return html(visible(text, false), false);
    }

    /**
     * {@code text} as {@link #of}, with a place to break a line in every long word: for a table's
     * cell (see {@link #html(String, boolean)}).
     */
    static String cell(String text, int limit) {
        return html(visible(bounded(text, limit), false), true);
    }

    /** An SQL statement bounded to {@link #SQL}, as {@link #of} but with its line breaks and tabs kept (see {@link #visible}). */
    static String sql(String statement) {
        return html(visible(bounded(statement, SQL), true), false);
    }

    /** An SQL statement as {@link #sql}, for a table's cell as {@link #cell}. */
    static String sqlCell(String statement) {
        return html(visible(bounded(statement, SQL), true), true);
    }

    /**
     * {@link Dependency#arrow()} with each id and the key {@link #bounded} to {@link #ITEM}: bounding
     * the whole would cut out the key between two long ids.
     */
    static String arrow(Dependency edge) {
        return bounded(edge.from(), ITEM) + " -" + edge.type().shortName() + edge.key().map(k -> " " + bounded(k, ITEM)).orElse("")
                + "-> " + bounded(edge.to(), ITEM);
    }

    /** {@link AnomalyCycle#arrows()} with each id and key {@link #bounded} to {@link #ITEM}, as {@link #arrow}. */
    static String arrows(AnomalyCycle cycle) {
        StringBuilder out = new StringBuilder();
        for (Dependency edge : cycle.edges()) {
            out.append(bounded(edge.from(), ITEM)).append(" -").append(edge.type().shortName())
                    .append(edge.key().map(k -> " " + bounded(k, ITEM)).orElse("")).append("-> ");
        }
        return out.append(bounded(cycle.transactions().get(0), ITEM)).toString();
    }

    /**
     * {@code text} bounded to {@code limit} characters (code points): longer, its head and its tail
     * with {@code " … (N more characters) … "} between them, never cutting a surrogate pair.
     */
    static String bounded(String text, int limit) {
        int length = text.codePointCount(0, text.length());
        if (length <= limit) {
            return text;
        }
        int tail = (int) (limit * TAIL);
        int head = limit - tail;
        int headEnd = text.offsetByCodePoints(0, head);
        int tailStart = text.offsetByCodePoints(text.length(), -tail);
        return text.substring(0, headEnd) + " … (" + (length - head - tail) + " more characters) … " + text.substring(tailStart);
    }

    /**
     * {@code text} with every character that shows nothing or changes how others show escaped as
     * {@code \}{@code u202e} (beyond the BMP {@code \}{@code U0001f3f4}): see {@link #isHidden}.
     *
     * @param lineBreaks whether line feeds, tabs and carriage returns before line feeds stay (in an
     *                   SQL statement, shown as preformatted text, they are its layout; a lone
     *                   carriage return would pass for a line break)
     */
    static String visible(String text, boolean lineBreaks) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            int next = i + Character.charCount(c);
            boolean keep = !isHidden(c) || lineBreaks && (c == '\n' || c == '\t' || c == '\r' && next < text.length()
                    && text.charAt(next) == '\n');
            if (!keep && out == null) {
                out = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            if (out != null) {
                if (keep) {
                    out.appendCodePoint(c);
                } else {
                    out.append(escaped(c));
                }
            }
            i = next;
        }
        return out == null ? text : out.toString();
    }

    /** A hidden character as it is shown: a backslash, {@code u} and four hex digits, or {@code U} and eight. */
    static String escaped(int c) {
        return c <= 0xffff ? String.format(Locale.ROOT, "\\u%04x", c) : String.format(Locale.ROOT, "\\U%08x", c);
    }

    /**
     * Whether {@code c} is shown escaped: control characters (C0, DEL, C1: they reach no terminal
     * here, but a line feed in an id would pass for a space), format characters (among them the
     * bidirectional controls U+202A to U+202E, U+2066 to U+2069, U+200E, U+200F and U+061C, which
     * reorder what follows them, and zero-width characters, which make two names look alike),
     * lone surrogates (no character at all, and UTF-8 cannot encode them) and the line and
     * paragraph separators.
     */
    static boolean isHidden(int c) {
        return switch (Character.getType(c)) {
            case Character.CONTROL, Character.FORMAT, Character.SURROGATE, Character.LINE_SEPARATOR,
                    Character.PARAGRAPH_SEPARATOR -> true;
            default -> false;
        };
    }

    /** Text as HTML character data or attribute value. */
    static String html(String text) {
        return html(text, false);
    }

    /**
     * Text as HTML character data or attribute value; with {@code breaks}, a {@code <wbr>} after
     * every {@link #CHUNK} characters of a word longer than {@link #WORD}. Elsewhere the style
     * sheet's {@code overflow-wrap: break-word} wraps a word too long for its line, but a table
     * sizes its columns by their longest words first, so long ones would widen the page. Breaking
     * anywhere ({@code overflow-wrap: anywhere}) would let the table squeeze every column instead,
     * and break a short id or time in two wherever one line of SQL is long; these places leave
     * the usual words whole.
     */
    static String html(String text, boolean breaks) {
        StringBuilder out = new StringBuilder(text.length());
        // Where the current word's next place to break is, counted in its characters; 0: none.
        int toBreak = 0;
        boolean inWord = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (breaks) {
                if (Character.isWhitespace(c)) {
                    inWord = false;
                } else if (counts(c)) {
                    if (!inWord) {
                        inWord = true;
                        toBreak = wordLength(text, i) > WORD ? CHUNK : 0;
                    } else if (toBreak > 0 && --toBreak == 0) {
                        out.append("<wbr>");
                        toBreak = CHUNK;
                    }
                }
            }
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /** How many characters the word that starts at {@code start} has, as {@link #counts} counts them. */
    private static int wordLength(String text, int start) {
        int length = 0;
        for (int i = start; i < text.length() && !Character.isWhitespace(text.charAt(i)); i++) {
            length += counts(text.charAt(i)) ? 1 : 0;
        }
        return length;
    }

    /**
     * Whether a word may break before {@code c}, and {@code c} counts as a character of it: not
     * the second half of a surrogate pair, nor a combining mark.
     */
    private static boolean counts(char c) {
        return !Character.isLowSurrogate(c) && Character.getType(c) != Character.NON_SPACING_MARK;
    }
}
