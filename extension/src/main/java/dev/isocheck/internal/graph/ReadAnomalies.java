package dev.isocheck.internal.graph;

import dev.isocheck.Anomaly;
import dev.isocheck.AnomalyType;
import dev.isocheck.history.History;
import dev.isocheck.history.InitialState;
import dev.isocheck.history.KeyIndex;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.PredicateRead;
import dev.isocheck.history.Transaction;
import dev.isocheck.internal.predicate.Truth;
import dev.isocheck.internal.predicate.WherePredicate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The read screening: the anomalies a history shows without any search over orders, as
 * {@code docs/semantics.md} defines them.
 *
 * <ul>
 *   <li>{@link AnomalyType#G1A}: an observation with no explanation that an aborted transaction
 *       wrote;</li>
 *   <li>{@link AnomalyType#G1B}: one with no explanation that a committed transaction wrote and
 *       then overwrote;</li>
 *   <li>{@link AnomalyType#THIN_AIR}: one with no explanation at all (or that only the reader
 *       itself writes, later);</li>
 *   <li>{@link AnomalyType#INTERNAL}: an internal read (an item read, or a row a predicate read
 *       returned) that contradicts the transaction's own latest write, or its earlier reads of a
 *       key it has not written (either kind); a predicate read that leaves out
 *       a row whose own latest write its clause selects, or returns one whose own write it does not;</li>
 *   <li>{@link AnomalyType#INITIAL_VALUE_CONFLICT}: two observations that only one key's unknown
 *       initial value explains, and that no single value can be consistent with.</li>
 * </ul>
 *
 * <p>With {@code "unknown": "any"} ({@link dev.isocheck.history.UnknownInitialValues#ANY}) the
 * initial value of a key the history does not list may be any value, so every observation of such
 * a key is explained and none is a G1a, G1b or thin air; reads that only that initial value
 * explains must still agree, and INT is unchanged.
 *
 * <p>Each anomaly names the reader first, then the writers involved, and says which operation
 * showed it. Every one is a violation of every level isocheck checks, so screening never raises a
 * false alarm for a correct database.
 */
public final class ReadAnomalies {

    private ReadAnomalies() {
    }

    /**
     * Where an operation is: a transaction (by index), one of its operations, and for a predicate
     * read the returned row ({@code -1} for an item read or a write).
     *
     * @param transaction the transaction's index in its history
     * @param operation   the operation's index in the transaction
     * @param row         the returned row of a predicate read, or {@code -1}
     */
    public record Place(int transaction, int operation, int row) {
    }

    /**
     * A screening anomaly with the operations that show it, for reports that point at them
     * ({@code dev.isocheck.explain}).
     *
     * @param anomaly what {@link #find(History)} reports
     * @param read    the read that shows the anomaly
     * @param related the other operations involved: for {@link AnomalyType#G1A}, {@link AnomalyType#G1B}
     *                and {@link AnomalyType#THIN_AIR}, every write whose value the read is consistent
     *                with (aborted, overwritten within its transaction, or the reader's own later
     *                write; none for thin air from nowhere); for {@link AnomalyType#INTERNAL}, the
     *                transaction's earlier write or read that the read contradicts; for
     *                {@link AnomalyType#INITIAL_VALUE_CONFLICT}, the earlier observation of the
     *                initial value it cannot agree with
     */
    public record Finding(Anomaly anomaly, Place read, List<Place> related) {
        /** Copies. */
        public Finding {
            related = List.copyOf(related);
        }
    }

    /**
     * Every screening anomaly of {@code history}, ordered by transaction index, then operation,
     * then returned row.
     *
     * @return never {@code null}; empty when the screening finds nothing
     */
    public static List<Anomaly> find(History history) {
        return find(ReadExplanations.of(history));
    }

    /**
     * Every screening anomaly of the history that {@code explanations} were built for, in the
     * order of {@link #find(History)}; lets a checker that needs the explanations anyway build
     * them once.
     *
     * @return never {@code null}
     */
    public static List<Anomaly> find(ReadExplanations explanations) {
        return findings(explanations).stream().map(Finding::anomaly).toList();
    }

    /**
     * The anomalies of {@link #find(History)}, in its order, each with the operations that show it.
     *
     * @return never {@code null}; empty when the screening finds nothing
     */
    public static List<Finding> findings(History history) {
        return findings(ReadExplanations.of(history));
    }

    /**
     * The anomalies of {@link #find(ReadExplanations)}, in its order, each with the operations
     * that show it.
     *
     * @return never {@code null}
     */
    public static List<Finding> findings(ReadExplanations explanations) {
        return new Screening(explanations).run();
    }

    /**
     * The first screening anomaly of {@code history} in the order of {@link #find(History)}.
     *
     * @return empty when the screening finds nothing
     */
    public static Optional<Anomaly> first(History history) {
        List<Anomaly> all = find(history);
        return all.isEmpty() ? Optional.empty() : Optional.of(all.get(0));
    }

    /**
     * The screening: a pass over the explanations and the internal-read violations in history
     * order, then one over predicate reads against their transaction's own writes, whose findings a
     * stable sort by the read's place merges into that order.
     */
    private static final class Screening {

        private final ReadExplanations explanations;
        private final History history;
        private final List<Finding> found = new ArrayList<>();
        /** Per key with an unknown initial value: distinct value id to the first observation of it. */
        private final Map<Integer, Map<Integer, Integer>> initialOnly = new HashMap<>();

        Screening(ReadExplanations explanations) {
            this.explanations = explanations;
            this.history = explanations.history();
        }

        List<Finding> run() {
            int violation = 0;
            int violations = explanations.violationCount();
            for (Transaction t : history.transactions()) {
                int obs = explanations.firstOf(t.index());
                int end = explanations.endOf(t.index());
                while (obs < end || (violation < violations && explanations.violationTransaction(violation) == t.index())) {
                    boolean violationFirst = obs >= end
                            || (violation < violations && explanations.violationTransaction(violation) == t.index()
                                && comesBefore(explanations.violationOperation(violation), explanations.violationRow(violation),
                                        explanations.operation(obs), explanations.row(obs)));
                    if (violationFirst) {
                        internal(t, violation++);
                    } else {
                        screen(t, obs++);
                    }
                }
            }
            predicatesAgainstOwnWrites();
            return found;
        }

        /**
         * A predicate read sees the transaction's own latest write of a row: it must return the
         * row when the clause certainly selects that value, and may not when the clause certainly
         * does not (an internal inconsistency either way, in history order with the others).
         */
        private void predicatesAgainstOwnWrites() {
            int before = found.size();
            for (Transaction t : history.transactions()) {
                if (!t.isCommitted() || !t.hasPredicateReads()) {
                    continue;
                }
                for (int op = 0; op < t.size(); op++) {
                    if (t.kind(op) != OpKind.PREDICATE) {
                        continue;
                    }
                    PredicateRead read = t.predicate(op);
                    Map<Integer, Integer> own = new java.util.LinkedHashMap<>();
                    for (int i = 0; i < op; i++) {
                        if (t.kind(i) == OpKind.WRITE && read.covers(t.key(i))) {
                            own.remove(t.key(i));
                            own.put(t.key(i), i);
                        }
                    }
                    if (own.isEmpty() || !(WherePredicate.parse(read.where()) instanceof WherePredicate where)) {
                        continue;
                    }
                    for (Map.Entry<Integer, Integer> write : own.entrySet()) {
                        int key = write.getKey();
                        int value = t.value(write.getValue());
                        Truth truth = where.evaluate(history.values().get(value));
                        int row = -1;
                        for (int r = 0; r < read.rowCount(); r++) {
                            row = read.rowKey(r) == key ? r : row;
                        }
                        String readText = t.id() + "'s predicate read of " + read.table() + " where " + read.where();
                        String explanation;
                        if (row < 0 && truth.isTrue()) {
                            explanation = readText + " did not return " + name(key) + " after " + t.id() + " wrote "
                                    + assignment(key, value) + " itself, which the clause selects";
                        } else if (row >= 0 && !truth.maybeTrue()) {
                            explanation = readText + " returned " + name(key) + " after " + t.id() + " wrote "
                                    + assignment(key, value) + " itself, which the clause does not select";
                        } else {
                            continue;
                        }
                        found.add(new Finding(new Anomaly(AnomalyType.INTERNAL, List.of(t.id()), explanation),
                                new Place(t.index(), op, row), List.of(new Place(t.index(), write.getValue(), -1))));
                    }
                }
            }
            if (found.size() > before) {
                found.sort(Comparator.comparingInt((Finding f) -> f.read().transaction())
                        .thenComparingInt(f -> f.read().operation()).thenComparingInt(f -> f.read().row()));
            }
        }

        private static boolean comesBefore(int op, int row, int otherOp, int otherRow) {
            return op < otherOp || (op == otherOp && row < otherRow);
        }

        private void internal(Transaction t, int v) {
            int op = explanations.violationOperation(v);
            int row = explanations.violationRow(v);
            int key = keyOf(t, op, row);
            String earlier = assignment(key, explanations.violationEarlier(v));
            String read = describeRead(t, op, row);
            String explanation;
            if (explanations.violationKind(v) == ReadExplanations.AFTER_OWN_WRITE) {
                explanation = row < 0
                        ? read + " after writing " + earlier + " itself"
                        : read + " after " + t.id() + " wrote " + earlier + " itself";
            } else {
                explanation = read + " after reading " + earlier + " earlier in the same transaction";
            }
            found.add(new Finding(new Anomaly(AnomalyType.INTERNAL, List.of(t.id()), explanation), new Place(t.index(), op, row),
                    List.of(earlierPlace(t, op, row, key, explanations.violationKind(v), explanations.violationEarlier(v)))));
        }

        /**
         * The operation an internal read contradicts: the transaction's last write of the key before
         * it, or its first earlier read of the key (an item read, or a returned row) that saw {@code earlier}.
         */
        private static Place earlierPlace(Transaction t, int op, int row, int key, int kind, int earlier) {
            if (kind == ReadExplanations.AFTER_OWN_WRITE) {
                for (int i = op - 1; i >= 0; i--) {
                    if (t.kind(i) == OpKind.WRITE && t.key(i) == key) {
                        return new Place(t.index(), i, -1);
                    }
                }
            } else {
                for (int i = 0; i <= op; i++) {
                    if (i < op && t.kind(i) == OpKind.READ && t.key(i) == key && t.value(i) == earlier) {
                        return new Place(t.index(), i, -1);
                    }
                    if (t.kind(i) == OpKind.PREDICATE) {
                        PredicateRead read = t.predicate(i);
                        for (int r = 0; r < read.rowCount(); r++) {
                            if (read.rowKey(r) == key && read.rowValue(r) == earlier && (i < op || r < row)) {
                                return new Place(t.index(), i, r);
                            }
                        }
                    }
                }
            }
            throw new IllegalStateException(t.id() + " has no operation before " + op + " that its read contradicts");
        }

        private void screen(Transaction reader, int obs) {
            if (!explanations.isExplained(obs)) {
                unexplained(reader, obs);
            } else if (explanations.writerCount(obs) == 0
                    && history.initialState().valueOf(explanations.key(obs)) == InitialState.UNKNOWN) {
                initialOnly(reader, obs);
            }
        }

        private void initialOnly(Transaction reader, int obs) {
            int key = explanations.key(obs);
            int value = explanations.value(obs);
            Map<Integer, Integer> seen = initialOnly.computeIfAbsent(key, k -> new TreeMap<>());
            if (seen.containsKey(value)) {
                return;
            }
            for (Map.Entry<Integer, Integer> earlier : seen.entrySet()) {
                if (!ValueRelations.compatible(history.values().get(value), history.values().get(earlier.getKey()))) {
                    int other = earlier.getValue();
                    Transaction first = history.transaction(explanations.transaction(other));
                    Set<String> ids = new LinkedHashSet<>(List.of(first.id(), reader.id()));
                    Anomaly anomaly = new Anomaly(AnomalyType.INITIAL_VALUE_CONFLICT, List.copyOf(ids),
                            describeRead(first, explanations.operation(other), explanations.row(other)) + " and "
                                    + describeRead(reader, explanations.operation(obs), explanations.row(obs))
                                    + "; only " + name(key) + "'s unknown initial value can explain either, and it cannot be both");
                    found.add(new Finding(anomaly, place(obs), List.of(place(other))));
                    break;
                }
            }
            seen.put(value, obs);
        }

        private void unexplained(Transaction reader, int obs) {
            int key = explanations.key(obs);
            // Writer transaction index to the position of its first consistent write, ascending.
            TreeMap<Integer, Integer> aborted = new TreeMap<>();
            TreeMap<Integer, Integer> overwritten = new TreeMap<>();
            int ownWrite = -1;
            for (int position : explanations.consistentWrites(obs)) {
                int writer = KeyIndex.transactionOf(explanations.writeRef(position));
                if (writer == reader.index()) {
                    ownWrite = ownWrite < 0 ? position : ownWrite;
                } else if (explanations.writeState(position) == ReadExplanations.ABORTED) {
                    aborted.putIfAbsent(writer, position);
                } else {
                    overwritten.putIfAbsent(writer, position);
                }
            }
            String read = describeRead(reader, explanations.operation(obs), explanations.row(obs));
            List<Place> related = new ArrayList<>();
            for (int position : explanations.consistentWrites(obs)) {
                long ref = explanations.writeRef(position);
                related.add(new Place(KeyIndex.transactionOf(ref), KeyIndex.operationOf(ref), -1));
            }
            related.sort(Comparator.comparingInt(Place::transaction).thenComparingInt(Place::operation));
            List<String> ids = new ArrayList<>();
            ids.add(reader.id());
            aborted.keySet().forEach(w -> ids.add(history.transaction(w).id()));
            overwritten.keySet().forEach(w -> ids.add(history.transaction(w).id()));
            if (!aborted.isEmpty()) {
                String explanation;
                if (aborted.size() == 1 && overwritten.isEmpty() && ownWrite < 0) {
                    String writer = history.transaction(aborted.firstKey()).id();
                    explanation = read + ", but only " + writer + " wrote " + written(aborted.firstEntry().getValue())
                            + ", and " + writer + " aborted";
                } else {
                    explanation = read + ", but no committed transaction installed that value: "
                            + culprits(aborted, overwritten, ownWrite, reader);
                }
                found.add(new Finding(new Anomaly(AnomalyType.G1A, ids, explanation), place(obs), related));
            } else if (!overwritten.isEmpty()) {
                String explanation;
                if (overwritten.size() == 1 && ownWrite < 0) {
                    Transaction writer = history.transaction(overwritten.firstKey());
                    explanation = read + ", which " + writer.id() + " wrote but overwrote with "
                            + assignment(key, writer.finalValue(key)) + " before committing";
                } else {
                    explanation = read + ", but no committed transaction installed that value: "
                            + culprits(aborted, overwritten, ownWrite, reader);
                }
                found.add(new Finding(new Anomaly(AnomalyType.G1B, ids, explanation), place(obs), related));
            } else {
                String explanation = ownWrite >= 0
                        ? read + ", which only " + reader.id() + " itself writes, later"
                        : read + ", which no transaction wrote";
                int initial = history.initialState().valueOf(key);
                explanation += initial == InitialState.UNKNOWN
                        ? ", so it cannot be " + name(key) + "'s unknown initial value either"
                        : (ownWrite >= 0 ? "," : "") + " and is not " + name(key) + "'s initial value ("
                                + history.values().get(initial) + ")";
                found.add(new Finding(new Anomaly(AnomalyType.THIN_AIR, ids, explanation), place(obs), related));
            }
        }

        private Place place(int obs) {
            return new Place(explanations.transaction(obs), explanations.operation(obs), explanations.row(obs));
        }

        private String culprits(Map<Integer, Integer> aborted, Map<Integer, Integer> overwritten, int ownWrite,
                Transaction reader) {
            List<String> parts = new ArrayList<>();
            aborted.forEach((w, position) -> parts.add(history.transaction(w).id() + " wrote " + written(position)
                    + " and aborted"));
            overwritten.forEach((w, position) -> {
                Transaction writer = history.transaction(w);
                int key = writer.key(KeyIndex.operationOf(explanations.writeRef(position)));
                parts.add(writer.id() + " wrote " + written(position) + " but overwrote it with "
                        + assignment(key, writer.finalValue(key)) + " before committing");
            });
            if (ownWrite >= 0) {
                parts.add(reader.id() + " itself writes " + written(ownWrite) + " only later");
            }
            return String.join("; ", parts);
        }

        /** {@code key = value} of the write at a position of {@link ReadExplanations#consistentWrites}. */
        private String written(int position) {
            long ref = explanations.writeRef(position);
            Transaction writer = history.transaction(KeyIndex.transactionOf(ref));
            int op = KeyIndex.operationOf(ref);
            return assignment(writer.key(op), writer.value(op));
        }

        private String describeRead(Transaction t, int op, int row) {
            if (row < 0) {
                return t.id() + " read " + assignment(t.key(op), t.value(op));
            }
            PredicateRead p = t.predicate(op);
            return t.id() + "'s predicate read of " + p.table() + " where " + p.where() + " returned "
                    + assignment(p.rowKey(row), p.rowValue(row));
        }

        private static int keyOf(Transaction t, int op, int row) {
            return row < 0 ? t.key(op) : t.predicate(op).rowKey(row);
        }

        private String assignment(int key, int value) {
            return name(key) + " = " + history.values().get(value);
        }

        private String name(int key) {
            return history.keys().name(key);
        }
    }
}
