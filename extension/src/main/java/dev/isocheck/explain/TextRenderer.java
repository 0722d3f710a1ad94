package dev.isocheck.explain;

import java.util.ArrayList;
import java.util.List;

/**
 * Renders an {@link Explanation} as plain text for consoles and IDE test output: no colour, lines
 * of at most {@link #WIDTH} characters, and always the same text for the same explanation (cases,
 * edges and transactions in their stored order). Each transaction is listed with its session, its
 * times and its numbered operations, so the report stands on its own.
 *
 * <pre>
 * G2-item (write skew) at serializable: a cycle of 2 transactions
 *   T1 -rw x-&gt; T2 -rw y-&gt; T1
 *
 *   T1 -rw x-&gt; T2  T1 read x = 0, the initial value; T2 installed a later version, x = 1, so T1
 *                   did not see T2's write
 *   ...
 * </pre>
 */
public final class TextRenderer {

    /** The longest line the renderer writes. */
    public static final int WIDTH = 100;

    /** Renders {@code explanation}; lines end with {@code \n}, the last one too. */
    public String render(Explanation explanation) {
        List<String> lines = new ArrayList<>();
        wrap(Wording.headline(explanation), "", "  ", lines);
        if (explanation instanceof Explanation.Cycles cycles) {
            cycles(cycles, lines);
        } else if (explanation instanceof Explanation.Screened screened) {
            screened(screened, lines);
        } else if (explanation instanceof Explanation.Unexplained unexplained) {
            wrap(unexplained.reason(), "  ", "  ", lines);
        }
        StringBuilder out = new StringBuilder();
        lines.forEach(line -> out.append(line.stripTrailing()).append('\n'));
        return out.toString();
    }

    private static void cycles(Explanation.Cycles cycles, List<String> lines) {
        if (cycles.isCertain()) {
            AnomalyCycle cycle = cycles.cases().get(0).cycle();
            wrap(cycle.arrows(), "  ", "    ", lines);
            lines.add("");
            edges(cycle, "    ", lines);
        } else {
            wrap(Wording.casesIntro(cycles), "  ", "  ", lines);
            for (int i = 0; i < cycles.cases().size(); i++) {
                AnomalyCycle cycle = cycles.cases().get(i).cycle();
                lines.add("");
                wrap(Wording.caseTitle(cycles, i), "  ", "    ", lines);
                wrap(Wording.name(cycle) + ": " + cycle.arrows(), "    ", "      ", lines);
                edges(cycle, "      ", lines);
            }
        }
        lines.add("");
        wrap(Wording.conclusion(cycles.level()), "  ", "  ", lines);
        transactions(cycles.transactions(), lines);
    }

    /** Each edge: its arrow, then its reason, aligned after the longest arrow. */
    private static void edges(AnomalyCycle cycle, String indent, List<String> lines) {
        int width = cycle.edges().stream().mapToInt(e -> e.arrow().length()).max().orElse(0);
        // Arrows with long keys would leave no room for the reason: fall back to a line of their own.
        boolean aligned = width <= 40;
        for (Dependency edge : cycle.edges()) {
            String arrow = edge.arrow();
            if (aligned) {
                String first = indent + arrow + " ".repeat(width - arrow.length() + 2);
                wrap(edge.reason(), first, " ".repeat(first.length()), lines);
            } else {
                wrap(arrow, indent, indent + "  ", lines);
                wrap(edge.reason(), indent + "  ", indent + "  ", lines);
            }
        }
    }

    private static void screened(Explanation.Screened screened, List<String> lines) {
        ReadAnomaly anomaly = screened.anomaly();
        wrap(anomaly.explanation(), "  ", "  ", lines);
        lines.add("");
        wrap("the read: " + operation(anomaly.read()), "  ", "      ", lines);
        for (ReadAnomaly.Related related : anomaly.related()) {
            wrap(related.role() + ": " + operation(related.operation()), "  ", "      ", lines);
        }
        transactions(screened.transactions(), lines);
    }

    private static String operation(OperationRef op) {
        return op.transaction() + " operation " + op.index() + ", " + op.text();
    }

    private static void transactions(List<TransactionSummary> transactions, List<String> lines) {
        if (transactions.isEmpty()) {
            return;
        }
        lines.add("");
        lines.add("  Transactions:");
        for (TransactionSummary t : transactions) {
            StringBuilder head = new StringBuilder(t.id());
            t.session().ifPresent(session -> head.append("  session ").append(session));
            if (!t.times().isEmpty()) {
                head.append("  time ").append(t.times());
            }
            if (!t.committed()) {
                head.append("  aborted");
            }
            wrap(head.toString(), "    ", "      ", lines);
            int digits = Integer.toString(Math.max(0, t.operations().size() - 1)).length();
            for (OperationRef op : t.operations()) {
                String number = String.format("%" + digits + "d", op.index());
                String first = "        " + number + "  ";
                wrap(op.text(), first, " ".repeat(first.length()), lines);
            }
        }
    }

    /**
     * Word-wraps {@code text} to {@link #WIDTH} columns: the first line after {@code first}, the
     * others after {@code rest}. A word longer than a line is cut.
     */
    static void wrap(String text, String first, String rest, List<String> lines) {
        StringBuilder line = new StringBuilder(first);
        int start = first.length();
        for (String word : text.split(" ")) {
            if (line.length() > start && line.length() + 1 + word.length() > WIDTH) {
                lines.add(line.toString());
                line = new StringBuilder(rest);
                start = rest.length();
            }
            if (line.length() > start) {
                line.append(' ');
            }
            String left = word;
            while (line.length() + left.length() > WIDTH && WIDTH - line.length() > 0) {
                int room = WIDTH - line.length();
                line.append(left, 0, room);
                lines.add(line.toString());
                left = left.substring(room);
                line = new StringBuilder(rest);
                start = rest.length();
            }
            line.append(left);
        }
        lines.add(line.toString());
    }
}
