package dev.isocheck.explain;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.isocheck.internal.explain.ExhaustiveExplainer;
import dev.isocheck.internal.explain.ClassicHistories;
import dev.isocheck.CheckOptions;
import dev.isocheck.CheckResult;
import dev.isocheck.GpuMode;
import dev.isocheck.Isocheck;
import dev.isocheck.IsolationLevel;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.HistoryBuilder.TransactionBuilder;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML page as a browser draws it: headless Chromium takes a screenshot of the page, and of the
 * same page without its drawing, and the drawing must add the edges' colours (the arrows and their
 * labels); and measures a copy of the page with a script added, for the drawing's boxes and the
 * page's width over long names and text. Skipped where no Chromium is installed ({@code chromium}, {@code chromium-browser} or
 * {@code google-chrome} on the {@code PATH}, or the path in {@code CHROME}).
 */
@DisplayName("HTML explanations, drawn by headless Chromium")
class HtmlScreenshotTests {

    @TempDir
    Path dir;

    @Test
    void theCycleIsDrawnWithItsColouredArrows() throws Exception {
        Optional<String> chromium = chromium();
        Assumptions.assumeTrue(chromium.isPresent(), "no Chromium installed");
        String page = new HtmlRenderer().render(new ExhaustiveExplainer().explain(ClassicHistories.longFork(),
                IsolationLevel.SNAPSHOT_ISOLATION));
        // Two read-write and two write-read arrows of a four-transaction ring, each a few hundred
        // pixels long and two wide, with an arrowhead and a label.
        assertDrawingAdds(chromium.get(), page, "", 400);
    }

    /**
     * A violation of prefix consistency, explained over the history split into snapshots and
     * commits, is drawn the same way: its ring of snapshot and commit nodes with coloured arrows,
     * and the split transactions named on the page.
     */
    @Test
    void aPrefixViolationIsDrawnOverSnapshotsAndCommits() throws Exception {
        Optional<String> chromium = chromium();
        Assumptions.assumeTrue(chromium.isPresent(), "no Chromium installed");
        String page = new HtmlRenderer().render(dev.isocheck.Isocheck.check(ClassicHistories.longFork(), IsolationLevel.PREFIX)
                .explanation().orElseThrow());
        assertThat(page).contains("T3 (snapshot)", "T1 (commit)", "prefix");
        assertDrawingAdds(chromium.get(), page, "prefix", 400);
    }

    /**
     * The likeliest case of a violation whose reads saw values several transactions wrote, when
     * the other case needs more transactions than the explainer takes: the page states the case's
     * assumption and draws its cycle.
     */
    @Test
    void theLikeliestCaseIsDrawnWithItsAssumption() throws Exception {
        Optional<String> chromium = chromium();
        Assumptions.assumeTrue(chromium.isPresent(), "no Chromium installed");
        // T3 read x = 1, which T1 and T2 both wrote: with T2's a cycle of two forms; with T1's,
        // one through a chain of fifteen more transactions, beyond the 1 + 14 a case is explained over.
        HistoryBuilder b = History.builder().initialStateComplete(true).initialValue("x", 0).initialValue("z", 0);
        for (int i = 0; i <= 15; i++) {
            b.initialValue("y" + i, 0);
        }
        for (int i = 1; i <= 15; i++) {
            TransactionBuilder link = b.transaction("A" + i).session("s" + i).times(i, i + 1);
            if (i > 1) {
                link.read("y" + (i - 1), 1);
            }
            link.write(i == 1 ? "y0" : "y" + i, 1);
            if (i == 1) {
                link.write("y1", 1);
            }
        }
        b.transaction("T1").session("a").times(30, 40).read("y15", 1).write("x", 1);
        b.transaction("T2").session("b").times(50, 60).write("x", 1).write("z", 1);
        b.transaction("T3").session("c").times(70, 80).read("x", 1).read("y0", 0).read("z", 0);
        CheckResult result = Isocheck.check(b.build(), IsolationLevel.SERIALIZABLE,
                CheckOptions.defaults().withExplainMaxTransactions(1).withGpuMode(GpuMode.OFF));
        assertThat(result.explanation()).get().isInstanceOf(Explanation.LikelyCase.class);
        String page = new HtmlRenderer().render(result.explanation().orElseThrow());
        assertThat(page).contains("in the likeliest case", "the x = 1 that T3 read was T2&#39;s write");
        // One read-write and one write-read arrow between two boxes side by side.
        assertDrawingAdds(chromium.get(), page, "likely", 150);
    }

