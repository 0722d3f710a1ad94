package dev.isocheck.explain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The parts of the HTML page that make long and strange texts safe to show: {@link PageText}, {@link Label}, {@link CycleLayout}. */
@DisplayName("HTML page: texts, labels and the drawing's layout")
class HtmlRendererPartsTests {

    @Nested
    @DisplayName("PageText")
    class PageTextTests {

        @Test
        void boundsKeepHeadAndTailAndCountWhatIsLeftOut() {
            assertThat(PageText.bounded("abc", 3)).isEqualTo("abc");
            String digits = "0123456789".repeat(10);
            assertThat(PageText.bounded(digits, 20)).isEqualTo("012345678901234 … (80 more characters) … 56789");
            // A character beyond the BMP counts once, and a cut never splits it.
            String flags = "🏴".repeat(30);
            assertThat(PageText.bounded(flags, 20)).isEqualTo("🏴".repeat(15) + " … (10 more characters) … " + "🏴".repeat(5));
        }

        @Test
        void everyBidiControlAndInvisibleCharacterIsEscaped() {
            int[] bidi = {0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c};
            for (int c : bidi) {
                assertThat(PageText.visible("a" + Character.toString(c) + "b", false)).isEqualTo(String.format("a\\u%04xb", c));
            }
            assertThat(PageText.visible("\u0000\u0007\u001b\u007f\u0085\u200b\u00ad\ufeff\u2028\u2029", false))
                    .isEqualTo("\\u0000\\u0007\\u001b\\u007f\\u0085\\u200b\\u00ad\\ufeff\\u2028\\u2029");
            assertThat(PageText.visible("tag\udb40\udc41 lone\udc00", false)).isEqualTo("tag\\U000e0041 lone\\udc00");
            assertThat(PageText.visible("a\nb\tc\r\nd\re", false)).isEqualTo("a\\u000ab\\u0009c\\u000d\\u000ad\\u000de");
            assertThat(PageText.visible("a\nb\tc\r\nd\re", true)).isEqualTo("a\nb\tc\r\nd\\u000de");
            // Text in any script, and marks, stay as they are.
            assertThat(PageText.visible("café שלום مرحبا 会话 🏴 e\u0301", false)).isEqualTo("café שלום مرحبا 会话 🏴 e\u0301");
        }

        @Test
        void htmlEscapesWhatMarkupMeans() {
            assertThat(PageText.html("<a href='x'>\"&\"</a>")).isEqualTo("&lt;a href=&#39;x&#39;&gt;&quot;&amp;&quot;&lt;/a&gt;");
            assertThat(PageText.of("\u202e<b>" + "x".repeat(400), PageText.ITEM)).startsWith("\\u202e&lt;b&gt;xxx")
                    .contains(" … (104 more characters) … ");
        }
    }

    @Nested
    @DisplayName("Label")
    class LabelTests {

        @Test
        void aLabelOfFortyCellsIsWholeAndALongerOneCut() {
            Label whole = Label.of("x".repeat(40));
            assertThat(whole.shown()).isEqualTo("x".repeat(40));
            assertThat(whole.isCut()).isFalse();
            Label cut = Label.of("y".repeat(41));
            assertThat(cut.shown()).isEqualTo("y".repeat(39) + "…");
            assertThat(cut.whole()).isEqualTo("y".repeat(41));
            assertThat(cut.isCut()).isTrue();
            assertThat(cut.cells()).isEqualTo(40);
            assertThat(Label.of("y".repeat(10_000)).whole()).contains(" more characters) … ").hasSizeLessThan(400);
        }

        @Test
        void wideCharactersTakeTwoCellsAndEscapesAreNeverCut() {
            Label cjk = Label.of("会".repeat(25));
            assertThat(cjk.shown()).isEqualTo("会".repeat(19) + "…");
            assertThat(cjk.cells()).isEqualTo(39);
            // 36 cells, then a 6-cell escape that does not fit: cut before it, not inside it.
            Label escape = Label.of("a".repeat(36) + "\u202e" + "b");
            assertThat(escape.shown()).isEqualTo("a".repeat(36) + "…");
            assertThat(Label.of("\u202eab").shown()).isEqualTo("\\u202eab");
            assertThat(Label.of("e\u0301".repeat(40)).isCut()).isFalse();
        }

