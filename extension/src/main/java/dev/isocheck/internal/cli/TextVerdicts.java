package dev.isocheck.internal.cli;

import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.explain.Explanation;
import dev.isocheck.explain.TextRenderer;
import dev.isocheck.internal.text.Printable;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A history's result as text: one line beginning with the history's name, then what explains it,
 * indented, so that only verdict lines begin at the first column. Every name from the history or
 * the file system is {@linkplain Printable#escape escaped}, so no name can end a line and forge
 * the next (the explanation is escaped by {@link TextRenderer}).
 */
final class TextVerdicts {

    private TextVerdicts() {
    }

    /** The verdict of a history checked, the classification under it with {@code --classify}, and the report's line. */
    static String checked(HistorySource history, Outcome.Checked checked, Optional<Path> report) {
        StringBuilder out = new StringBuilder(verdict(Printable.escape(history.name()), checked.result().verdict(),
                checked.result().explanation().orElse(null)));
        if (checked.classification() != null) {
            out.append("\n  ").append(checked.classification().line());
        }
        report.ifPresent(page -> out.append("\n  report: ").append(Printable.escape(page.toString())));
        return out.toString();
    }

    /** A history given up at the time limit: {@code UNKNOWN}, never a pass. */
    static String abandoned(HistorySource history, Outcome.Abandoned abandoned, boolean classify) {
        return unknown(Printable.escape(history.name()), abandoned.reason(), abandoned.level())
                + (classify ? "\n  weakest level violated: not decided (" + abandoned.level().cliName() + " was not)" : "");
    }

    private static String verdict(String name, Verdict verdict, Explanation explanation) {
        if (verdict instanceof Verdict.Violated v) {
            if (explanation instanceof Explanation.Unexplained unexplained) {
                // The engine's own words, and why no cycle can be shown.
                return name + ": VIOLATION " + v.anomaly().type().shortName() + "\n" + HumanReport.of(v.anomaly())
                        + "\n" + new TextRenderer("  ").render(unexplained).stripTrailing();
            }
            return name + ": VIOLATION " + Printable.escape(anomalyName(explanation)) + "\n"
                    + new TextRenderer("  ").render(explanation).stripTrailing();
        }
        if (verdict instanceof Verdict.Unknown u) {
            return unknown(name, u.reason(), u.level());
        }
        List<String> caveats = ((Verdict.Satisfied) verdict).caveats();
        StringBuilder ok = new StringBuilder(name + (caveats.isEmpty() ? ": OK" : ": OK (with caveats)"));
        for (String caveat : caveats) {
            ok.append("\n  not checked: ").append(Printable.escape(caveat));
        }
        return ok.toString();
    }

    private static String unknown(String name, String reason, IsolationLevel level) {
        return name + ": UNKNOWN " + Printable.escape(reason) + "\n  not decided: whether the history is " + level.cliName()
                + " (UNKNOWN is not a pass)";
    }

    /** The explanation's anomaly, with its familiar name: {@code G2-item (write skew)}. */
    private static String anomalyName(Explanation explanation) {
        if (explanation instanceof Explanation.Cycles cycles) {
            return cycles.anomaly() + cycles.familiarName().map(f -> " (" + f + ")").orElse("");
        }
        if (explanation instanceof Explanation.LikelyCase likely) {
            return anomalyName(likely.shown());
        }
        return ((Explanation.Screened) explanation).anomaly().type().shortName();
    }
}