    /**
     * Issue 30: names of 60 to 80 characters (and of wide characters) in a recorded write skew and
     * in a ring of four, as Chromium lays them out with its own fonts: no two boxes overlap, each
     * box holds its texts, no edge label lies on a box or another label, and all of it, arrows
     * included, lies inside the drawing's view; nor is the page wider than the window.
     */
    @Test
    void longNamesLeaveTheBoxesApartAndInsideTheDrawing() throws Exception {
        Optional<String> chromium = chromium();
        Assumptions.assumeTrue(chromium.isPresent(), "no Chromium installed");
        String id = "T-" + "a".repeat(56) + "-1";
        String name = "connection-" + "c".repeat(70);
        String key = "accounts/" + "k".repeat(60);
        StringBuilder page = new StringBuilder(new HtmlRenderer().render(StrangeHistories.writeSkew(id, id + "2", name, key + "x",
                key + "y", "1")));
        for (Explanation explanation : List.of(StrangeHistories.ring(4, id, name, key), StrangeHistories.ring(3, "会话", "会话".repeat(25),
                "キー".repeat(25)), StrangeHistories.writeSkew("T1", "T2", "s", "x", "y", "1"))) {
            page.insert(page.indexOf("</body>"), svgOf(new HtmlRenderer().render(explanation)));
        }
        JsonNode geometry = measure(chromium.get(), page.toString(), "long-names");
        assertThat(geometry.get("drawings")).hasSize(4);
        assertThat(geometry.get("pageWidth").asDouble()).as("the page's width in a window %s wide", geometry.get("windowWidth"))
                .isLessThanOrEqualTo(geometry.get("windowWidth").asDouble());
        for (JsonNode drawing : geometry.get("drawings")) {
            double[] view = box(drawing.get("view"));
            List<double[]> rects = new ArrayList<>();
            for (JsonNode node : drawing.get("nodes")) {
                double[] rect = box(node.get("rect"));
                rects.add(rect);
                for (JsonNode text : node.get("texts")) {
                    assertThat(inside(box(text), rect)).as("text %s in its box %s", text, node.get("rect")).isTrue();
                }
            }
            for (int i = 0; i < rects.size(); i++) {
                for (int j = i + 1; j < rects.size(); j++) {
                    assertThat(apart(rects.get(i), rects.get(j))).as("boxes %s and %s apart", drawing.get("nodes").get(i).get("rect"),
                            drawing.get("nodes").get(j).get("rect")).isTrue();
                }
                assertThat(inside(rects.get(i), view)).as("box %s in the view", drawing.get("nodes").get(i).get("rect")).isTrue();
            }
            for (JsonNode label : drawing.get("labels")) {
                assertThat(inside(box(label), view)).as("edge label %s in the view", label).isTrue();
                for (double[] rect : rects) {
                    assertThat(apart(box(label), rect)).as("edge label %s off the boxes", label).isTrue();
                }
                for (JsonNode other : drawing.get("labels")) {
                    assertThat(other == label || apart(box(label), box(other))).as("edge labels %s and %s apart", label, other)
                            .isTrue();
                }
            }
            for (JsonNode arrow : drawing.get("arrows")) {
                assertThat(inside(box(arrow), view)).as("arrow %s in the view", arrow).isTrue();
            }
        }
    }

