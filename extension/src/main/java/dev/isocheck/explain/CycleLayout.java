package dev.isocheck.explain;

import java.util.ArrayList;
import java.util.List;

/**
 * Where the cycle's drawing puts its boxes, arrows and edge labels, from their sizes alone: the
 * transactions on a circle (side by side for two), the circle as large as it must be for no two
 * boxes, no two edge labels and no edge label and box to overlap, and the view as large as what is drawn, so that
 * nothing is clipped at its edges. Pure geometry, in SVG's coordinates (y downwards), so that
 * tests can check it for any sizes.
 */
final class CycleLayout {

    /** The narrowest drawing: small cycles keep the width and place they always had on the page. */
    static final double MIN_WIDTH = 760;
    /** Room around what is drawn, for strokes and arrowheads. */
    static final double MARGIN = 12;
    /** How far an edge label's text reaches above and below its baseline (13px, bold). */
    static final double LABEL_ASCENT = 13;
    static final double LABEL_DESCENT = 4;

    /** Space between two boxes: for two, room for two arrows and their labels between them. */
    private static final double GAP_TWO = 110;
    private static final double GAP = 48;
    /** Space between an edge label and a box or another label. */
    private static final double LABEL_GAP = 4;
    /** How fast the circle grows until everything fits, and how often at most. */
    private static final double GROWTH = 1.05;
    private static final int MAX_GROWTHS = 400;

    private final List<Box> boxes;
    private final List<Arc> arcs;
    private final double width;
    private final double height;

    /**
     * A box: its centre and half its size.
     *
     * @param x          the centre's x
     * @param y          the centre's y
     * @param halfWidth  half the width
     * @param halfHeight half the height
     */
    record Box(double x, double y, double halfWidth, double halfHeight) {

        double left() {
            return x - halfWidth;
        }

        double top() {
            return y - halfHeight;
        }

        double right() {
            return x + halfWidth;
        }

        double bottom() {
            return y + halfHeight;
        }

        /** Whether the two boxes are at least {@code gap} apart, across or down. */
        boolean isApart(Box other, double gap) {
            return left() - other.right() >= gap || other.left() - right() >= gap || top() - other.bottom() >= gap
                    || other.top() - bottom() >= gap;
        }

        Box moved(double dx, double dy) {
            return new Box(x + dx, y + dy, halfWidth, halfHeight);
        }
    }

    /**
     * An arrow from one box to the next, a quadratic curve bent outwards, with its label's
     * baseline centre and the box the label takes.
     */
    record Arc(double startX, double startY, double controlX, double controlY, double endX, double endY, Box label) {

        Arc moved(double dx, double dy) {
            return new Arc(startX + dx, startY + dy, controlX + dx, controlY + dy, endX + dx, endY + dy, label.moved(dx, dy));
        }

        /** The label's baseline: the text is drawn centred on {@code label.x()} at this y. */
        double labelBaseline() {
            return label.bottom() - LABEL_DESCENT;
        }
    }

    private CycleLayout(List<Box> boxes, List<Arc> arcs, double width, double height) {
        this.boxes = boxes;
        this.arcs = arcs;
        this.width = width;
        this.height = height;
    }

    /**
     * Lays out a cycle: box {@code i} is {@code 2 * halfWidths[i]} by {@code 2 * halfHeights[i]},
     * and arrow {@code i}, from box {@code i} to the next, has a label {@code labelWidths[i]} wide.
     */
    static CycleLayout of(double[] halfWidths, double[] halfHeights, double[] labelWidths) {
        int n = halfWidths.length;
        double tallest = 0;
        for (double h : halfHeights) {
            tallest = Math.max(tallest, h);
        }
        // Two boxes side by side: the arrows over and under them bend far enough for their labels
        // to clear the taller box.
        double bend = n == 2 ? Math.max(60, 2 * (tallest + LABEL_DESCENT + LABEL_GAP) - 24) : 26;
        double radius = n == 2 ? 170 : Math.min(260, 70 + 38.0 * n);
        List<Box> boxes = circle(radius, halfWidths, halfHeights);
        List<Arc> arcs = arcs(boxes, bend, labelWidths);
        for (int i = 0; i < MAX_GROWTHS && !fits(boxes, arcs, n == 2 ? GAP_TWO : GAP); i++) {
            radius *= GROWTH;
            boxes = circle(radius, halfWidths, halfHeights);
            arcs = arcs(boxes, bend, labelWidths);
        }
        return framed(boxes, arcs);
    }

