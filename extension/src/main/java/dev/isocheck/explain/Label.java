package dev.isocheck.explain;

/**
 * A text of the cycle's drawing (a line of a transaction's box, an edge's label), cut to
 * {@link #MAX_CELLS} so that the boxes it sizes have room side by side; the whole text goes into
 * the SVG {@code <title>} that browsers show on hover. Both are {@link PageText#visible visible}
 * and bounded, not yet HTML-escaped.
 *
 * @param shown the text drawn: the whole one, or its head and {@code …}
 * @param whole the text for the tooltip, bounded to {@link PageText#ITEM}
 * @param cells how wide {@code shown} is, in cells of a monospaced font (see {@link #cells(int)})
 */
record Label(String shown, String whole, int cells) {

    /**
     * How wide a drawn text may be, in cells: a transaction's id or session is usually a few
     * characters, and two boxes of 40 still fit a page side by side.
     */
    static final int MAX_CELLS = 40;

    /**
     * A cell's width, in ems: DejaVu Sans Mono, Liberation Mono and Courier's advance is 0.6 em;
     * the rest is room for a font that runs a little wider.
     */
    static final double EM_PER_CELL = 0.62;

    /** The label of {@code text}: cut where it runs past {@link #MAX_CELLS}, never inside an escape. */
    static Label of(String text) {
        String whole = PageText.visible(PageText.bounded(text, PageText.ITEM), false);
        StringBuilder shown = new StringBuilder();
        int cells = 0;
        // Where the text could be cut with room left for the ellipsis, as long as it fits.
        int cut = 0;
        int cellsAtCut = 0;
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            i += Character.charCount(c);
            String unit = PageText.isHidden(c) ? PageText.escaped(c) : Character.toString(c);
            int width = PageText.isHidden(c) ? unit.length() : cells(c);
            if (cells + width > MAX_CELLS) {
                return new Label(shown.substring(0, cut) + "…", whole, cellsAtCut + 1);
            }
            shown.append(unit);
            cells += width;
            if (cells <= MAX_CELLS - 1) {
                cut = shown.length();
                cellsAtCut = cells;
            }
        }
        return new Label(shown.toString(), whole, cells);
    }

    /** Whether the drawn text is not the whole text. */
    boolean isCut() {
        return !shown.equals(whole);
    }

    /** How wide the drawn text is at {@code fontSize} pixels, allowing for a slightly wide font. */
    double width(double fontSize) {
        return cells * fontSize * EM_PER_CELL;
    }

    /**
     * How many cells a character takes in a monospaced font, erring wide: none for a combining
     * mark, two for the East Asian wide and fullwidth characters and for emoji (a fallback font
     * draws them about an em wide), one for the rest.
     */
    static int cells(int c) {
        int type = Character.getType(c);
        if (type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK) {
            return 0;
        }
        boolean wide = c >= 0x1100 && c <= 0x115f // Hangul Jamo
                || c >= 0x2600 && c <= 0x27bf // symbols and dingbats, many drawn as emoji
                || c >= 0x2e80 && c <= 0xa4cf && c != 0x303f // CJK radicals to Yi
                || c >= 0xac00 && c <= 0xd7a3 // Hangul syllables
                || c >= 0xf900 && c <= 0xfaff // CJK compatibility ideographs
                || c >= 0xfe30 && c <= 0xfe4f // CJK compatibility forms
                || c >= 0xff00 && c <= 0xff60 || c >= 0xffe0 && c <= 0xffe6 // fullwidth forms
                || c >= 0x1f000; // emoji, and the CJK ideographs of planes 2 and 3
        return wide ? 2 : 1;
    }
}
