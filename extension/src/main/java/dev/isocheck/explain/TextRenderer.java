package dev.isocheck.explain;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.isocheck.internal.text.Printable;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/**
 * Renders an {@link Explanation} as plain text for consoles and IDE test output: no colour, lines
 * of at most {@link #WIDTH} characters, and always the same text for the same explanation (cases,
 * edges and transactions in their stored order). Each transaction is listed with its session, its
 * times and its numbered operations, so the report stands on its own; a recorded transaction also
 * with its thread, and its operations under the SQL statements (with their parameters) that did
 * them, each edge followed by the statements behind it. Control characters and bidirectional
 * controls in what the history names are shown as escapes ({@code \n}, {@code \}{@code u001b} for
 * ESC), so that every line is one the renderer wrote.
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
@API(status = EXPERIMENTAL, since = "0.1")
public final class TextRenderer {

    /** The longest line the renderer writes. */
    public static final int WIDTH = 100;

    private final String indent;

    /** A renderer whose lines start at the first column. */
    public TextRenderer() {
        this("");
    }

    /**
     * A renderer that starts every non-empty line with {@code indent} (the {@code check} command
     * nests the report under its verdict line), lines still at most {@link #WIDTH} long.
     *
     * @param indent spaces, fewer than 40
     */
    public TextRenderer(String indent) {
        if (!indent.chars().allMatch(c -> c == ' ') || indent.length() >= 40) {
            throw new IllegalArgumentException("the indent must be fewer than 40 spaces: '" + indent + "'");
        }
        this.indent = indent;
    }

    /** Renders {@code explanation}; lines end with {@code \n}, the last one too. */
    public String render(Explanation explanation) {
        List<String> lines = new ArrayList<>();
        put(Wording.headline(explanation), "", "  ", lines);
        if (explanation instanceof Explanation.Cycles cycles) {
            cycles(cycles, lines);
        } else if (explanation instanceof Explanation.LikelyCase likely) {
            likely(likely, lines);
        } else if (explanation instanceof Explanation.Screened screened) {
            screened(screened, lines);
        } else if (explanation instanceof Explanation.Unexplained unexplained) {
            put(unexplained.reason(), "  ", "  ", lines);
        }
        StringBuilder out = new StringBuilder();
        lines.forEach(line -> out.append(line.stripTrailing()).append('\n'));
        return out.toString();
    }

    private void cycles(Explanation.Cycles cycles, List<String> lines) {
        if (!cycles.isCertain()) {
            put(Wording.casesIntro(cycles), "  ", "  ", lines);
        }
        caseBodies(cycles, lines);
        lines.add("");
        put(Wording.conclusion(cycles.level()), "  ", "  ", lines);
        premises(cycles, lines);
        transactions(cycles.transactions(), lines);
    }

    private void likely(Explanation.LikelyCase likely, List<String> lines) {
        put(Wording.likelyIntro(likely), "  ", "  ", lines);
        caseBodies(Wording.withinLikely(likely), lines);
        lines.add("");
        put(Wording.likelyUnshown(likely), "  ", "  ", lines);
        lines.add("");
        put(Wording.conclusion(likely.level()), "  ", "  ", lines);
        premises(likely, lines);
        transactions(likely.transactions(), lines);
    }

    /** The cycle, or each case with its cycle, and their edges. */
    private void caseBodies(Explanation.Cycles cycles, List<String> lines) {
        if (cycles.isCertain()) {
            AnomalyCycle cycle = cycles.cases().get(0).cycle();
            put(cycle.arrows(), "  ", "    ", lines);
            lines.add("");
            edges(cycle, cycles.transactions(), "    ", lines);
        } else {
            for (int i = 0; i < cycles.cases().size(); i++) {
                AnomalyCycle cycle = cycles.cases().get(i).cycle();
                lines.add("");
                put(Wording.caseTitle(cycles, i), "  ", "    ", lines);
                put(Wording.name(cycle) + ": " + cycle.arrows(), "    ", "      ", lines);
                edges(cycle, cycles.transactions(), "      ", lines);
            }
        }
    }

    /** The reads the explanation takes not to be of their key's unknown initial value, and how to say otherwise. */
    private void premises(Explanation explanation, List<String> lines) {
        if (explanation.premises().isEmpty()) {
            return;
        }
        lines.add("");
        put(Wording.premisesIntro(explanation), "  ", "  ", lines);
        for (Assumption.UnwrittenInitialValue premise : explanation.premises()) {
            put(premise.text(), "    ", "      ", lines);
        }
        put(Wording.premisesAdvice(explanation), "  ", "  ", lines);
    }

    /**
     * Each edge: its arrow, then its reason, aligned after the longest arrow, then the statements
     * behind its operations when they were recorded.
     */
    private void edges(AnomalyCycle cycle, List<TransactionSummary> transactions, String margin, List<String> lines) {
        // Escaped here too: an aligned arrow is the margin of its reason, which put does not escape.
        int width = cycle.edges().stream().mapToInt(e -> Printable.escape(e.arrow()).length()).max().orElse(0);
        // Arrows with long keys would leave no room for the reason: fall back to a line of their own.
        boolean aligned = width <= 40;
        for (Dependency edge : cycle.edges()) {
            String arrow = Printable.escape(edge.arrow());
            String under;
            if (aligned) {
                String first = margin + arrow + " ".repeat(width - arrow.length() + 2);
                under = " ".repeat(first.length());
                put(edge.reason(), first, under, lines);
            } else {
                under = margin + "  ";
                put(arrow, margin, under, lines);
                put(edge.reason(), under, under, lines);
            }
            for (String statement : Wording.edgeStatements(edge, transactions)) {
                put(statement, under, under + "    ", lines);
            }
        }
    }

    private void screened(Explanation.Screened screened, List<String> lines) {
        ReadAnomaly anomaly = screened.anomaly();
        put(anomaly.explanation(), "  ", "  ", lines);
        lines.add("");
        put("the read: " + operation(anomaly.read()), "  ", "      ", lines);
        for (ReadAnomaly.Related related : anomaly.related()) {
            put(related.role() + ": " + operation(related.operation()), "  ", "      ", lines);
        }
        premises(screened, lines);
        transactions(screened.transactions(), lines);
    }

    private static String operation(OperationRef op) {
        return op.transaction() + " operation " + op.index() + ", " + op.text();
    }

    private void transactions(List<TransactionSummary> transactions, List<String> lines) {
        if (transactions.isEmpty()) {
            return;
        }
        lines.add("");
        lines.add(indent + "  Transactions:");
        for (TransactionSummary t : transactions) {
            StringBuilder head = new StringBuilder(t.id());
            t.session().ifPresent(session -> head.append("  session ").append(session));
            Wording.thread(t).ifPresent(thread -> head.append("  ").append(thread));
            if (!t.times().isEmpty()) {
                head.append("  time ").append(t.times());
            }
            if (!t.committed()) {
                head.append("  aborted");
            }
            put(head.toString(), "    ", "      ", lines);
            int digits = Integer.toString(Math.max(0, t.operations().size() - 1)).length();
            for (Wording.StatementGroup group : Wording.groups(t)) {
                // Operations sit under the statement that did them, two columns further in.
                String margin = group.statement().isPresent() ? "          " : "        ";
                group.statement().ifPresent(statement -> put(Wording.statement(statement), "        ", "            ", lines));
                for (OperationRef op : group.operations()) {
                    String number = String.format("%" + digits + "d", op.index());
                    String first = margin + number + "  ";
                    put(op.text(), first, " ".repeat(first.length()), lines);
                }
            }
        }
    }

    /**
     * {@link #wrap} after this renderer's indent. Every text the report shows passes here, so this
     * is where what a history named (ids, keys, sessions, threads, SQL, values) is made
     * {@linkplain Printable#escape printable}: a newline in a key must not start a line of its own.
     */
    private void put(String text, String first, String rest, List<String> lines) {
        wrap(Printable.escape(text), indent + first, indent + rest, lines);
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
            // Cut by offsets, not by taking what is left as a new string each time: a word of
            // megabytes (a transaction id, a key) would be copied once per line, quadratic time.
            int from = 0;
            while (line.length() + word.length() - from > WIDTH && WIDTH - line.length() > 0) {
                int room = WIDTH - line.length();
                line.append(word, from, from + room);
                lines.add(line.toString());
                from += room;
                line = new StringBuilder(rest);
                start = rest.length();
            }
            line.append(word, from, word.length());
        }
        lines.add(line.toString());
    }
}
