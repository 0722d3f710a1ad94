package dev.isocheck.explain;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.isocheck.IsolationLevel;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What the explanation of a verdict found: a non-cycle anomaly ({@link Screened}), cycles of dependencies
 * that the level forbids ({@link Cycles}), the cycle of the likeliest of many cases when a proof over
 * all of them is too large to show ({@link LikelyCase}), or nothing it can show ({@link Unexplained},
 * with the reason: never a wrong explanation instead).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public sealed interface Explanation
        permits Explanation.Screened, Explanation.Cycles, Explanation.LikelyCase, Explanation.Unexplained {

    /** The level the history was checked at. */
    IsolationLevel level();

    /**
     * The transactions the explanation involves, in history order.
     *
     * @return never {@code null}; empty for {@link Unexplained}
     */
    List<TransactionSummary> transactions();

    /**
     * What the explanation takes from how the history reads initial values it does not list,
     * rather than from its operations: reads taken not to have seen their key's unknown initial
     * value because, by default ({@code "unknown": "unwritten"}), that value is one no transaction
     * writes. Empty when the conclusion rests on the operations alone (and always with a complete
     * initial state, listed initial values, or {@code "unknown": "any"}). Stating the initial state
     * instead removes them, and may remove the violation.
     *
     * @return never {@code null}; in history order
     */
    default List<Assumption.UnwrittenInitialValue> premises() {
        return List.of();
    }

    /**
     * A non-cycle anomaly: every level forbids it, and one read shows it.
     *
     * @param level        the level checked
     * @param anomaly      the read and why nothing explains it
     * @param transactions the reader and the writers involved
     * @param premises     the read, when only the default reading of unknown initial values keeps
     *                     it from being of the initial value ({@link Explanation#premises()})
     */
    record Screened(IsolationLevel level, ReadAnomaly anomaly, List<TransactionSummary> transactions,
            List<Assumption.UnwrittenInitialValue> premises) implements Explanation {
        /** Validates and copies. */
        public Screened {
            Objects.requireNonNull(level, "level is null");
            Objects.requireNonNull(anomaly, "anomaly is null");
            transactions = List.copyOf(transactions);
            premises = List.copyOf(premises);
        }

        /** A non-cycle anomaly that rests on the history's operations alone. */
        public Screened(IsolationLevel level, ReadAnomaly anomaly, List<TransactionSummary> transactions) {
            this(level, anomaly, transactions, List.of());
        }
    }

    /**
     * Proof by cycles: in every way the database could have ordered the writes and chosen which
     * write each read saw, one of the cases' assumptions holds, and then its cycle exists, which
     * the level forbids. A single case without assumptions is a cycle certain in every explanation.
     *
     * @param level        the level checked
     * @param cases        the cases, each with its assumptions and its cycle; at least one
     * @param transactions every transaction on a cycle
     * @param premises     the reads whose edges hold only because of the default reading of unknown
     *                     initial values ({@link Explanation#premises()})
     */
    record Cycles(IsolationLevel level, List<Case> cases, List<TransactionSummary> transactions,
            List<Assumption.UnwrittenInitialValue> premises) implements Explanation {
        /**
         * Validates and copies.
         *
         * @throws IllegalArgumentException if there is no case
         */
        public Cycles {
            Objects.requireNonNull(level, "level is null");
            cases = List.copyOf(cases);
            if (cases.isEmpty()) {
                throw new IllegalArgumentException("a proof by cycles needs at least one case");
            }
            transactions = List.copyOf(transactions);
            premises = List.copyOf(premises);
        }

        /**
         * A proof by cycles that rests on the history's operations alone.
         *
         * @throws IllegalArgumentException if there is no case
         */
        public Cycles(IsolationLevel level, List<Case> cases, List<TransactionSummary> transactions) {
            this(level, cases, transactions, List.of());
        }

        /** Whether one cycle exists whatever the database chose: no case analysis. */
        public boolean isCertain() {
            return cases.size() == 1 && cases.get(0).assuming().isEmpty();
        }

        /**
         * The anomaly's name: the one cycle's, or for a case analysis the least severe of the cases'
         * (in the order of {@link dev.isocheck.AnomalyType}'s cycle kinds: each case's cycle is of that
         * type or a more severe one, so the history certainly shows at least that), e.g.
         * {@code G-single}.
         */
        public String anomaly() {
            return leastSevere().anomaly();
        }

        /** The type of the cycle {@link #anomaly()} names, without Elle's suffix: {@code G-single}, {@code G2-item}. */
        public dev.isocheck.AnomalyType anomalyType() {
            return leastSevere().type();
        }

        /** The familiar name of the cycle {@link #anomaly()} names, if it has one. */
        public Optional<String> familiarName() {
            return leastSevere().familiarName();
        }

        /** The length of the longest cycle among the cases: what the proof needs at worst. */
        public int longest() {
            return cases.stream().mapToInt(c -> c.cycle().length()).max().orElseThrow();
        }

        private AnomalyCycle leastSevere() {
            return cases.stream().map(Case::cycle)
                    .max(Comparator.comparing(AnomalyCycle::type).thenComparing(AnomalyCycle::anomaly)).orElseThrow();
        }
    }

    /**
     * The violation shown in its likeliest case, when duplicate values leave open which write
     * several reads saw and a proof covering every choice would need more cases or transactions
     * than the explainer reasons about. {@code assuming} says which write each of those reads saw
     * in the case shown (the latest write of the value read that committed before the reader
     * started, where the history has times); under those assumptions a forbidden cycle forms
     * whatever else the database chose: {@code cases} cover every order of versions and every
     * other read's source, as a {@link Cycles} proof does, and each case's assumptions begin with
     * {@code assuming}. The other choices of those reads' writes are not shown, but the verdict
     * covers them: the checker found that no choice explains the history at the level.
     *
     * @param level        the level checked
     * @param assuming     which write each read saw in the case shown; at least one
     * @param cases        the case shown, split where it still depends on version orders or on
     *                     other reads; each begins with {@code assuming}
     * @param transactions every transaction on a cycle
     * @param premises     as for {@link Cycles#premises()}
     * @param unshown      why the other choices are not shown, in words
     */
    record LikelyCase(IsolationLevel level, List<Assumption.ReadFrom> assuming, List<Case> cases,
            List<TransactionSummary> transactions, List<Assumption.UnwrittenInitialValue> premises, String unshown)
            implements Explanation {
        /**
         * Validates and copies.
         *
         * @throws IllegalArgumentException if there is no assumption or no case, or a case does
         *                                  not begin with the assumptions
         */
        public LikelyCase {
            Objects.requireNonNull(level, "level is null");
            assuming = List.copyOf(assuming);
            cases = List.copyOf(cases);
            if (assuming.isEmpty() || cases.isEmpty()) {
                throw new IllegalArgumentException("a likely case needs an assumption and a case");
            }
            for (Case c : cases) {
                if (c.assuming().size() < assuming.size() || !c.assuming().subList(0, assuming.size()).equals(assuming)) {
                    throw new IllegalArgumentException("a case of a likely case must begin with its assumptions: " + c);
                }
            }
            transactions = List.copyOf(transactions);
            premises = List.copyOf(premises);
            Objects.requireNonNull(unshown, "unshown is null");
        }

        /** The anomaly's name, as {@link Cycles#anomaly()} gives it for the cases shown. */
        public String anomaly() {
            return shown().anomaly();
        }

        /** The type of the cycle {@link #anomaly()} names. */
        public dev.isocheck.AnomalyType anomalyType() {
            return shown().anomalyType();
        }

        /** The familiar name of the cycle {@link #anomaly()} names, if it has one. */
        public Optional<String> familiarName() {
            return shown().familiarName();
        }

        /** The length of the longest cycle among the cases shown. */
        public int longest() {
            return shown().longest();
        }

        /**
         * The cases shown as a {@link Cycles}, for rendering them as one: it proves the violation
         * only where {@link #assuming()} holds.
         */
        public Cycles shown() {
            return new Cycles(level, cases, transactions, premises);
        }
    }

    /**
     * One case of a proof by cycles.
     *
     * @param assuming what the case assumes (the conditions that hold in it); empty for a cycle that
     *                 needs no assumption
     * @param cycle    the cycle that exists whenever the assumptions hold
     */
    record Case(List<Assumption> assuming, AnomalyCycle cycle) {
        /** Validates and copies. */
        public Case {
            assuming = List.copyOf(assuming);
            Objects.requireNonNull(cycle, "cycle is null");
        }
    }

    /**
     * No explanation could be given, and why: the history may satisfy the level, its violation may
     * rest on something cycles do not show, or the search for a case analysis went past its
     * bounds.
     *
     * @param level  the level checked
     * @param reason why, in words
     */
    record Unexplained(IsolationLevel level, String reason) implements Explanation {
        /** Validates. */
        public Unexplained {
            Objects.requireNonNull(level, "level is null");
            Objects.requireNonNull(reason, "reason is null");
        }

        @Override
        public List<TransactionSummary> transactions() {
            return List.of();
        }
    }
}
