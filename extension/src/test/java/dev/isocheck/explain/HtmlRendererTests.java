package dev.isocheck.explain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.internal.explain.ClassicHistories;
import dev.isocheck.internal.explain.ExhaustiveExplainer;
import dev.isocheck.IsolationLevel;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The HTML page over names and values that are long, huge, or hold characters that hide or reorder
 * text (issue 30): the drawing's labels cut with their whole text on hover, every text bounded,
 * and every invisible character shown escaped. What a browser makes of the page is in
 * {@link HtmlScreenshotTests}.
 */
@DisplayName("HTML explanations of long, huge and strange names and values")
class HtmlRendererTests {

    private static final Pattern SVG = Pattern.compile("(?s)<svg class=\"cycle\".*?</svg>");
    private static final Pattern VIEW = Pattern.compile("viewBox=\"0 0 ([0-9.]+) ([0-9.]+)\"");
    private static final Pattern RECT = Pattern.compile(
            "<rect x=\"([-0-9.]+)\" y=\"([-0-9.]+)\" width=\"([0-9.]+)\" height=\"([0-9.]+)\"");
    /** A drawn text's content, after the title it may begin with. */
    private static final Pattern TEXT = Pattern.compile("<text [^>]*>(?:<title>[^<]*</title>)?([^<]*)</text>");
    private static final Pattern NODE_TITLE = Pattern.compile("<g class=\"node\"><title>([^<]*)</title>");
    private static final Pattern EDGE_TITLE = Pattern.compile("<text class=\"edge\"[^>]*><title>([^<]*)</title>");

    private static final String LONG_A = "T-" + "a".repeat(56) + "-1";
    private static final String LONG_B = "T-" + "b".repeat(56) + "-2";
    private static final String LONG_NAME = "connection-" + "c".repeat(70);
    private static final String LONG_KEY = "accounts/" + "k".repeat(60);

    @Test
    void longLabelsAreCutInTheDrawingAndWholeInTheirTitles() {
        String page = new HtmlRenderer().render(StrangeHistories.writeSkew(LONG_A, LONG_B, LONG_NAME, LONG_KEY + "x",
                LONG_KEY + "y", "1"));
        String svg = svg(page);
        List<String> texts = texts(svg);
        assertThat(texts).hasSize(2 * 4 + 2).allSatisfy(text -> assertThat(Label.of(text).cells())
                .as("cells of %s", text).isLessThanOrEqualTo(Label.MAX_CELLS));
        assertThat(texts).contains(LONG_A.substring(0, Label.MAX_CELLS - 1) + "…",
                ("session " + LONG_NAME).substring(0, Label.MAX_CELLS - 1) + "…", ("rw " + LONG_KEY).substring(0, 39) + "…",
                "time 100..180");
        // Hovering over a box shows its lines whole; over an edge's label, the edge, key and all.
        assertThat(all(NODE_TITLE, svg)).containsExactlyInAnyOrder(
                String.join("\n", LONG_A, "session " + LONG_NAME + "-1", "thread " + LONG_NAME + "-thread-1", "time 100..180"),
                String.join("\n", LONG_B, "session " + LONG_NAME + "-2", "thread " + LONG_NAME + "-thread-2", "time 110..190"));
        assertThat(all(EDGE_TITLE, svg)).anySatisfy(title -> assertThat(title).startsWith(LONG_A + " -rw " + LONG_KEY + "x-> "
                + LONG_B + ": "));
        assertBoxesApartAndInView(svg);

        // Short labels are drawn whole, as before.
        String writeSkew = svg(new HtmlRenderer().render(new ExhaustiveExplainer().explain(ClassicHistories.writeSkew(),
                IsolationLevel.SERIALIZABLE)));
        assertThat(texts(writeSkew)).containsExactlyInAnyOrder("T1", "session alice", "time 100..180", "T2", "session bob",
                "time 110..190", "rw x", "rw y");
        assertThat(writeSkew).contains("width=\"760\"");
    }

