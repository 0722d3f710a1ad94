package dev.isocheck.explain;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A cycle as the HTML page draws it, in inline SVG: a box per transaction (its id, session,
 * thread and times) and a curved arrow per edge, coloured by type and labelled as
 * {@link Wording#edgeLabel} says (type, key, and the predicate of a row a predicate read left out).
 * Every text is a {@link Label}: cut to a width the layout makes room for, whole in a
 * {@code <title>} that browsers show on hover; {@link CycleLayout} places them.
 */
final class CycleDrawing {

    /** The font sizes of the page's style sheet: a box's first line (the id), its other lines, the edge labels. */
    static final double ID_FONT = 14;
    static final double FONT = 13;
    static final double EDGE_FONT = 13;
    /** A line of a box, and the room above its first and below its last. */
    private static final double LINE = 16;
    private static final double PAD_Y = 7;
    private static final double PAD_X = 10;
    /** The narrowest box: a short id still gets a box, not a pill. */
    private static final double MIN_TEXT_WIDTH = 48;

    private CycleDrawing() {
    }

    /** Appends the drawing of {@code cycle} to {@code out}; {@code idPrefix} keeps its markers' ids apart from other drawings'. */
    static void draw(AnomalyCycle cycle, List<TransactionSummary> transactions, String idPrefix, StringBuilder out) {
        int n = cycle.length();
        List<List<Label>> lines = new ArrayList<>();
        double[] halfWidths = new double[n];
        double[] halfHeights = new double[n];
        for (int i = 0; i < n; i++) {
            List<Label> node = nodeLines(cycle.transactions().get(i), transactions);
            lines.add(node);
            double widest = MIN_TEXT_WIDTH;
            for (int line = 0; line < node.size(); line++) {
                widest = Math.max(widest, node.get(line).width(line == 0 ? ID_FONT : FONT));
            }
            halfWidths[i] = widest / 2 + PAD_X;
            halfHeights[i] = (node.size() * LINE + 2 * PAD_Y) / 2;
        }
        List<Label> edgeLabels = new ArrayList<>();
        double[] labelWidths = new double[n];
        for (int i = 0; i < n; i++) {
            Dependency edge = cycle.edges().get(i);
            edgeLabels.add(Label.of(Wording.edgeLabel(edge)));
            labelWidths[i] = edgeLabels.get(i).width(EDGE_FONT);
        }
        CycleLayout layout = CycleLayout.of(halfWidths, halfHeights, labelWidths);

        // Whole pixels, as the page always had: the layout rounds its view up.
        String width = Long.toString((long) layout.width());
        String height = Long.toString((long) layout.height());
        out.append("<svg class=\"cycle\" width=\"").append(width).append("\" height=\"").append(height)
                .append("\" viewBox=\"0 0 ").append(width).append(' ').append(height).append("\" role=\"img\" aria-label=\"")
                .append(PageText.shown(PageText.arrows(cycle))).append("\">\n<defs>\n");
        for (DependencyType type : DependencyType.values()) {
            out.append("<marker id=\"").append(idPrefix).append('-').append(type.shortName())
                    .append("\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"9\" markerHeight=\"9\""
                            + " orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"")
                    .append(DotRenderer.color(type)).append("\"/></marker>\n");
        }
        out.append("</defs>\n");
        for (int i = 0; i < n; i++) {
            arrow(cycle.edges().get(i), layout.arcs().get(i), edgeLabels.get(i), idPrefix, out);
        }
        for (int i = 0; i < n; i++) {
            box(lines.get(i), layout.boxes().get(i), out);
        }
        out.append("</svg>\n");
    }

    private static void arrow(Dependency edge, CycleLayout.Arc arc, Label label, String idPrefix, StringBuilder out) {
        String color = DotRenderer.color(edge.type());
        String title = "<title>" + PageText.shown(PageText.arrow(edge)) + ": " + PageText.of(edge.reason(), PageText.PROSE)
                + "</title>";
        out.append("<path d=\"M").append(number(arc.startX())).append(',').append(number(arc.startY())).append(" Q")
                .append(number(arc.controlX())).append(',').append(number(arc.controlY())).append(' ')
                .append(number(arc.endX())).append(',').append(number(arc.endY()))
                .append("\" fill=\"none\" stroke=\"").append(color).append("\" stroke-width=\"2\"")
                .append(edge.assumed() || edge.type().isOrder() ? " stroke-dasharray=\"7,4\"" : "")
                .append(" marker-end=\"url(#").append(idPrefix).append('-').append(edge.type().shortName()).append(")\">")
                .append(title).append("</path>\n");
        // The label's tooltip is the edge's, which names the key in full where the label cuts it.
        out.append("<text class=\"edge\" x=\"").append(number(arc.label().x())).append("\" y=\"")
                .append(number(arc.labelBaseline())).append("\" text-anchor=\"middle\" fill=\"").append(color).append("\">")
                .append(title).append(PageText.html(label.shown())).append("</text>\n");
    }

    /** A transaction's box; its tooltip holds its lines whole, one a line. */
    private static void box(List<Label> lines, CycleLayout.Box box, StringBuilder out) {
        StringBuilder title = new StringBuilder();
        for (Label line : lines) {
            title.append(title.isEmpty() ? "" : "\n").append(PageText.html(line.whole()));
        }
        out.append("<g class=\"node\"><title>").append(title).append("</title><rect x=\"").append(number(box.left()))
                .append("\" y=\"").append(number(box.top())).append("\" width=\"").append(number(2 * box.halfWidth()))
                .append("\" height=\"").append(number(2 * box.halfHeight())).append("\" rx=\"7\"/>");
        for (int line = 0; line < lines.size(); line++) {
            double baseline = box.top() + PAD_Y + LINE * (line + 1) - 3;
            out.append("<text x=\"").append(number(box.x())).append("\" y=\"").append(number(baseline))
                    .append("\" text-anchor=\"middle\"").append(line == 0 ? " class=\"id\"" : "").append('>')
                    .append(PageText.html(lines.get(line).shown())).append("</text>");
        }
        out.append("</g>\n");
    }

    private static List<Label> nodeLines(String id, List<TransactionSummary> transactions) {
        List<Label> lines = new ArrayList<>(List.of(Label.of(id)));
        for (TransactionSummary t : transactions) {
            if (t.id().equals(id)) {
                t.session().ifPresent(session -> lines.add(Label.of("session " + session)));
                Wording.thread(t).ifPresent(thread -> lines.add(Label.of(thread)));
                if (!t.times().isEmpty()) {
                    lines.add(Label.of("time " + t.times()));
                }
                break;
            }
        }
        return lines;
    }

    private static String number(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }
}
