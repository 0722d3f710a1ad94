package dev.isocheck.explain;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML page as a browser draws it: headless Chromium takes a screenshot of the page, and of the
 * same page without its drawing, and the drawing must add the edges' colours (the arrows and their
 * labels). Skipped where no Chromium is installed ({@code chromium}, {@code chromium-browser} or
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
