package dev.isocheck.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.CheckResult;
import dev.isocheck.Isocheck;
import dev.isocheck.IsolationLevel;
import dev.isocheck.explain.HtmlRenderer;
import dev.isocheck.format.JsonlHistoryReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * The anomaly catalogue ({@code docs/anomalies.md}) shows, for each example history, the history,
 * the explanation isocheck prints and the picture its HTML report draws. This test holds the page
 * to what isocheck does today: every {@code <!-- check NAME.jsonl at LEVEL -->} marker is followed
 * by the history's lines and the explanation's text exactly as checking the history gives them, and
 * {@code docs/anomalies/NAME-LEVEL.svg} is the report's drawing.
 *
 * <p>After a change to the explanations, {@code mvn -pl examples test -Dtest=AnomalyCatalogueTests
 * -Disocheck.updateCatalogue=true} rewrites the blocks and pictures; review the diff.
 */
class AnomalyCatalogueTests {

    private static final Path DOCS = Path.of("..", "docs");
    private static final Path CATALOGUE = DOCS.resolve("anomalies.md");
    private static final Path HISTORIES = Path.of("histories");
    private static final boolean UPDATE = Boolean.getBoolean("isocheck.updateCatalogue");

    /** A marker, then the history block, then the explanation block. */
    private static final Pattern ENTRY = Pattern.compile(
            "<!-- check (?<file>[\\w-]+\\.jsonl) at (?<level>[\\w-]+) -->\n```json\n(?<history>.*?)```\n\n"
                    + "(?<picture>!\\[[^\\]]*\\]\\([^)]*\\)\n\n)?```text\n(?<explanation>.*?)```", Pattern.DOTALL);
    private static final Pattern SVG = Pattern.compile("<svg class=\"cycle\".*?</svg>\n", Pattern.DOTALL);

    @Test
    void everyEntryShowsWhatCheckingItsHistoryGives() throws Exception {
        String page = Files.readString(CATALOGUE, StandardCharsets.UTF_8);
        Matcher entry = ENTRY.matcher(page);
        StringBuilder updated = new StringBuilder();
        SoftAssertions softly = new SoftAssertions();
        int entries = 0;
        while (entry.find()) {
            entries++;
            Path file = HISTORIES.resolve(entry.group("file"));
            IsolationLevel level = IsolationLevel.fromName(entry.group("level"));
            String history = historyLines(file);
            CheckResult result = Isocheck.check(new JsonlHistoryReader().read(file), level);
            softly.assertThat(result.isViolated()).as("%s at %s is a violation", file, level).isTrue();
            if (!result.isViolated()) {
                continue;
            }
            String explanation = result.explanationText().orElseThrow();
            String name = entry.group("file").replace(".jsonl", "") + "-" + level.cliName() + ".svg";
            String picture = standalonePicture(new HtmlRenderer().render(result.explanation().orElseThrow()));
            String pictureLine = picture == null ? "" : "![the cycle, as the report draws it](anomalies/" + name + ")\n\n";
            if (UPDATE) {
                entry.appendReplacement(updated, Matcher.quoteReplacement("<!-- check " + entry.group("file") + " at "
                        + level.cliName() + " -->\n```json\n" + history + "```\n\n" + pictureLine + "```text\n" + explanation + "```"));
                if (picture != null) {
                    Files.createDirectories(DOCS.resolve("anomalies"));
                    Files.writeString(DOCS.resolve("anomalies").resolve(name), picture, StandardCharsets.UTF_8);
                }
                continue;
            }
            softly.assertThat(entry.group("history")).as("the history shown for %s", file).isEqualTo(history);
            softly.assertThat(entry.group("explanation")).as("the explanation shown for %s at %s", file, level)
                    .isEqualTo(explanation);
            softly.assertThat(entry.group("picture") == null ? "" : entry.group("picture"))
                    .as("the picture line for %s at %s", file, level).isEqualTo(pictureLine);
            if (picture != null) {
                Path drawn = DOCS.resolve("anomalies").resolve(name);
                softly.assertThat(drawn).as("the picture of %s at %s", file, level).exists();
                if (Files.exists(drawn)) {
                    softly.assertThat(Files.readString(drawn, StandardCharsets.UTF_8)).as("%s", drawn).isEqualTo(picture);
                }
            }
        }
        if (UPDATE) {
            entry.appendTail(updated);
            Files.writeString(CATALOGUE, updated.toString(), StandardCharsets.UTF_8);
        }
        softly.assertThat(entries).as("entries in %s", CATALOGUE).isGreaterThanOrEqualTo(10);
        softly.assertAll();
    }

    /**
     * The report's first drawing as an SVG file of its own: with the SVG namespace, which a file
     * needs and a page's inline drawing does not, and the page's style rules for drawings inside it.
     */
    private static String standalonePicture(String page) {
        Matcher svg = SVG.matcher(page);
        if (!svg.find()) {
            return null;
        }
        String rules = page.lines().map(String::strip).filter(l -> l.startsWith("svg.cycle "))
                .map(l -> "  " + l + "\n").collect(Collectors.joining());
        String drawing = svg.group();
        int tagEnd = drawing.indexOf(">\n") + 2;
        return drawing.substring(0, tagEnd).replace("<svg class=\"cycle\"", "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"cycle\"")
                + "<style>\n" + rules + "</style>\n" + drawing.substring(tagEnd);
    }

    /** The history's lines without its comments, as the page shows them. */
    private static String historyLines(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        return lines.stream().filter(l -> !l.startsWith("//") && !l.isBlank()).collect(Collectors.joining("\n", "", "\n"));
    }
}
