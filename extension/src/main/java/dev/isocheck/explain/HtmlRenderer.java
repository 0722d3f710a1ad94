package dev.isocheck.explain;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apiguardian.api.API;

/**
 * Renders an {@link Explanation} as a self-contained HTML page: the cycle of each case drawn as
 * inline SVG (transactions on a circle, dependencies as arrows coloured by type and labelled with
 * type and key), the justification of every edge, and the transactions with their sessions, times
 * and operations (for a recorded history also their threads, and the SQL statements behind the
 * operations and the edges). The page loads nothing: no scripts, no style sheets, no fonts, no images from
 * anywhere, so it opens offline and from a CI artifact alike.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class HtmlRenderer {

    private static final int WIDTH = 760;
    private static final int CHAR_WIDTH = 8;
    private static final int LINE = 16;

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
        out.append("<title>isocheck: ").append(history == null ? "" : escape(history) + ": ")
                .append(escape(Wording.headline(explanation))).append("</title>\n");
        out.append("<style>\n").append(STYLE).append("</style>\n</head>\n<body>\n");
        out.append("<h1>").append(escape(Wording.headline(explanation))).append("</h1>\n");
        if (history != null) {
            out.append("<p class=\"history\">History: <code>").append(escape(history)).append("</code></p>\n");
        }
        if (explanation instanceof Explanation.Cycles cycles) {
            cycles(cycles, out);
        } else if (explanation instanceof Explanation.LikelyCase likely) {
            out.append("<p class=\"intro\">").append(escape(Wording.likelyIntro(likely))).append("</p>\n");
            caseSections(Wording.withinLikely(likely), out);
            out.append("<p class=\"intro\">").append(escape(Wording.likelyUnshown(likely))).append("</p>\n");
            out.append("<p class=\"conclusion\">").append(escape(Wording.conclusion(likely.level()))).append("</p>\n");
        } else if (explanation instanceof Explanation.Screened screened) {
            screened(screened, out);
        } else if (explanation instanceof Explanation.Unexplained unexplained) {
            out.append("<p class=\"reason\">").append(escape(unexplained.reason())).append("</p>\n");
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
            out.append("<p class=\"intro\">").append(escape(Wording.casesIntro(cycles))).append("</p>\n");
        }
        caseSections(cycles, out);
        out.append("<p class=\"conclusion\">").append(escape(Wording.conclusion(cycles.level()))).append("</p>\n");
    }

    /** A section per case (one, untitled, for a certain cycle): its cycle drawn and its edges. */
    private static void caseSections(Explanation.Cycles cycles, StringBuilder out) {
        for (int i = 0; i < cycles.cases().size(); i++) {
            AnomalyCycle cycle = cycles.cases().get(i).cycle();
            out.append("<section class=\"case\">\n");
            if (!cycles.isCertain()) {
                out.append("<h2>").append(escape(Wording.caseTitle(cycles, i))).append("</h2>\n");
            }
            out.append("<p class=\"name\"><strong>").append(escape(Wording.name(cycle))).append("</strong>: <code>")
                    .append(escape(cycle.arrows())).append("</code></p>\n");
            diagram(cycle, cycles.transactions(), "c" + (i + 1), out);
            out.append("<ol class=\"edges\">\n");
            for (Dependency edge : cycle.edges()) {
                out.append("<li><code style=\"color:").append(DotRenderer.color(edge.type())).append("\">")
                        .append(escape(edge.arrow())).append("</code> ").append(escape(edge.reason()));
                for (String statement : Wording.edgeStatements(edge, cycles.transactions())) {
                    out.append("<div class=\"sql\"><code>").append(escape(statement)).append("</code></div>");
                }
                out.append("</li>\n");
            }
            out.append("</ol>\n</section>\n");
        }
    }

    private static void screened(Explanation.Screened screened, StringBuilder out) {
        ReadAnomaly anomaly = screened.anomaly();
        out.append("<p class=\"reason\">").append(escape(anomaly.explanation())).append("</p>\n<ul class=\"edges\">\n");
        out.append("<li>the read: <code>").append(escape(operation(anomaly.read()))).append("</code></li>\n");
        for (ReadAnomaly.Related related : anomaly.related()) {
            out.append("<li>").append(escape(related.role())).append(": <code>").append(escape(operation(related.operation())))
                    .append("</code></li>\n");
        }
        out.append("</ul>\n");
    }

    private static void premises(Explanation explanation, StringBuilder out) {
        if (explanation.premises().isEmpty()) {
            return;
        }
        out.append("<section class=\"premises\">\n<p>").append(escape(Wording.premisesIntro(explanation))).append("</p>\n<ul>\n");
        for (Assumption.UnwrittenInitialValue premise : explanation.premises()) {
            out.append("<li>").append(escape(premise.text())).append("</li>\n");
        }
        out.append("</ul>\n<p>").append(escape(Wording.premisesAdvice(explanation))).append("</p>\n</section>\n");
    }

    private static String operation(OperationRef op) {
        return op.transaction() + " operation " + op.index() + ", " + op.text();
    }

    /** The cycle as an SVG drawing: nodes on a circle (side by side for two), curved arrows between them. */
    private static void diagram(AnomalyCycle cycle, List<TransactionSummary> transactions, String idPrefix, StringBuilder out) {
        int n = cycle.length();
        double radius = n == 2 ? 170 : Math.min(260, 70 + 38.0 * n);
        int height = (int) (n == 2 ? 180 : 2 * radius + 130);
        double cx = WIDTH / 2.0;
        double cy = height / 2.0;
        double[] x = new double[n];
        double[] y = new double[n];
        double[] halfWidth = new double[n];
        double[] halfHeight = new double[n];
        String[][] labels = new String[n][];
        for (int i = 0; i < n; i++) {
            double angle = n == 2 ? Math.PI * (1 - i) : -Math.PI / 2 + 2 * Math.PI * i / n;
            x[i] = cx + radius * Math.cos(angle);
            y[i] = cy + radius * Math.sin(angle);
            labels[i] = nodeLines(cycle.transactions().get(i), transactions);
            int longest = 0;
            for (String line : labels[i]) {
                longest = Math.max(longest, line.length());
            }
            halfWidth[i] = (Math.max(6, longest) * CHAR_WIDTH + 20) / 2.0;
            halfHeight[i] = (labels[i].length * LINE + 14) / 2.0;
        }
        out.append("<svg class=\"cycle\" width=\"").append(WIDTH).append("\" height=\"").append(height)
                .append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height).append("\" role=\"img\" aria-label=\"")
                .append(escape(cycle.arrows())).append("\">\n<defs>\n");
        for (DependencyType type : DependencyType.values()) {
            out.append("<marker id=\"").append(idPrefix).append('-').append(type.shortName())
                    .append("\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"9\" markerHeight=\"9\""
                            + " orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"")
                    .append(DotRenderer.color(type)).append("\"/></marker>\n");
        }
        out.append("</defs>\n");
        double bend = n == 2 ? 60 : 26;
        for (int i = 0; i < n; i++) {
            int j = (i + 1) % n;
            Dependency edge = cycle.edges().get(i);
            double dx = x[j] - x[i];
            double dy = y[j] - y[i];
            double length = Math.hypot(dx, dy);
            // The outward normal of an edge going clockwise (screen coordinates, y downwards).
            double nx = dy / length;
            double ny = -dx / length;
            double controlX = (x[i] + x[j]) / 2 + nx * bend;
            double controlY = (y[i] + y[j]) / 2 + ny * bend;
            double[] start = boxExit(x[i], y[i], controlX, controlY, halfWidth[i] + 3, halfHeight[i] + 3);
            double[] end = boxExit(x[j], y[j], controlX, controlY, halfWidth[j] + 5, halfHeight[j] + 5);
            String color = DotRenderer.color(edge.type());
            out.append("<path d=\"M").append(number(start[0])).append(',').append(number(start[1])).append(" Q")
                    .append(number(controlX)).append(',').append(number(controlY)).append(' ').append(number(end[0])).append(',')
                    .append(number(end[1])).append("\" fill=\"none\" stroke=\"").append(color).append("\" stroke-width=\"2\"")
                    .append(edge.assumed() || edge.type().isOrder() ? " stroke-dasharray=\"7,4\"" : "")
                    .append(" marker-end=\"url(#").append(idPrefix).append('-').append(edge.type().shortName()).append(")\">")
                    .append("<title>").append(escape(edge.arrow() + ": " + edge.reason())).append("</title></path>\n");
            double labelX = 0.25 * start[0] + 0.5 * controlX + 0.25 * end[0] + nx * 12;
            double labelY = 0.25 * start[1] + 0.5 * controlY + 0.25 * end[1] + ny * 12 + 5;
            out.append("<text class=\"edge\" x=\"").append(number(labelX)).append("\" y=\"").append(number(labelY))
                    .append("\" text-anchor=\"middle\" fill=\"").append(color).append("\">")
                    .append(escape(edge.type().shortName() + edge.key().map(k -> " " + k).orElse(""))).append("</text>\n");
        }
        for (int i = 0; i < n; i++) {
            out.append("<g class=\"node\"><rect x=\"").append(number(x[i] - halfWidth[i])).append("\" y=\"")
                    .append(number(y[i] - halfHeight[i])).append("\" width=\"").append(number(2 * halfWidth[i]))
                    .append("\" height=\"").append(number(2 * halfHeight[i])).append("\" rx=\"7\"/>");
            for (int line = 0; line < labels[i].length; line++) {
                double baseline = y[i] - halfHeight[i] + 7 + LINE * (line + 1) - 3;
                out.append("<text x=\"").append(number(x[i])).append("\" y=\"").append(number(baseline))
                        .append("\" text-anchor=\"middle\"").append(line == 0 ? " class=\"id\"" : "").append('>')
                        .append(escape(labels[i][line])).append("</text>");
            }
            out.append("</g>\n");
        }
        out.append("</svg>\n");
    }

    /** Where the segment from a box's centre towards a point leaves the box. */
    private static double[] boxExit(double x, double y, double towardsX, double towardsY, double halfWidth, double halfHeight) {
        double dx = towardsX - x;
        double dy = towardsY - y;
        double t = Math.min(dx == 0 ? Double.MAX_VALUE : halfWidth / Math.abs(dx), dy == 0 ? Double.MAX_VALUE : halfHeight / Math.abs(dy));
        t = Math.min(t, 1);
        return new double[] {x + dx * t, y + dy * t};
    }

    private static String[] nodeLines(String id, List<TransactionSummary> transactions) {
        for (TransactionSummary t : transactions) {
            if (t.id().equals(id)) {
                List<String> lines = new ArrayList<>(List.of(id));
                t.session().ifPresent(session -> lines.add("session " + session));
                Wording.thread(t).ifPresent(lines::add);
                if (!t.times().isEmpty()) {
                    lines.add("time " + t.times());
                }
                return lines.toArray(new String[0]);
            }
        }
        return new String[] {id};
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
            out.append("<tr><td><strong>").append(escape(t.id())).append("</strong>").append(t.committed() ? "" : " (aborted)")
                    .append("</td><td>").append(escape(t.session().orElse(""))).append("</td><td>");
            if (threads) {
                out.append(escape(t.thread().orElse(""))).append("</td><td>");
            }
            out.append(escape(t.times())).append("</td><td>");
            for (Wording.StatementGroup group : Wording.groups(t)) {
                group.statement().ifPresent(statement -> out.append("<div class=\"sql\"><code>")
                        .append(escape(Wording.statement(statement))).append("</code></div>"));
                if (!group.operations().isEmpty()) {
                    out.append("<ol start=\"").append(group.operations().get(0).index()).append("\">");
                    for (OperationRef op : group.operations()) {
                        out.append("<li><code>").append(escape(op.text())).append("</code></li>");
                    }
                    out.append("</ol>");
                }
            }
            out.append("</td></tr>\n");
        }
        out.append("</table>\n");
    }

    private static String number(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }

    /** Text as HTML character data or attribute value. */
    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
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

    private static final String STYLE = """
            body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto; max-width: 60em;
                   color: #222; line-height: 1.45; padding: 0 1em; }
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
            table { border-collapse: collapse; margin-top: 0.5em; }
            th, td { border: 1px solid #ccc; padding: 0.3em 0.6em; vertical-align: top; text-align: left; }
            td ol { margin: 0; padding-left: 2.2em; }
            .sql code { color: #1a4d80; }
            .footer { color: #666; font-size: 0.85em; margin-top: 2em; }
            """;
}
