package dev.isocheck.internal.explain;

import dev.isocheck.explain.AnomalyCycle;
import dev.isocheck.explain.Assumption;
import dev.isocheck.explain.Explanation;
import dev.isocheck.explain.OperationRef;
import dev.isocheck.explain.ReadAnomaly;
import dev.isocheck.AnomalyType;
import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.graph.ReadAnomalies;
import dev.isocheck.history.History;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.Transaction;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Explains a violation by reasoning over every explanation of a small set of transactions: every
 * order of each key's versions and every choice of which write each read saw (as the reference
 * checker enumerates orders), for at most {@link #maxTransactions()} committed transactions.
 *
 * <ol>
 *   <li>A non-cycle anomaly of the screening (G1a, G1b, INT, thin air, conflicting initial
 *       values), if the history has one: the read, and the writes that could not explain it.</li>
 *   <li>Otherwise the transactions the verdict named (all committed ones when it named none) are the
 *       nodes of an {@link ExplanationSpace}; the length {@code L} of the longest among the
 *       explanations' shortest forbidden cycles is computed (no proof can use shorter cycles: the
 *       explanation that has none shorter may be the database's), then a proof by cases whose
 *       cycles are at most {@code L} long, with as few cases as found ({@link ProofSearch}). One case
 *       without assumptions is a cycle certain in every explanation.</li>
 *   <li>If some explanation of the named transactions has no forbidden cycle, every committed
 *       transaction is tried, within the bound.</li>
 * </ol>
 *
 * <p>Sound by construction: every edge of a reported cycle holds in every explanation its case
 * allows, and the cases cover every explanation ({@link ExplanationSpace} says why restricting to a
 * few transactions keeps this true). What it cannot prove, it answers with
 * {@link Explanation.Unexplained} and the reason: too many transactions, a search past its budget,
 * or a violation that rests on something cycles do not show (unknown initial values that must be
 * one value, rows a predicate read must have returned).
 *
 * <p>Immutable and thread-safe: each call searches with its own state.
 */
public final class ExhaustiveExplainer implements Explainer {

    /** The default bound on the committed transactions reasoned about. */
    public static final int DEFAULT_MAX_TRANSACTIONS = 10;
    /** The default budget: how many sets of explanations the search may look at. */
    public static final long DEFAULT_BUDGET = 2_000_000;
    /** The default bound on the cases of a proof. */
    public static final int DEFAULT_MAX_CASES = 32;

    private final int maxTransactions;
    private final long budget;
    private final int maxCases;

    /** An explainer with the default bounds. */
    public ExhaustiveExplainer() {
        this(DEFAULT_MAX_TRANSACTIONS, DEFAULT_BUDGET, DEFAULT_MAX_CASES);
    }

    /**
     * An explainer with these bounds.
     *
     * @param maxTransactions the most committed transactions to reason about (at most 30)
     * @param budget          how many sets of explanations the search may look at
     * @param maxCases        the most cases a proof may have
     * @throws IllegalArgumentException if a bound is out of range
     */
    public ExhaustiveExplainer(int maxTransactions, long budget, int maxCases) {
        if (maxTransactions < 0 || maxTransactions > 30) {
            throw new IllegalArgumentException("maxTransactions must be between 0 and 30: " + maxTransactions);
        }
        if (budget < 1 || maxCases < 1) {
            throw new IllegalArgumentException("budget and maxCases must be positive: " + budget + ", " + maxCases);
        }
        this.maxTransactions = maxTransactions;
        this.budget = budget;
        this.maxCases = maxCases;
    }

    /** The most committed transactions this explainer reasons about. */
    public int maxTransactions() {
        return maxTransactions;
    }

    @Override
    public Explanation explain(History history, IsolationLevel level, Collection<String> involved) {
        return explain(history, level, involved, Map.of());
    }

    /**
     * Explains one case of a case analysis over reads' sources: as {@link #explain}, over the
     * explanations in which each pinned observation saw its pinned source
     * ({@link ExplanationSpace#of(History, IsolationLevel, int[], Map)}). The proof holds wherever
     * the pins do, and only there. With pins, only the named transactions are tried (never every
     * committed one), so that the pins the proof rests on are among theirs.
     */
    Explanation explain(History history, IsolationLevel level, Collection<String> involved, Map<Integer, Integer> pins) {
        return explain(history, level, involved, pins, OptionalLong.empty());
    }

    /**
     * As {@link #explain(History, IsolationLevel, Collection, Map)}, giving up (as when out of
     * budget) at {@code deadlineNanos} when given (a {@link System#nanoTime()}).
     */
    Explanation explain(History history, IsolationLevel level, Collection<String> involved, Map<Integer, Integer> pins,
            OptionalLong deadlineNanos) {
        Objects.requireNonNull(history, "history is null");
        Objects.requireNonNull(level, "level is null");
        Objects.requireNonNull(involved, "involved is null");
        List<ReadAnomalies.Finding> findings = ReadAnomalies.findings(history);
        if (!findings.isEmpty()) {
            return screened(history, level, pick(findings, involved));
        }
        int[] all = committed(history, Set.of());
        int[] named = involved.isEmpty() ? all : committed(history, Set.copyOf(involved));
        int[] nodes = named.length == 0 ? all : named;
        if (nodes.length > maxTransactions) {
            return new Explanation.Unexplained(level, tooLarge(nodes.length, nodes == all ? "the history has" : "the verdict names"));
        }
        Attempt attempt = attempt(history, level, nodes, pins, deadlineNanos);
        if (attempt.noCycle() && nodes.length < all.length && pins.isEmpty()) {
            // (Never with pins: the case analysis takes a pin as used only where its reader and
            // source are among the named transactions, so a proof over others could rest on a pin
            // it does not state.)
            // The named transactions may not be enough (a verdict may name only some of a cycle's).
            if (all.length > maxTransactions) {
                return new Explanation.Unexplained(level, ((Explanation.Unexplained) attempt.explanation()).reason()
                        + "; the whole history, " + all.length + " committed transactions, is too large to try (at most "
                        + maxTransactions + ")");
            }
            return attempt(history, level, all, pins, deadlineNanos).explanation();
        }
        return attempt.explanation();
    }

    private String tooLarge(int count, String whose) {
        return whose + " " + count + " committed transactions; explanations are searched exhaustively among at most "
                + maxTransactions;
    }

    /** The screening finding about the named transactions, or the first. */
    private static ReadAnomalies.Finding pick(List<ReadAnomalies.Finding> findings, Collection<String> involved) {
        for (ReadAnomalies.Finding finding : findings) {
            if (finding.anomaly().transactions().stream().anyMatch(involved::contains)) {
                return finding;
            }
        }
        return findings.get(0);
    }

    private static int[] committed(History history, Set<String> among) {
        return history.transactions().stream()
                .filter(t -> t.isCommitted() && (among.isEmpty() || among.contains(t.id())))
                .mapToInt(Transaction::index).toArray();
    }

    /**
     * An attempt on one set of nodes.
     *
     * @param explanation what it found
     * @param noCycle     whether it failed because an explanation has no forbidden cycle
     */
    private record Attempt(Explanation explanation, boolean noCycle) {
    }

    private Attempt attempt(History history, IsolationLevel level, int[] nodes, Map<Integer, Integer> pins,
            OptionalLong deadlineNanos) {
        ExplanationSpace space = ExplanationSpace.of(history, level, nodes, pins);
        ProofSearch search = new ProofSearch(space, budget, deadlineNanos);
        int bound = search.worstShortest();
        if (bound == ProofSearch.EXHAUSTED) {
            return new Attempt(new Explanation.Unexplained(level, exhausted(space)), false);
        }
        if (bound == ProofSearch.NO_CYCLE) {
            return new Attempt(new Explanation.Unexplained(level, noCycle(space)), true);
        }
        ProofSearch.Node proof = search.proof(bound, maxCases);
        if (proof == null) {
            return new Attempt(new Explanation.Unexplained(level, search.exhausted() ? exhausted(space)
                    : "every explanation of " + names(space) + " has a forbidden cycle of at most " + bound
                            + " transactions, but the case analysis needs more than " + maxCases + " cases"), false);
        }
        return new Attempt(cycles(space, proof), false);
    }

    private String exhausted(ExplanationSpace space) {
        return "the case analysis over " + names(space) + " was abandoned after looking at " + budget
                + " sets of explanations";
    }

    private static String noCycle(ExplanationSpace space) {
        String why = "no cycle proves it: in some explanation of " + names(space) + " (an order of each key's versions and a"
                + " choice of the write each read saw) the dependencies have no cycle that " + space.level()
                + " forbids. Explanations show cycles; a violation may also rest on reads of an unknown initial value that"
                + " must agree, or on rows a predicate read did not return";
        return space.contradictions().isEmpty() ? why : why + "; here: " + String.join("; ", space.contradictions());
    }

    private static String names(ExplanationSpace space) {
        if (space.size() == 0) {
            return "no committed transaction";
        }
        List<String> ids = new ArrayList<>();
        for (int node = 0; node < space.size(); node++) {
            ids.add(space.history().transaction(space.transaction(node)).id());
        }
        return String.join(", ", ids);
    }

    /** The proof's leaves as cases, each with its cycle and the assumptions it needs. */
    private static Explanation.Cycles cycles(ExplanationSpace space, ProofSearch.Node proof) {
        Narration narration = new Narration(space);
        List<Explanation.Case> cases = new ArrayList<>();
        Set<String> involved = new LinkedHashSet<>();
        for (ProofSearch.Leaf leaf : proof.leafList()) {
            CertainGraph.Found found = CertainGraph.of(space, leaf.facts()).best(leaf.length());
            if (found == null) {
                throw new IllegalStateException("a leaf with a cycle of " + leaf.length() + " edges has none");
            }
            List<ProofSearch.Choice> needed = needed(space, leaf.path(), found);
            Facts facts = space.unconstrained();
            List<Assumption> assuming = new ArrayList<>();
            for (ProofSearch.Choice choice : needed) {
                assuming.add(narration.assumption(choice, facts));
                facts = choice.apply(space, facts);
            }
            AnomalyCycle cycle = narration.cycle(found, facts, needed);
            involved.addAll(cycle.transactions());
            cases.add(new Explanation.Case(assuming, cycle));
        }
        // Cases needing fewer assumptions first: they read as lemmas ("if T2's version came first, a
        // cycle forms; so T1's came first") before the case they leave.
        cases.sort(Comparator.comparingInt(c -> c.assuming().size()));
        return new Explanation.Cycles(space.level(), cases, Narration.summaries(space.history(), involved),
                narration.premises());
    }

    /**
     * The choices of {@code path} that the cycle needs: dropping the others (earliest first) keeps
     * every edge of the cycle certain. A case then assumes less; the cases still cover every
     * explanation, since each only grew.
     */
    private static List<ProofSearch.Choice> needed(ExplanationSpace space, List<ProofSearch.Choice> path,
            CertainGraph.Found found) {
        List<ProofSearch.Choice> kept = new ArrayList<>(path);
        for (int i = 0; i < kept.size(); ) {
            List<ProofSearch.Choice> without = new ArrayList<>(kept);
            without.remove(i);
            if (holds(space, without, found)) {
                kept = without;
            } else {
                i++;
            }
        }
        return kept;
    }

    private static boolean holds(ExplanationSpace space, List<ProofSearch.Choice> choices, CertainGraph.Found found) {
        Facts facts = space.unconstrained();
        for (ProofSearch.Choice choice : choices) {
            facts = choice.apply(space, facts);
        }
        CertainGraph graph = CertainGraph.of(space, facts);
        int n = found.nodes().length;
        for (int i = 0; i < n; i++) {
            if ((graph.successors(found.types()[i], found.nodes()[i]) & (1 << found.nodes()[(i + 1) % n])) == 0) {
                return false;
            }
        }
        return true;
    }

    private static Explanation.Screened screened(History history, IsolationLevel level, ReadAnomalies.Finding finding) {
        ReadAnomalies.Place place = finding.read();
        Transaction reader = history.transaction(place.transaction());
        OperationRef read = Narration.operation(history, reader, place.operation(), place.row());
        AnomalyType type = finding.anomaly().type();
        List<ReadAnomaly.Related> related = new ArrayList<>();
        for (ReadAnomalies.Place other : finding.related()) {
            Transaction t = history.transaction(other.transaction());
            related.add(new ReadAnomaly.Related(Narration.operation(history, t, other.operation(), other.row()),
                    role(type, reader, t, other.operation())));
        }
        ReadAnomaly anomaly = new ReadAnomaly(type, read, related, finding.anomaly().explanation());
        Set<String> ids = new LinkedHashSet<>(finding.anomaly().transactions());
        related.forEach(r -> ids.add(r.operation().transaction()));
        // A read that no installed write explains is not of the initial value either only because
        // unknown initial values are read as unwritten (G1a, G1b and thin air of an unlisted key).
        List<Assumption.UnwrittenInitialValue> premises = switch (type) {
            case G1A, G1B, THIN_AIR -> UnwrittenPremises.of(history, reader, place.operation(), place.row()).stream().toList();
            default -> List.of();
        };
        return new Explanation.Screened(level, anomaly, Narration.summaries(history, ids), premises);
    }

    private static String role(AnomalyType type, Transaction reader, Transaction writer, int op) {
        return switch (type) {
            case INTERNAL -> writer.kind(op) == OpKind.WRITE ? "the transaction's own earlier write"
                    : "the transaction's earlier read";
            case INITIAL_VALUE_CONFLICT -> "another read of the same unknown initial value";
            default -> writer.index() == reader.index() ? "the reader's own write, which comes later"
                    : !writer.isCommitted() ? "a write of a transaction that aborted"
                    : "a write its transaction overwrote before committing";
        };
    }

    @Override
    public String toString() {
        return "ExhaustiveExplainer(at most " + maxTransactions + " transactions, " + budget + " steps, "
                + maxCases + " cases)";
    }
}