    /**
     * Issue 30: a key of 3,000 characters, a value of 20,000 and a session of 500, none with a
     * space to break at, in the text, the table and the SQL: the page wraps them, and is no wider
     * than the window.
     */
    @Test
    void longTextWrapsSoThePageNeverScrollsAcross() throws Exception {
        Optional<String> chromium = chromium();
        Assumptions.assumeTrue(chromium.isPresent(), "no Chromium installed");
        String page = new HtmlRenderer().render(StrangeHistories.writeSkew("T1", "T2", "s".repeat(500), "x".repeat(3000), "y",
                "v".repeat(20_000)), "histories/" + "h".repeat(400) + ".jsonl");
        JsonNode geometry = measure(chromium.get(), page, "long-text");
        assertThat(geometry.get("pageWidth").asDouble()).as("the page's width in a window %s wide", geometry.get("windowWidth"))
                .isLessThanOrEqualTo(geometry.get("windowWidth").asDouble());
    }

    /**
     * Screenshots {@code page} with and without its drawings: the drawings must add more than
     * {@code minimum} pixels of the read-write red and of the write-read green.
     */
    private void assertDrawingAdds(String chromium, String page, String name, int minimum)
            throws IOException, InterruptedException {
        String withoutDrawing = page.replaceAll("(?s)<svg class=\"cycle\".*?</svg>", "");
        assertThat(withoutDrawing).isNotEqualTo(page);

        BufferedImage drawn = screenshot(chromium, page, name + "-drawn");
        BufferedImage bare = screenshot(chromium, withoutDrawing, name + "-bare");

        int red = rgb(DependencyType.READ_WRITE);
        int green = rgb(DependencyType.WRITE_READ);
        int addedRed = count(drawn, red) - count(bare, red);
        int addedGreen = count(drawn, green) - count(bare, green);
        System.out.printf("screenshot%s: the drawing adds %d red and %d green pixels%n", name.isEmpty() ? "" : " (" + name + ")",
                addedRed, addedGreen);
        assertThat(addedRed).as("read-write red pixels the drawing adds").isGreaterThan(minimum);
        assertThat(addedGreen).as("write-read green pixels the drawing adds").isGreaterThan(minimum);
    }

    private BufferedImage screenshot(String chromium, String html, String name) throws IOException, InterruptedException {
        Path file = dir.resolve(name + ".html");
        Files.writeString(file, html, StandardCharsets.UTF_8);
        Path png = dir.resolve(name + ".png");
        Process process = new ProcessBuilder(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                "--screenshot=" + png, "--window-size=1000,1600", file.toUri().toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve(name + ".log").toFile()).start();
        assertThat(process.waitFor(90, TimeUnit.SECONDS)).as("Chromium finished").isTrue();
        assertThat(png).as("the screenshot; Chromium said: %s", Files.readString(dir.resolve(name + ".log"))).exists();
        return ImageIO.read(png.toFile());
    }