        @Test
        void widthsAllowForTheFont() {
            // DejaVu Sans Mono's advance is 0.602 em: forty cells at 14 pixels take 337 pixels.
            assertThat(Label.of("x".repeat(40)).width(14)).isGreaterThanOrEqualTo(40 * 14 * 0.602);
        }
    }

    @Nested
    @DisplayName("CycleLayout")
    class CycleLayoutTests {

        /** Boxes and labels of random sizes up to the largest a label allows, in rings of 2 to 9. */
        @Test
        void boxesAndLabelsNeverOverlapAndStayInView() {
            Random random = new Random(30);
            double widest = Label.MAX_CELLS * CycleDrawing.ID_FONT * Label.EM_PER_CELL / 2 + 10;
            for (int round = 0; round < 400; round++) {
                int n = 2 + random.nextInt(8);
                double[] halfWidths = new double[n];
                double[] halfHeights = new double[n];
                double[] labels = new double[n];
                for (int i = 0; i < n; i++) {
                    halfWidths[i] = 34 + random.nextDouble() * (widest - 34);
                    halfHeights[i] = (16 * (1 + random.nextInt(4)) + 14) / 2.0;
                    labels[i] = random.nextDouble() * Label.MAX_CELLS * CycleDrawing.EDGE_FONT * Label.EM_PER_CELL;
                }
                assertFits(CycleLayout.of(halfWidths, halfHeights, labels));
            }
            // The largest everywhere.
            for (int n = 2; n <= 9; n++) {
                double[] halfWidths = new double[n];
                double[] halfHeights = new double[n];
                double[] labels = new double[n];
                Arrays.fill(halfWidths, widest);
                Arrays.fill(halfHeights, (16 * 4 + 14) / 2.0);
                Arrays.fill(labels, Label.MAX_CELLS * CycleDrawing.EDGE_FONT * Label.EM_PER_CELL);
                assertFits(CycleLayout.of(halfWidths, halfHeights, labels));
            }
        }

        @Test
        void smallCyclesKeepTheirPlace() {
            CycleLayout two = CycleLayout.of(new double[] {62, 62}, new double[] {31, 31}, new double[] {33, 33});
            assertThat(two.width()).isEqualTo(CycleLayout.MIN_WIDTH);
            // Side by side, 340 pixels apart, centred.
            assertThat(two.boxes().get(0).x()).isCloseTo(210.0, within(0.01));
            assertThat(two.boxes().get(1).x()).isCloseTo(550.0, within(0.01));
            assertThat(two.boxes().get(0).y()).isCloseTo(two.boxes().get(1).y(), within(0.01));
        }

        private static void assertFits(CycleLayout layout) {
            List<CycleLayout.Box> all = new ArrayList<>(layout.boxes());
            layout.arcs().forEach(arc -> all.add(arc.label()));
            for (CycleLayout.Box box : all) {
                assertThat(box.left() >= 0 && box.top() >= 0 && box.right() <= layout.width() && box.bottom() <= layout.height())
                        .as("%s in %s x %s", box, layout.width(), layout.height()).isTrue();
            }
            // Every box apart from every other box and label, and every label from every other.
            for (int i = 0; i < all.size(); i++) {
                for (int j = 0; j < all.size(); j++) {
                    if (j != i) {
                        assertThat(all.get(i).isApart(all.get(j), 1)).as("%s apart from %s", all.get(i), all.get(j)).isTrue();
                    }
                }
            }
            for (CycleLayout.Arc arc : layout.arcs()) {
                for (double[] point : List.of(new double[] {arc.startX(), arc.startY()}, new double[] {arc.endX(), arc.endY()})) {
                    assertThat(point[0] >= 0 && point[1] >= 0 && point[0] <= layout.width() && point[1] <= layout.height())
                            .isTrue();
                }
            }
        }
    }
}
