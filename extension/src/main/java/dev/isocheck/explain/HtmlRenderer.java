package dev.isocheck.explain;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import org.apiguardian.api.API;

/**
 * Renders an {@link Explanation} as a self-contained HTML page: the cycle of each case drawn as
 * inline SVG (transactions on a circle, dependencies as arrows coloured by type and labelled with
 * type and key, and the predicate of a row a predicate read did not return), the justification of
 * every edge, and the transactions with their sessions, times
 * and operations (for a recorded history also their threads, and the SQL statements behind the
 * operations and the edges). The page loads nothing: no scripts, no style sheets, no fonts, no images from
 * anywhere, so it opens offline and from a CI artifact alike.
 *
 * <p>The history's names and values are shown as {@code PageText} makes them: bounded (a value of
 * any size costs the page a few hundred characters, so that its size follows the explanation's,
 * not the data's), with invisible and direction-changing characters escaped visibly, and
 * HTML-escaped, in the text, the titles and the attributes alike. Long words wrap rather than
 * widen the page (in the table of transactions, at places to break them); the drawing cuts its labels (whole on hover) and grows to fit its boxes
 * ({@code CycleDrawing}).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class HtmlRenderer {

    /** Renders {@code explanation} as a complete HTML document. */
    public String render(Explanation explanation) {
        return render(explanation, null);
    }

    /**
     * Renders {@code explanation} as a complete HTML document that names the history it explains
     * (in its title and under its heading), as the {@code check} command's reports do.
     *
     * @param history the history's file, as the user named it; {@code null}: not named
     */
    public String render(Explanation explanation, String history) {
        StringBuilder out = new StringBuilder();
        out.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        out.append("<title>isocheck: ").append(history == null ? "" : PageText.of(history, PageText.PROSE) + ": ")
                .append(PageText.of(Wording.headline(explanation), PageText.PROSE)).append("</title>\n");
        out.append("<style>\n").append(STYLE).append("</style>\n</head>\n<body>\n");
        out.append("<h1>").append(PageText.of(Wording.headline(explanation), PageText.PROSE)).append("</h1>\n");
        if (history != null) {
            out.append("<p class=\"history\">History: <code>").append(PageText.of(history, PageText.PROSE)).append("</code></p>\n");
        }
        if (explanation instanceof Explanation.Cycles cycles) {
            cycles(cycles, out);
        } else if (explanation instanceof Explanation.LikelyCase likely) {
            out.append("<p class=\"intro\">").append(PageText.of(Wording.likelyIntro(likely), PageText.PROSE)).append("</p>\n");
            caseSections(Wording.withinLikely(likely), out);
            out.append("<p class=\"intro\">").append(PageText.of(Wording.likelyUnshown(likely), PageText.PROSE)).append("</p>\n");
            out.append("<p class=\"conclusion\">").append(PageText.of(Wording.conclusion(likely.level()), PageText.PROSE)).append("</p>\n");
        } else if (explanation instanceof Explanation.Screened screened) {
            screened(screened, out);
        } else if (explanation instanceof Explanation.Unexplained unexplained) {
            out.append("<p class=\"reason\">").append(PageText.of(unexplained.reason(), PageText.PROSE)).append("</p>\n");
        }
        premises(explanation, out);
        transactions(explanation.transactions(), out);
        out.append("<p class=\"footer\">Written by isocheck. Edge types: ww write-write (a later version), wr write-read"
                + " (a version read), rw read-write (a read missed a later version), predicate-rw (a predicate read"
                + " missed a row's later version), session and realtime order. Dashed edges hold under the case's"
                + " assumptions only, or are order edges.</p>\n");
        return out.append("</body>\n</html>\n").toString();
    }

    private static void cycles(Explanation.Cycles cycles, StringBuilder out) {
        if (!cycles.isCertain()) {
            out.append("<p class=\"intro\">").append(PageText.of(Wording.casesIntro(cycles), PageText.PROSE)).append("</p>\n");
        }
        caseSections(cycles, out);
        out.append("<p class=\"conclusion\">").append(PageText.of(Wording.conclusion(cycles.level()), PageText.PROSE)).append("</p>\n");
    }

    /** A section per case (one, untitled, for a certain cycle): its cycle drawn and its edges. */
    private static void caseSections(Explanation.Cycles cycles, StringBuilder out) {
        for (int i = 0; i < cycles.cases().size(); i++) {
            AnomalyCycle cycle = cycles.cases().get(i).cycle();
            out.append("<section class=\"case\">\n");
            if (!cycles.isCertain()) {
                out.append("<h2>").append(PageText.of(Wording.caseTitle(cycles, i), PageText.PROSE)).append("</h2>\n");
            }
            out.append("<p class=\"name\"><strong>").append(PageText.of(Wording.name(cycle), PageText.PROSE)).append("</strong>: <code>")
                    .append(PageText.shown(PageText.arrows(cycle))).append("</code></p>\n");
            CycleDrawing.draw(cycle, cycles.transactions(), "c" + (i + 1), out);
            out.append("<ol class=\"edges\">\n");
            for (Dependency edge : cycle.edges()) {
                out.append("<li><code style=\"color:").append(DotRenderer.color(edge.type())).append("\">")
                        .append(PageText.shown(PageText.arrow(edge))).append("</code> ").append(PageText.of(edge.reason(), PageText.PROSE));
                for (String statement : Wording.edgeStatements(edge, cycles.transactions())) {
                    out.append("<div class=\"sql\"><code>").append(PageText.sql(statement)).append("</code></div>");
                }
                out.append("</li>\n");
            }
            out.append("</ol>\n</section>\n");
        }
    }

    private static void screened(Explanation.Screened screened, StringBuilder out) {
        ReadAnomaly anomaly = screened.anomaly();
        out.append("<p class=\"reason\">").append(PageText.of(anomaly.explanation(), PageText.PROSE)).append("</p>\n<ul class=\"edges\">\n");
        out.append("<li>the read: <code>").append(PageText.shown(operation(anomaly.read()))).append("</code></li>\n");
        for (ReadAnomaly.Related related : anomaly.related()) {
            out.append("<li>").append(PageText.of(related.role(), PageText.ITEM)).append(": <code>").append(PageText.shown(operation(related.operation())))
                    .append("</code></li>\n");
        }
        out.append("</ul>\n");
    }

    private static void premises(Explanation explanation, StringBuilder out) {
        if (explanation.premises().isEmpty()) {
            return;
        }
        out.append("<section class=\"premises\">\n<p>").append(PageText.of(Wording.premisesIntro(explanation), PageText.PROSE)).append("</p>\n<ul>\n");
        for (Assumption.UnwrittenInitialValue premise : explanation.premises()) {
            out.append("<li>").append(PageText.of(premise.text(), PageText.PROSE)).append("</li>\n");
        }
        out.append("</ul>\n<p>").append(PageText.of(Wording.premisesAdvice(explanation), PageText.PROSE)).append("</p>\n</section>\n");
    }

    /** An operation named in words, its transaction's id and its text each bounded. */
    private static String operation(OperationRef op) {
        return PageText.bounded(op.transaction(), PageText.ITEM) + " operation " + op.index() + ", "
                + PageText.bounded(op.text(), PageText.ITEM);
    }

    private static void transactions(List<TransactionSummary> transactions, StringBuilder out) {
        if (transactions.isEmpty()) {
            return;
        }
        // The thread column only for recorded histories, so that other reports stay as they were.
        boolean threads = transactions.stream().anyMatch(t -> t.thread().isPresent());
        out.append("<h2>Transactions</h2>\n<table>\n<tr><th>transaction</th><th>session</th>")
                .append(threads ? "<th>thread</th>" : "").append("<th>time</th><th>operations</th></tr>\n");
        for (TransactionSummary t : transactions) {
            out.append("<tr><td><strong>").append(PageText.cell(t.id(), PageText.ITEM)).append("</strong>")
                    .append(t.committed() ? "" : " (aborted)").append("</td><td>").append(PageText.cell(t.session().orElse(""), PageText.ITEM)).append("</td><td>");
            if (threads) {
                out.append(PageText.cell(t.thread().orElse(""), PageText.ITEM)).append("</td><td>");
            }
            out.append(PageText.cell(t.times(), PageText.ITEM)).append("</td><td>");
            for (Wording.StatementGroup group : Wording.groups(t)) {
                group.statement().ifPresent(statement -> out.append("<div class=\"sql\"><code>")
                        .append(PageText.sqlCell(Wording.statement(statement))).append("</code></div>"));
                if (!group.operations().isEmpty()) {
                    out.append("<ol start=\"").append(group.operations().get(0).index()).append("\">");
                    for (OperationRef op : group.operations()) {
                        out.append("<li><code>").append(PageText.cell(op.text(), PageText.ITEM)).append("</code></li>");
                    }
                    out.append("</ol>");
                }
            }
            out.append("</td></tr>\n");
        }
        out.append("</table>\n");
    }

    private static final String STYLE = """
            body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto; max-width: 60em;
                   color: #222; line-height: 1.45; padding: 0 1em; overflow-wrap: break-word; }
            h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
            code, td ol { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 0.92em; }
            .case { border-top: 1px solid #ddd; margin-top: 1em; }
            .intro, .conclusion, .reason { background: #f6f6f2; padding: 0.6em 0.9em; border-left: 4px solid #c62828; }
            svg.cycle { display: block; margin: 0.5em 0; max-width: 100%; height: auto; }
            svg.cycle .node rect { fill: #fbfbf7; stroke: #333; stroke-width: 1.3; }
            svg.cycle text { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 13px; }
            svg.cycle .node text { fill: #222; }
            svg.cycle text.id { font-weight: bold; font-size: 14px; }
            svg.cycle text.edge { font-size: 13px; font-weight: bold; paint-order: stroke; stroke: #fff; stroke-width: 4px; }
            ol.edges li { margin-bottom: 0.4em; }
            .premises { background: #fdf8e6; padding: 0.3em 0.9em; border-left: 4px solid #b58900; margin-top: 1em; }
            table { border-collapse: collapse; margin-top: 0.5em; max-width: 100%; }
            th, td { border: 1px solid #ccc; padding: 0.3em 0.6em; vertical-align: top; text-align: left; }
            td ol { margin: 0; padding-left: 2.2em; }
            .sql code { color: #1a4d80; white-space: pre-wrap; }
            .footer { color: #666; font-size: 0.85em; margin-top: 2em; }
            """;
}
