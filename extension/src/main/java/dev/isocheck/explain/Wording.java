package dev.isocheck.explain;

import dev.isocheck.IsolationLevel;
import dev.isocheck.history.SqlStatement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The sentences every renderer shares, so that the text report, the HTML page and the DOT labels
 * say the same thing in the same words.
 */
final class Wording {

    private Wording() {
    }

    /** The first line: what was found, at which level. */
    static String headline(Explanation explanation) {
        String level = explanation.level().cliName();
        if (explanation instanceof Explanation.Screened s) {
            return s.anomaly().type().shortName() + " (" + s.anomaly().familiarName().map(f -> f + ", ").orElse("")
                    + s.anomaly().type().description() + ") at " + level;
        }
        if (explanation instanceof Explanation.Cycles c) {
            return name(c) + " at " + level + ": " + (c.isCertain()
                    ? "a cycle of " + c.cases().get(0).cycle().length() + " transactions"
                    : c.cases().size() + " cases, a cycle of at most " + c.longest() + " transactions in each");
        }
        if (explanation instanceof Explanation.LikelyCase l) {
            return name(l.shown()) + " at " + level + ": " + (l.cases().size() == 1
                    ? "a cycle of " + l.cases().get(0).cycle().length() + " transactions"
                    : l.cases().size() + " cases, a cycle of at most " + l.longest() + " transactions in each")
                    + ", in the likeliest case";
        }
        return "no explanation at " + level;
    }

    /** The sentences before the likeliest case: what it assumes, and why it is the one shown. */
    static String likelyIntro(Explanation.LikelyCase likely) {
        List<String> texts = new ArrayList<>();
        likely.assuming().forEach(a -> texts.add(a.text()));
        return "Several transactions wrote the values some reads saw, so which write each saw is not certain. In the"
                + " likeliest case (each read saw the last write of its value before its transaction started, where there is"
                + " one: by the recorded times, or by the order of the history without them)"
                + " " + String.join(", and ", texts) + "; then a forbidden cycle forms"
                + (likely.cases().size() == 1 ? ":" : ", whatever else the database chose:");
    }

    /**
     * The likeliest case's cases without the assumptions they all begin with (the introduction
     * states those once), for rendering: as a proof it holds only where those assumptions do.
     */
    static Explanation.Cycles withinLikely(Explanation.LikelyCase likely) {
        int common = likely.assuming().size();
        List<Explanation.Case> cases = new ArrayList<>();
        for (Explanation.Case c : likely.cases()) {
            cases.add(new Explanation.Case(c.assuming().subList(common, c.assuming().size()), c.cycle()));
        }
        return new Explanation.Cycles(likely.level(), cases, likely.transactions(), likely.premises());
    }

    /** The sentence after the likeliest case: the other cases, and why they are not shown. */
    static String likelyUnshown(Explanation.LikelyCase likely) {
        return "Every other choice of the writes those reads saw forms a forbidden cycle too: the checker found that no"
                + " choice explains the history at " + likely.level().cliName() + ". They are not shown: "
                + likely.unshown() + ".";
    }

    /** The anomaly with its description and familiar name: {@code G2-item (write skew)}. */
    static String name(Explanation.Cycles cycles) {
        return cycles.anomaly() + cycles.familiarName().map(f -> " (" + f + ")").orElse("");
    }

    /** A cycle's name: {@code G-single (lost update)}, or with the type's description when it has no familiar name. */
    static String name(AnomalyCycle cycle) {
        return cycle.anomaly() + " (" + cycle.familiarName().orElse(cycle.type().description()) + ")";
    }

    /**
     * The sentence before a case analysis: "Whichever of T3 and T5 installed x first, a cycle forms"
     * when the cases are the two orders of one pair of versions, else a general one.
     */
    static String casesIntro(Explanation.Cycles cycles) {
        Optional<String> whichever = whichever(cycles);
        return whichever.orElse("No single cycle is certain: it depends on the order the database installed some"
                + " versions in, or on which of several equal writes a read saw. Every possibility falls under one of"
                + " these cases, and each closes a cycle:");
    }

