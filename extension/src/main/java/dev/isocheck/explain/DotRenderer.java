package dev.isocheck.explain;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import org.apiguardian.api.API;

/**
 * Renders the cycles of an {@link Explanation} as a Graphviz DOT digraph: one node per transaction
 * (id, session, times), one edge per dependency labelled with its type and key (and the predicate,
 * when it rests on a row a predicate read did not return), the justification as the edge's tooltip. A case analysis gets one cluster per case, titled with its assumptions.
 * Explanations without cycles give a graph with the headline as its label only. The label also
 * lists the explanation's {@link Explanation#premises() premises}, when it has any.
 *
 * <p>Edges are coloured by type (ww blue, wr green, rw red, predicate rw purple, session and real
 * time grey); edges that hold only under the case's assumptions are dashed.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class DotRenderer {

    /** Renders {@code explanation} as a DOT digraph, ending with a newline. */
    public String render(Explanation explanation) {
        StringBuilder out = new StringBuilder("digraph explanation {\n");
        String label = Wording.headline(explanation);
        if (!explanation.premises().isEmpty()) {
            label += "\n" + Wording.premisesIntro(explanation);
            for (Assumption.UnwrittenInitialValue premise : explanation.premises()) {
                label += "\n" + premise.text();
            }
        }
        if (explanation instanceof Explanation.LikelyCase likely) {
            label += "\n" + Wording.likelyIntro(likely);
        }
        out.append("  label=").append(quote(label)).append(";\n");
        out.append("  labelloc=t;\n  fontname=\"Helvetica\";\n");
        out.append("  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n");
        out.append("  edge [fontname=\"Helvetica\"];\n");
        Explanation.Cycles drawn = explanation instanceof Explanation.LikelyCase likely ? Wording.withinLikely(likely)
                : explanation instanceof Explanation.Cycles cycles ? cycles : null;
        if (drawn != null) {
            Explanation.Cycles cycles = drawn;
            if (cycles.isCertain()) {
                cycle(cycles, cycles.cases().get(0).cycle(), "", "  ", out);
            } else {
                for (int i = 0; i < cycles.cases().size(); i++) {
                    out.append("  subgraph cluster_").append(i + 1).append(" {\n");
                    out.append("    label=").append(quote(Wording.caseTitle(cycles, i))).append(";\n");
                    cycle(cycles, cycles.cases().get(i).cycle(), "case" + (i + 1) + ":", "    ", out);
                    out.append("  }\n");
                }
            }
        }
        return out.append("}\n").toString();
    }

    private static void cycle(Explanation.Cycles cycles, AnomalyCycle cycle, String prefix, String indent, StringBuilder out) {
        for (String id : cycle.transactions()) {
            out.append(indent).append(quote(prefix + id)).append(" [label=").append(quote(nodeLabel(cycles.transactions(), id)))
                    .append("];\n");
        }
        for (Dependency edge : cycle.edges()) {
            out.append(indent).append(quote(prefix + edge.from())).append(" -> ").append(quote(prefix + edge.to()))
                    .append(" [label=").append(quote(Wording.edgeLabel(edge)))
                    .append(", color=").append(quote(color(edge.type()))).append(", fontcolor=").append(quote(color(edge.type())))
                    .append(edge.assumed() || edge.type().isOrder() ? ", style=dashed" : "")
                    .append(", tooltip=").append(quote(edge.reason())).append("];\n");
        }
    }

    private static String nodeLabel(List<TransactionSummary> transactions, String id) {
        for (TransactionSummary t : transactions) {
            if (t.id().equals(id)) {
                return id + t.session().map(session -> "\nsession " + session).orElse("")
                        + (t.times().isEmpty() ? "" : "\ntime " + t.times());
            }
        }
        return id;
    }

    /** The colour of an edge type, shared with the HTML diagram. */
    static String color(DependencyType type) {
        return switch (type) {
            case WRITE_WRITE -> "#1f5fbf";
            case WRITE_READ -> "#1e8a3a";
            case READ_WRITE -> "#c62828";
            case PREDICATE_READ_WRITE -> "#7b3fa0";
            case SESSION, REAL_TIME -> "#666666";
        };
    }

    /** A DOT string literal: quotes and backslashes escaped, line breaks as DOT's {@code \n}. */
    static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> { }
                default -> out.append(c);
            }
        }
        return out.append('"').toString();
    }
}
