package dev.isocheck.internal.explain;

import dev.isocheck.explain.Assumption;
import dev.isocheck.history.History;
import dev.isocheck.history.InitialState;
import dev.isocheck.history.KeyIndex;
import dev.isocheck.history.PredicateRead;
import dev.isocheck.history.Transaction;
import dev.isocheck.history.UnknownInitialValues;
import dev.isocheck.history.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * When an explanation rests on the history's default reading of unknown initial values
 * ({@code "unknown": "unwritten"}, {@code docs/semantics.md}): a read of a key whose initial value
 * the history does not list, that saw a present non-row value some transaction writes, is taken
 * not to be of the initial value only because such a value is assumed to be one no transaction
 * writes. Such a read is a {@link Assumption.UnwrittenInitialValue premise} of every conclusion
 * drawn from it being something else: a screening anomaly about it, or a write-read edge from its
 * writer.
 *
 * <p>Nothing else an explanation derives depends on it: a read-write edge from a read holds for the
 * initial version too (every installed version comes after it), and a case split on the read's
 * source covers the initial version in its "did not see" case. So the premises of a proof by cycles
 * are the reads behind its write-read edges (and behind an assumption that names the one version
 * left), and the explanation is exact about which reads matter.
 */
final class UnwrittenPremises {

    private UnwrittenPremises() {
    }

    /**
     * Whether the read at {@code op} (row {@code row} of a predicate read, or {@code -1}) of
     * {@code reader} is taken not to be of its key's initial value only because unknown initial
     * values are read as unwritten: the key is not listed in a state that is not complete, the
     * history does not declare {@code "unknown": "any"}, and the value read is present, not a row,
     * and consistent with some transaction's write of the key.
     */
    static Optional<Assumption.UnwrittenInitialValue> of(History history, Transaction reader, int op, int row) {
        InitialState initial = history.initialState();
        if (initial.unknownValues() != UnknownInitialValues.UNWRITTEN) {
            return Optional.empty();
        }
        int key = row < 0 ? reader.key(op) : reader.predicate(op).rowKey(row);
        int observed = row < 0 ? reader.value(op) : reader.predicate(op).rowValue(row);
        Value value = history.values().get(observed);
        if (initial.isKnown(key) || value.isAbsent() || value.isObject()) {
            return Optional.empty();
        }
        List<String> writers = new ArrayList<>();
        KeyIndex index = history.index();
        for (int i = 0; i < index.writeCount(key); i++) {
            long ref = index.write(key, i);
            Transaction writer = history.transaction(KeyIndex.transactionOf(ref));
            int written = writer.value(KeyIndex.operationOf(ref));
            if ((written == observed || value.isConsistentWith(history.values().get(written)))
                    && !writers.contains(writer.id())) {
                writers.add(writer.id());
            }
        }
        if (writers.isEmpty()) {
            return Optional.empty();
        }
        String name = history.keys().name(key);
        String assignment = name + " = " + value;
        String read;
        if (row < 0) {
            read = reader.id() + " read " + assignment;
        } else {
            PredicateRead p = reader.predicate(op);
            read = reader.id() + "'s read of " + p.table() + " where " + p.where() + " returned " + assignment;
        }
        List<String> named = new ArrayList<>();
        writers.forEach(w -> named.add(w.equals(reader.id()) ? w + " itself" : w));
        String who = named.size() == 1 ? named.get(0)
                : String.join(", ", named.subList(0, named.size() - 1)) + " and " + named.get(named.size() - 1);
        String text = read + ", taken not to be " + name + "'s initial value because " + who
                + (named.size() == 1 ? " writes " : " write ") + assignment;
        return Optional.of(new Assumption.UnwrittenInitialValue(Narration.operation(history, reader, op, row), name,
                writers, text));
    }
}