    private static Optional<String> whichever(Explanation.Cycles cycles) {
        if (cycles.cases().size() != 2) {
            return Optional.empty();
        }
        List<Assumption> first = cycles.cases().get(0).assuming();
        List<Assumption> second = cycles.cases().get(1).assuming();
        if (first.size() != 1 || second.size() != 1 || !(first.get(0) instanceof Assumption.VersionOrder a)
                || !(second.get(0) instanceof Assumption.VersionOrder b)) {
            return Optional.empty();
        }
        if (!a.key().equals(b.key()) || !a.earlier().equals(b.later()) || !a.later().equals(b.earlier())) {
            return Optional.empty();
        }
        return Optional.of("Whichever of " + a.earlier() + " and " + a.later() + " installed " + a.key()
                + " first, a cycle forms:");
    }

    /** A case's title: {@code Case 2 of 3, if T3's x = 3 was installed before T1's x = 1:}. */
    static String caseTitle(Explanation.Cycles cycles, int index) {
        Explanation.Case c = cycles.cases().get(index);
        List<String> texts = new ArrayList<>();
        c.assuming().forEach(a -> texts.add(a.text()));
        return "Case " + (index + 1) + " of " + cycles.cases().size()
                + (texts.isEmpty() ? ":" : ", if " + String.join(", and ", texts) + ":");
    }

    /**
     * The sentence before an explanation's {@link Explanation#premises() premises}: "This rests on
     * flag's unknown initial value being one no transaction writes:".
     */
    static String premisesIntro(Explanation explanation) {
        List<String> keys = premiseKeys(explanation);
        return keys.size() == 1
                ? "This rests on " + keys.get(0) + "'s unknown initial value being one no transaction writes:"
                : "This rests on the unknown initial values of " + and(keys) + " being ones no transaction writes:";
    }

    /** After the premises: why the history's initial state is read so, and how to state it instead. */
    static String premisesAdvice(Explanation explanation) {
        List<String> listed = new ArrayList<>();
        premiseKeys(explanation).forEach(key -> listed.add(quote(key) + ": ..."));
        return "By default (\"unknown\": \"unwritten\") an initial value the history does not list is one no"
                + " transaction writes. If the database may have held such a value before the history began (rows"
                + " that existed already, a flag set and cleared again), state the initial state instead: list the"
                + " initial values in the init line ({\"init\": {" + String.join(", ", listed) + "}}), or declare"
                + " that unlisted ones may be any value ({\"init\": {}, \"unknown\": \"any\"}).";
    }

    private static List<String> premiseKeys(Explanation explanation) {
        return explanation.premises().stream().map(Assumption.UnwrittenInitialValue::key).distinct().toList();
    }

    /** "a", "a and b", "a, b and c". */
    private static String and(List<String> words) {
        return words.size() == 1 ? words.get(0)
                : String.join(", ", words.subList(0, words.size() - 1)) + " and " + words.get(words.size() - 1);
    }