    /**
     * What Chromium makes of {@code page}: a script added to a copy of it (the page itself has
     * none) writes the page's width and, for every drawing, the boxes of its view, its boxes, their
     * texts, its edge labels and its arrows ({@code getBBox()}, in the view's coordinates) into the
     * document, and {@code --dump-dom} prints it.
     */
    private JsonNode measure(String chromium, String page, String name) throws IOException, InterruptedException {
        String script = """
                <script>
                (() => {
                  const box = e => { const b = e.getBBox(); return [b.x, b.y, b.width, b.height]; };
                  const drawings = [...document.querySelectorAll('svg.cycle')].map(svg => ({
                    view: [svg.viewBox.baseVal.x, svg.viewBox.baseVal.y, svg.viewBox.baseVal.width, svg.viewBox.baseVal.height],
                    nodes: [...svg.querySelectorAll('g.node')].map(g => ({
                      rect: box(g.querySelector('rect')), texts: [...g.querySelectorAll('text')].map(box) })),
                    labels: [...svg.querySelectorAll('text.edge')].map(box),
                    arrows: [...svg.children].filter(e => e.tagName === 'path').map(box) }));
                  const result = { pageWidth: document.documentElement.scrollWidth, windowWidth: window.innerWidth, drawings };
                  const out = document.createElement('pre');
                  out.id = 'isocheck-geometry';
                  out.textContent = JSON.stringify(result);
                  document.body.appendChild(out);
                })();
                </script>
                """;
        assertThat(page).contains("</body>").doesNotContain("<script");
        Path file = dir.resolve(name + ".html");
        Files.writeString(file, page.replace("</body>", script + "</body>"), StandardCharsets.UTF_8);
        Path dom = dir.resolve(name + ".dom");
        Process process = new ProcessBuilder(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                "--dump-dom", "--window-size=1000,1600", file.toUri().toString())
                .redirectOutput(dom.toFile()).redirectError(dir.resolve(name + ".log").toFile()).start();
        assertThat(process.waitFor(90, TimeUnit.SECONDS)).as("Chromium finished").isTrue();
        Matcher result = Pattern.compile("<pre id=\"isocheck-geometry\">([^<]*)</pre>").matcher(Files.readString(dom));
        assertThat(result.find()).as("the script's result; Chromium said: %s", Files.readString(dir.resolve(name + ".log")))
                .isTrue();
        JsonNode geometry = new ObjectMapper().readTree(result.group(1).replace("&quot;", "\"").replace("&amp;", "&"));
        System.out.printf("measured (%s): page %s wide in a window %s wide, %d drawings%n", name, geometry.get("pageWidth"),
                geometry.get("windowWidth"), geometry.get("drawings").size());
        return geometry;
    }

    /** The drawing in {@code page}. */
    private static String svgOf(String page) {
        Matcher svg = Pattern.compile("(?s)<svg class=\"cycle\".*?</svg>\n").matcher(page);
        assertThat(svg.find()).isTrue();
        return svg.group();
    }

    /** {@code [x, y, width, height]}. */
    private static double[] box(JsonNode node) {
        return new double[] {node.get(0).asDouble(), node.get(1).asDouble(), node.get(2).asDouble(), node.get(3).asDouble()};
    }

    /** Whether box {@code a} lies inside {@code b}, give or take half a pixel of rounding. */
    private static boolean inside(double[] a, double[] b) {
        return a[0] >= b[0] - 0.5 && a[1] >= b[1] - 0.5 && a[0] + a[2] <= b[0] + b[2] + 0.5 && a[1] + a[3] <= b[1] + b[3] + 0.5;
    }

    private static boolean apart(double[] a, double[] b) {
        return a[0] + a[2] <= b[0] || b[0] + b[2] <= a[0] || a[1] + a[3] <= b[1] || b[1] + b[3] <= a[1];
    }

    private static int rgb(DependencyType type) {
        return Integer.parseInt(DotRenderer.color(type).substring(1), 16);
    }

    /** Pixels within a small distance of {@code rgb}: anti-aliasing blends the edges of lines. */
    private static int count(BufferedImage image, int rgb) {
        int n = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int p = image.getRGB(x, y);
                int d = Math.abs(((p >> 16) & 0xff) - ((rgb >> 16) & 0xff)) + Math.abs(((p >> 8) & 0xff) - ((rgb >> 8) & 0xff))
                        + Math.abs((p & 0xff) - (rgb & 0xff));
                n += d < 40 ? 1 : 0;
            }
        }
        return n;
    }

    private static Optional<String> chromium() {
        String configured = System.getenv("CHROME");
        if (configured != null && new File(configured).canExecute()) {
            return Optional.of(configured);
        }
        String path = System.getenv().getOrDefault("PATH", "");
        return Stream.of(path.split(File.pathSeparator))
                .flatMap(d -> List.of("chromium", "chromium-browser", "google-chrome").stream().map(n -> new File(d, n)))
                .filter(File::canExecute).map(File::getPath).findFirst();
    }
}