    private static List<Box> circle(double radius, double[] halfWidths, double[] halfHeights) {
        int n = halfWidths.length;
        List<Box> boxes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            // Two side by side, the first on the left; more clockwise from the top.
            double angle = n == 2 ? Math.PI * (1 - i) : -Math.PI / 2 + 2 * Math.PI * i / n;
            boxes.add(new Box(radius * Math.cos(angle), radius * Math.sin(angle), halfWidths[i], halfHeights[i]));
        }
        return boxes;
    }

    private static List<Arc> arcs(List<Box> boxes, double bend, double[] labelWidths) {
        int n = boxes.size();
        List<Arc> arcs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Box from = boxes.get(i);
            Box to = boxes.get((i + 1) % n);
            double dx = to.x() - from.x();
            double dy = to.y() - from.y();
            double length = Math.hypot(dx, dy);
            // The outward normal of an edge going clockwise (screen coordinates, y downwards).
            double nx = dy / length;
            double ny = -dx / length;
            double controlX = (from.x() + to.x()) / 2 + nx * bend;
            double controlY = (from.y() + to.y()) / 2 + ny * bend;
            double[] start = exit(from, controlX, controlY, 3);
            double[] end = exit(to, controlX, controlY, 5);
            // The label outside the curve's middle, its baseline a little lower to centre the text.
            double labelX = 0.25 * start[0] + 0.5 * controlX + 0.25 * end[0] + nx * 12;
            double baseline = 0.25 * start[1] + 0.5 * controlY + 0.25 * end[1] + ny * 12 + 5;
            double labelHalfHeight = (LABEL_ASCENT + LABEL_DESCENT) / 2;
            Box label = new Box(labelX, baseline + LABEL_DESCENT - labelHalfHeight, labelWidths[i] / 2, labelHalfHeight);
            arcs.add(new Arc(start[0], start[1], controlX, controlY, end[0], end[1], label));
        }
        return arcs;
    }

    /** Where the segment from a box's centre towards a point leaves the box grown by {@code pad}. */
    private static double[] exit(Box box, double towardsX, double towardsY, double pad) {
        double dx = towardsX - box.x();
        double dy = towardsY - box.y();
        double t = Math.min(dx == 0 ? Double.MAX_VALUE : (box.halfWidth() + pad) / Math.abs(dx),
                dy == 0 ? Double.MAX_VALUE : (box.halfHeight() + pad) / Math.abs(dy));
        t = Math.min(t, 1);
        return new double[] {box.x() + dx * t, box.y() + dy * t};
    }

    private static boolean fits(List<Box> boxes, List<Arc> arcs, double gap) {
        for (int i = 0; i < arcs.size(); i++) {
            for (int j = i + 1; j < arcs.size(); j++) {
                if (!arcs.get(i).label().isApart(arcs.get(j).label(), LABEL_GAP)) {
                    return false;
                }
            }
        }
        for (int i = 0; i < boxes.size(); i++) {
            for (int j = i + 1; j < boxes.size(); j++) {
                if (!boxes.get(i).isApart(boxes.get(j), gap)) {
                    return false;
                }
            }
            for (Arc arc : arcs) {
                if (!boxes.get(i).isApart(arc.label(), LABEL_GAP)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The layout moved into a view that holds all of it, centred across at least {@link #MIN_WIDTH}. */
    private static CycleLayout framed(List<Box> boxes, List<Arc> arcs) {
        double[] bounds = {Double.MAX_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE, -Double.MAX_VALUE};
        for (Box box : boxes) {
            include(bounds, box);
        }
        for (Arc arc : arcs) {
            include(bounds, arc.label());
            curveBounds(bounds, arc.startX(), arc.controlX(), arc.endX(), 0);
            curveBounds(bounds, arc.startY(), arc.controlY(), arc.endY(), 1);
        }
        double contentWidth = bounds[2] - bounds[0];
        double width = Math.max(MIN_WIDTH, Math.ceil(contentWidth + 2 * MARGIN));
        double height = Math.ceil(bounds[3] - bounds[1] + 2 * MARGIN);
        double dx = (width - contentWidth) / 2 - bounds[0];
        double dy = MARGIN - bounds[1];
        return new CycleLayout(boxes.stream().map(b -> b.moved(dx, dy)).toList(), arcs.stream().map(a -> a.moved(dx, dy)).toList(),
                width, height);
    }

    private static void include(double[] bounds, Box box) {
        bounds[0] = Math.min(bounds[0], box.left());
        bounds[1] = Math.min(bounds[1], box.top());
        bounds[2] = Math.max(bounds[2], box.right());
        bounds[3] = Math.max(bounds[3], box.bottom());
    }

    /**
     * Widens {@code bounds} along one axis ({@code 0} across, {@code 1} down) to a quadratic
     * curve's extent there: its ends, and its turning point where it has one.
     */
    private static void curveBounds(double[] bounds, double p0, double p1, double p2, int axis) {
        double min = Math.min(p0, p2);
        double max = Math.max(p0, p2);
        double denominator = p0 - 2 * p1 + p2;
        if (denominator != 0) {
            double t = (p0 - p1) / denominator;
            if (t > 0 && t < 1) {
                double turn = (1 - t) * (1 - t) * p0 + 2 * (1 - t) * t * p1 + t * t * p2;
                min = Math.min(min, turn);
                max = Math.max(max, turn);
            }
        }
        bounds[axis] = Math.min(bounds[axis], min);
        bounds[axis + 2] = Math.max(bounds[axis + 2], max);
    }

    /** The boxes, in the cycle's order, centred on their transactions' places. */
    List<Box> boxes() {
        return boxes;
    }

    /** The arrows: arrow {@code i} goes from box {@code i} to the next. */
    List<Arc> arcs() {
        return arcs;
    }

    /** The view's width: at least {@link #MIN_WIDTH}, and what is drawn with a margin. */
    double width() {
        return width;
    }

    /** The view's height: what is drawn, with a margin. */
    double height() {
        return height;
    }
}