    /** A key as a JSON string. */
    private static String quote(String key) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : key.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\');
            }
            out.append(c);
        }
        return out.append('"').toString();
    }

    /** Why the level forbids a cycle, after its edges. */
    static String conclusion(IsolationLevel level) {
        return switch (level) {
            case SERIALIZABLE -> "A serializable order would put each transaction before the next one around the"
                    + " cycle, and so the last before the first: no order can.";
            case STRICT_SERIALIZABLE -> "A strictly serializable order (which also respects real time) would put each"
                    + " transaction before the next one around the cycle, and so the last before the first: no order can.";
            case SNAPSHOT_ISOLATION -> "Snapshot isolation allows a cycle only when two read-write edges follow each"
                    + " other somewhere (two transactions each missing the other's write, as in write skew); this one"
                    + " has none adjacent, so no commit order with snapshots explains it.";
            case PREFIX -> "Under prefix consistency each transaction reads from a snapshot taken before it"
                    + " commits, and its snapshot holds every commit before it: each transaction above is split into"
                    + " its snapshot (its reads) and its commit (its writes), each edge puts one point before the"
                    + " next, and so around the cycle the last before the first: no commit order with snapshots can.";
            case CAUSAL, READ_ATOMIC, READ_COMMITTED -> "The commit order would put each transaction before the next"
                    + " one around the cycle, and so the last before the first: no order can. Its write-write edges are"
                    + " the ones the level forces: a transaction read a key from one writer after another writer of"
                    + " that key was visible to it, so that other writer's version must come first.";
        };
    }

    /** A statement as reports show it: {@code DoctorDao.goOffCall: UPDATE doctors SET on_call = ? WHERE name = ?  [false, alice]}. */
    static String statement(SqlStatement statement) {
        return statement.name().map(n -> n + ": ").orElse("") + statement;
    }

    /**
     * A transaction's operations under the statements that did them, in program order: a new
     * group wherever the statement changes, statements that did no operation where they were
     * sent. A transaction without statements is one group without a statement, as reports listed
     * operations before statements were recorded.
     */
    static List<StatementGroup> groups(TransactionSummary t) {
        List<StatementGroup> groups = new ArrayList<>();
        List<SqlStatement> statements = t.statements();
        if (statements.isEmpty()) {
            groups.add(new StatementGroup(Optional.empty(), t.operations()));
            return groups;
        }
        boolean[] shown = new boolean[statements.size()];
        List<OperationRef> current = null;
        int currentStatement = -2;
        for (OperationRef op : t.operations()) {
            int s = op.statement().orElse(-1);
            if (current == null || s != currentStatement) {
                // Statements sent before this one that did nothing come first, where they were sent.
                for (int k = 0; k < s; k++) {
                    if (!shown[k]) {
                        shown[k] = true;
                        groups.add(new StatementGroup(Optional.of(statements.get(k)), List.of()));
                    }
                }
                current = new ArrayList<>();
                groups.add(new StatementGroup(s < 0 ? Optional.empty() : Optional.of(statements.get(s)), current));
                if (s >= 0) {
                    shown[s] = true;
                }
                currentStatement = s;
            }
            current.add(op);
        }
        for (int k = 0; k < statements.size(); k++) {
            if (!shown[k]) {
                groups.add(new StatementGroup(Optional.of(statements.get(k)), List.of()));
            }
        }
        return groups;
    }

    /**
     * The longest predicate an edge's label quotes whole: a label sits on the drawing, and the
     * edge's tooltip has the whole sentence.
     */
    private static final int LABEL_WHERE = 40;

    /**
     * An edge's label in drawings: type and key, {@code rw x}, and the predicate of the row a
     * predicate read did not return, {@code predicate-rw t/2 (where v = 20)}.
     */
    static String edgeLabel(Dependency edge) {
        String label = edge.type().shortName() + edge.key().map(k -> " " + k).orElse("");
        return label + edge.unreturnedRow().map(row -> " (where " + cut(row.where(), LABEL_WHERE) + ")").orElse("");
    }

    /** {@code text} cut at {@code limit} code points, with {@code …} where it was cut. */
    private static String cut(String text, int limit) {
        return text.codePointCount(0, text.length()) <= limit ? text : text.substring(0, text.offsetByCodePoints(0, limit)) + "…";
    }

    /**
     * The statements behind an edge's operations, each once, with the transaction that sent it:
     * {@code T1: SELECT on_call FROM doctors WHERE name = ?  [bob]}. For a row a predicate read
     * did not return, also the write of the version it saw, when a third transaction installed it.
     */
    static List<String> edgeStatements(Dependency edge, List<TransactionSummary> transactions) {
        Set<String> lines = new LinkedHashSet<>();
        List<OperationRef> seen = edge.unreturnedRow().flatMap(UnreturnedRow::saw).flatMap(UnreturnedRow.Version::write)
                .map(List::of).orElse(List.of());
        for (List<OperationRef> ops : List.of(edge.fromOperations(), edge.toOperations(), seen)) {
            for (OperationRef op : ops) {
                if (op.statement().isEmpty()) {
                    continue;
                }
                for (TransactionSummary t : transactions) {
                    if (t.id().equals(op.transaction()) && op.statement().getAsInt() < t.statements().size()) {
                        lines.add(t.id() + ": " + statement(t.statements().get(op.statement().getAsInt())));
                    }
                }
            }
        }
        return List.copyOf(lines);
    }

    /** The thread and connection of a recorded transaction, as the transactions' heading shows them. */
    static Optional<String> thread(TransactionSummary t) {
        return t.thread().map(thread -> "thread " + thread);
    }

    /**
     * Operations done by one statement, or by none.
     *
     * @param statement  the statement, or empty for operations without one
     * @param operations the operations, in program order; empty for a statement that did none
     */
    record StatementGroup(Optional<SqlStatement> statement, List<OperationRef> operations) {
    }
}