    /** However long the names, in rings of two to six, the boxes the page draws are apart and in view. */
    @Test
    void boxesOfLongNamesNeverOverlapNorLeaveTheView() {
        for (String name : List.of("s", "session-" + "n".repeat(30), "session-" + "n".repeat(200), "会话".repeat(30))) {
            assertBoxesApartAndInView(svg(new HtmlRenderer().render(StrangeHistories.writeSkew(name + "A", name + "B", name,
                    name + "x", name + "y", name))));
            for (int n = 3; n <= 6; n++) {
                assertBoxesApartAndInView(svg(new HtmlRenderer().render(StrangeHistories.ring(n, name, name, name))));
            }
        }
    }

    @Test
    void aHugeValueCostsThePageAFewHundredCharacters() {
        String small = new HtmlRenderer().render(StrangeHistories.writeSkew("T1", "T2", "s", "x", "y", "v".repeat(200)));
        String huge = new HtmlRenderer().render(StrangeHistories.writeSkew("T1", "T2", "s", "x", "y", "v".repeat(100_000)));
        String larger = new HtmlRenderer().render(StrangeHistories.writeSkew("T1", "T2", "s", "x", "y",
                "w".repeat(1_000_000)));
        // A 200-character value is shown whole; one of 100 KB or 1 MB costs the same, bounded, page.
        assertThat(unbroken(small)).contains("write y = &quot;" + "v".repeat(200) + "&quot;</code>").doesNotContain("more characters");
        assertThat(huge.length()).isLessThan(40_000);
        assertThat(Math.abs(larger.length() - huge.length())).isLessThan(100);
        // Cut in the operation (300 characters of write y = "vvv…" kept, the tail among them) ...
        assertThat(unbroken(huge)).contains("<li><code>write y = &quot;" + "v".repeat(214) + " … (" + (12 + 100_000 - 300)
                + " more characters) … " + "v".repeat(74) + "&quot;</code></li>");
        // ... in the reason and in the SQL, all marked.
        assertThat(huge.split("more characters\\)", -1).length - 1).isGreaterThanOrEqualTo(10);
        assertThat(unbroken(huge)).doesNotContain("v".repeat(PageText.SQL));
    }

