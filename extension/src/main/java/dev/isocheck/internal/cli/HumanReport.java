package dev.isocheck.internal.cli;

import dev.isocheck.Anomaly;
import dev.isocheck.internal.text.Printable;

/**
 * The fallback text under a {@code VIOLATION} line when no explanation could be built (the
 * explainer answered {@code Explanation.Unexplained}): what the verdict's {@link Anomaly} carries,
 * its type, the checker's words and the transactions, indented, no colour, stable, readable at 100
 * columns. The checker's words and the ids are {@linkplain Printable#escape escaped}: they name what the
 * history holds. Explained violations are rendered by {@code TextRenderer} instead.
 */
final class HumanReport {

    private HumanReport() {
    }

    static String of(Anomaly anomaly) {
        StringBuilder out = new StringBuilder();
        out.append("  ").append(anomaly.type().shortName()).append(": ").append(anomaly.type().description()).append('\n');
        for (String line : wrap(Printable.escape(anomaly.explanation()), 96)) {
            out.append("  ").append(line).append('\n');
        }
        if (!anomaly.transactions().isEmpty()) {
            out.append("  transactions: ").append(Printable.escape(String.join(", ", anomaly.transactions())));
        } else {
            out.setLength(out.length() - 1);
        }
        return out.toString();
    }

    private static java.util.List<String> wrap(String text, int width) {
        java.util.List<String> lines = new java.util.ArrayList<>();
        for (String paragraph : text.split("\n")) {
            StringBuilder line = new StringBuilder();
            for (String word : paragraph.split(" ")) {
                if (line.length() > 0 && line.length() + 1 + word.length() > width) {
                    lines.add(line.toString());
                    line.setLength(0);
                }
                line.append(line.length() == 0 ? "" : " ").append(word);
            }
            lines.add(line.toString());
        }
        return lines;
    }
}