    @Test
    void bidiControlsAndOtherInvisibleCharactersAreShownEscapedEverywhere() throws CharacterCodingException {
        String id = "\u202egnp.exe";
        String hidden = "\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069\u200e\u200f\u061c\u200b\u00ad\ufeff\u2028";
        String page = unbroken(new HtmlRenderer().render(StrangeHistories.writeSkew(id, "T2", "s\u0007\u001b[31m\n",
                "key" + hidden, "y\ud800", "v\u0000\t\r\u0085"), "histories/\u202eldnj.exe"));
        String[] escapes = {"\\u202a", "\\u202b", "\\u202c", "\\u202d", "\\u2066", "\\u2067", "\\u2068", "\\u2069", "\\u200e",
            "\\u200f", "\\u061c", "\\u200b", "\\u00ad", "\\ufeff", "\\u2028"};
        // No such character anywhere in the page, titles and attributes included: line feeds only
        // in the markup and where a tooltip lists a box's lines, and tabs and line ends in SQL,
        // where they are its layout (a value it carries included).
        String sql = String.join("", all(Pattern.compile("<div class=\"sql\"><code>([^<]*)</code></div>"), page));
        assertThat(sql).contains("[v\\u0000\t\\u000d\\u0085, ");
        String rest = page.replaceAll("<div class=\"sql\"><code>[^<]*</code></div>", "");
        rest.codePoints().filter(c -> c != '\n').forEach(c -> assertThat(PageText.isHidden(c))
                .as("U+%04X is in the page", c).isFalse());
        sql.codePoints().filter(c -> c != '\n' && c != '\t').forEach(c -> assertThat(PageText.isHidden(c))
                .as("U+%04X is in the SQL", c).isFalse());
        Matcher aria = Pattern.compile("aria-label=\"([^\"]*)\"").matcher(page);
        assertThat(aria.find()).isTrue();
        assertThat(aria.group(1)).contains("\\u202egnp.exe", "-rw key" + String.join("", escapes) + "-&gt;", "T2");
        assertThat(rest).contains("<title>isocheck: histories/\\u202eldnj.exe: ")
                .contains("<td><strong>\\u202egnp.exe</strong>")
                .contains("<g class=\"node\"><title>\\u202egnp.exe\nsession s\\u0007\\u001b[31m\\u000a-1\n")
                .contains("<li><code>write y\\ud800 = &quot;v\\u0000\\t\\r\\u0085&quot;</code></li>")
                .contains(">\\u202egnp.exe</text>");
        // A lone surrogate would make a UTF-8 page unwritable; escaped, the page encodes.
        StandardCharsets.UTF_8.newEncoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).encode(CharBuffer.wrap(page));
    }

    /**
     * Line breaks in SQL are its layout: kept there (the style sheet keeps them), and so in the
     * parameters it shows; a value elsewhere comes quoted and escaped as JSON already.
     */
    @Test
    void sqlKeepsItsLineBreaksAndValuesShowTheirs() {
        String page = unbroken(new HtmlRenderer().render(StrangeHistories.writeSkew("T1", "T2", "s", "x", "y", "a\nb")));
        assertThat(page).contains("<li><code>write y = &quot;a\\nb&quot;</code></li>")
                .contains("<div class=\"sql\"><code>UPDATE t SET v = ? WHERE k = ?  [a\nb, y]</code></div>")
                .contains(".sql code { color: #1a4d80; white-space: pre-wrap; }");
    }

    /**
     * Cutting and bounding come before HTML escaping: a cut never splits an entity, and every
     * ampersand in the page starts one.
     */
    @Test
    void cutTextsStayEscaped() {
        String evil = "<img src=x onerror=alert(1)>&amp;\"'";
        String page = new HtmlRenderer().render(StrangeHistories.writeSkew("a".repeat(38) + evil, "T2", "a".repeat(36) + evil,
                "k".repeat(36) + evil, "y", "v".repeat(290) + evil + "v".repeat(5000)));
        assertThat(page).doesNotContain("<img").doesNotContainIgnoringCase("<script");
        Matcher ampersand = Pattern.compile("&(?!amp;|lt;|gt;|quot;|#39;)").matcher(page);
        assertThat(ampersand.find()).as("an ampersand that starts no entity").isFalse();
        assertThat(unbroken(page)).contains("&lt;img src=x onerror=alert(1)&gt;&amp;amp;&quot;&#39;");
    }

    /**
     * In the table of transactions, words over 24 characters get places to break every 12 (a table
     * sizes its columns by their longest words; see {@link HtmlScreenshotTests} for the page's
     * width); short words none, and the rest of the page none: there the style sheet wraps a word
     * too long for its line.
     */
    @Test
    void longWordsInTheTableGetPlacesToBreakAndShortOnesNone() {
        String key = "accounts/" + "k".repeat(40);
        String page = new HtmlRenderer().render(StrangeHistories.writeSkew("T1", "T2", "connection", key, "y", "1"),
                "histories/" + "h".repeat(30) + ".jsonl");
        assertThat(page).contains("<td><strong>T1</strong></td><td>connection-1</td><td>connection-thread-1</td><td>100..180</td>")
                .contains("<li><code>read accounts/kkk<wbr>kkkkkkkkkkkk<wbr>kkkkkkkkkkkk<wbr>kkkkkkkkkkkk<wbr>k = &quot;0&quot;</code></li>")
                .contains("<div class=\"sql\"><code>SELECT v FROM t WHERE k IN (?, ?)  [accounts/kk<wbr>kkkkkkkkkkkk<wbr>")
                .contains("<code>histories/" + "h".repeat(30) + ".jsonl</code>", "T1 read " + key + " = &quot;0&quot;",
                        "<div class=\"sql\"><code>T1: SELECT v FROM t WHERE k IN (?, ?)  [" + key + ", y]</code></div>")
                .contains("<style>").contains("overflow-wrap: break-word;");
        assertThat(page.substring(page.indexOf("<table>"))).contains("<wbr>");
        assertThat(page.substring(0, page.indexOf("<table>"))).doesNotContain("<wbr>");
        // Never inside an entity, a surrogate pair or before a combining mark.
        assertThat(PageText.cell("&".repeat(30), PageText.ITEM)).isEqualTo("&amp;".repeat(12) + "<wbr>" + "&amp;".repeat(12) + "<wbr>" + "&amp;".repeat(6));
        assertThat(PageText.cell("🏴".repeat(25), PageText.ITEM)).isEqualTo("🏴".repeat(12) + "<wbr>" + "🏴".repeat(12) + "<wbr>🏴");
        assertThat(PageText.cell("🏴".repeat(24), PageText.ITEM)).isEqualTo("🏴".repeat(24));
        assertThat(PageText.cell("e\u0301".repeat(25), PageText.ITEM)).isEqualTo("e\u0301".repeat(12) + "<wbr>"
                + "e\u0301".repeat(12) + "<wbr>e\u0301");
        assertThat(PageText.cell("a b".repeat(30), PageText.ITEM)).doesNotContain("<wbr>");
    }

    /** The drawing's boxes, as the page places them, are pairwise apart and inside its view, with their texts' estimates. */
    private static void assertBoxesApartAndInView(String svg) {
        Matcher view = VIEW.matcher(svg);
        assertThat(view.find()).isTrue();
        double width = Double.parseDouble(view.group(1));
        double height = Double.parseDouble(view.group(2));
        List<double[]> rects = new ArrayList<>();
        Matcher rect = RECT.matcher(svg);
        while (rect.find()) {
            rects.add(new double[] {Double.parseDouble(rect.group(1)), Double.parseDouble(rect.group(2)),
                Double.parseDouble(rect.group(3)), Double.parseDouble(rect.group(4))});
        }
        assertThat(rects).hasSizeGreaterThanOrEqualTo(2).allSatisfy(r -> assertThat(r[0] >= 0 && r[1] >= 0
                && r[0] + r[2] <= width && r[1] + r[3] <= height).as("box %s in view %s x %s", List.of(r[0], r[1], r[2], r[3]),
                width, height).isTrue());
        for (int i = 0; i < rects.size(); i++) {
            for (int j = i + 1; j < rects.size(); j++) {
                double[] a = rects.get(i);
                double[] b = rects.get(j);
                boolean apart = a[0] + a[2] <= b[0] || b[0] + b[2] <= a[0] || a[1] + a[3] <= b[1] || b[1] + b[3] <= a[1];
                assertThat(apart).as("boxes %d and %d apart", i, j).isTrue();
            }
        }
    }

    /** The page without its places to break words, to look for texts in it. */
    private static String unbroken(String page) {
        return page.replace("<wbr>", "");
    }

    private static String svg(String page) {
        Matcher svg = SVG.matcher(page);
        assertThat(svg.find()).as("a drawing").isTrue();
        return svg.group();
    }

    /** The texts drawn, unescaped. */
    private static List<String> texts(String svg) {
        return all(TEXT, svg);
    }

    private static List<String> all(Pattern pattern, String svg) {
        List<String> found = new ArrayList<>();
        Matcher m = pattern.matcher(svg);
        while (m.find()) {
            found.add(unescape(m.group(1)));
        }
        return found;
    }

    private static String unescape(String html) {
        return html.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&");
    }
}
