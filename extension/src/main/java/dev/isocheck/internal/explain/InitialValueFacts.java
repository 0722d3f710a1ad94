package dev.isocheck.internal.explain;

import dev.isocheck.history.History;
import dev.isocheck.history.InitialState;
import dev.isocheck.history.KeyIndex;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.PredicateRead;
import dev.isocheck.history.Transaction;
import dev.isocheck.history.Value;
import dev.isocheck.internal.graph.ReadExplanations;
import dev.isocheck.internal.graph.ValueRelations;
import dev.isocheck.internal.predicate.WherePredicate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntPredicate;

/**
 * What the whole history says about each unknown initial value, beyond what one read says: the
 * initial value of a key is one value, so an observation that only that value explains fixes it
 * (in the fields it saw), and a predicate read that left the key out while only the initial version
 * can explain that says the initial row, if it existed, does not satisfy the predicate. Either
 * rules out the initial value as the source of another read of the key that saw something else.
 *
 * <p>Sound by construction: a witness is an observation whose every possible source is the initial
 * state (no write of any transaction explains it), so in every explanation of the history the
 * initial value is consistent with it; a value that is not {@linkplain ValueRelations#compatible
 * compatible} with the witness (or that the witness's predicate {@linkplain
 * WherePredicate#certainlySelects certainly selects}) cannot be that initial value. The deduction is
 * not complete (two reads that each may be of the initial value, or of a write, fix nothing; nor
 * does a predicate on fields that only several reads show together), which only makes the
 * explainer find fewer cycles, never a wrong one.
 */
final class InitialValueFacts {

    /** A read of a key that only the key's initial value explains: its transaction, operation, row and value. */
    private record Witness(Transaction reader, int operation, int row, Value value) {
    }

    /** A predicate read that left a key out, which only the key's initial version explains. */
    private record LeftOut(Transaction reader, int operation, WherePredicate where) {
    }

    private final History history;
    private final Map<Integer, List<Witness>> witnesses = new HashMap<>();
    private final Map<Integer, List<LeftOut>> leftOut = new HashMap<>();

    private InitialValueFacts(History history, ReadExplanations explanations) {
        this.history = history;
        for (int obs = 0; obs < explanations.size(); obs++) {
            int key = explanations.key(obs);
            if (unknown(key) && explanations.writerCount(obs) == 0 && explanations.initialStateExplains(obs)) {
                witnesses.computeIfAbsent(key, k -> new ArrayList<>()).add(new Witness(
                        history.transaction(explanations.transaction(obs)), explanations.operation(obs),
                        explanations.row(obs), history.values().get(explanations.value(obs))));
            }
        }
        for (Transaction t : history.transactions()) {
            for (int op = 0; t.isCommitted() && op < t.size(); op++) {
                if (t.kind(op) == OpKind.PREDICATE) {
                    leftOut(t, op);
                }
            }
        }
    }

    /** The facts of {@code history}, from its read explanations. */
    static InitialValueFacts of(History history, ReadExplanations explanations) {
        return new InitialValueFacts(history, explanations);
    }

    private boolean unknown(int key) {
        return history.initialState().valueOf(key) == InitialState.UNKNOWN;
    }

    /**
     * The keys of a committed transaction's predicate read that it did not return (and had not
     * written itself before), where no committed transaction's installed version fails the
     * predicate: only the initial version can be the one it saw.
     */
    private void leftOut(Transaction t, int op) {
        PredicateRead read = t.predicate(op);
        if (!(WherePredicate.parse(read.where()) instanceof WherePredicate where)) {
            return;
        }
        KeyIndex index = history.index();
        for (int key : history.keys().keysOfTable(read.table())) {
            if (!unknown(key) || read.valueReturnedFor(key) >= 0 || writesBefore(t, op, key)) {
                continue;
            }
            boolean onlyInitial = true;
            for (int i = 0; i < index.writeCount(key) && onlyInitial; i++) {
                long ref = index.write(key, i);
                Transaction w = history.transaction(KeyIndex.transactionOf(ref));
                int wop = KeyIndex.operationOf(ref);
                if (w.index() != t.index() && w.isCommitted() && w.isFinalWrite(wop)
                        && !where.evaluate(history.values().get(w.value(wop))).isTrue()) {
                    onlyInitial = false;
                }
            }
            if (onlyInitial) {
                leftOut.computeIfAbsent(key, k -> new ArrayList<>()).add(new LeftOut(t, op, where));
            }
        }
    }

    private static boolean writesBefore(Transaction t, int op, int key) {
        for (int i = 0; i < op; i++) {
            if (t.kind(i) == OpKind.WRITE && t.key(i) == key) {
                return true;
            }
        }
        return false;
    }

    /**
     * Why {@code value}, observed of {@code key} by {@code reader}, cannot be the key's initial
     * value, in words ("not account/2's initial value, which T2 read as 50"), or empty when nothing
     * in the history rules it out. A witness of a transaction in {@code preferred} (the ones an
     * explanation shows) is named first.
     */
    Optional<String> rulesOut(int key, Value value, Transaction reader, IntPredicate preferred) {
        String found = null;
        for (Witness w : witnesses.getOrDefault(key, List.of())) {
            if (!ValueRelations.compatible(value, w.value())) {
                String words = "not " + name(key) + "'s initial value, which " + readOf(w) + " as " + w.value();
                if (preferred.test(w.reader().index())) {
                    return Optional.of(words);
                }
                found = found == null ? words : found;
            }
        }
        for (LeftOut l : leftOut.getOrDefault(key, List.of())) {
            if (l.where().certainlySelects(value)) {
                PredicateRead read = l.reader().predicate(l.operation());
                String by = l.reader() == reader ? "its own" : l.reader().id() + "'s";
                String words = "not " + name(key) + "'s initial value: " + by + " read of " + read.table() + " where "
                        + read.where() + " (operation " + l.operation() + ") did not return " + name(key)
                        + " and only its initial version can be what it left out, so that version, if any, does not"
                        + " satisfy the predicate";
                if (preferred.test(l.reader().index())) {
                    return Optional.of(words);
                }
                found = found == null ? words : found;
            }
        }
        return Optional.ofNullable(found);
    }

    /**
     * Why the initial version of {@code key} cannot be the version a predicate read over
     * {@code where} left out, in words ("not the initial version: test/2's initial value, which T2's
     * read ... returned as {...}, satisfies the predicate"), or empty when nothing rules it out: a
     * witness of the initial value that the predicate certainly selects, whatever fields it did not
     * see. A witness of a transaction in {@code preferred} is named first.
     */
    Optional<String> rulesOutUnreturned(int key, WherePredicate where, IntPredicate preferred) {
        String found = null;
        for (Witness w : witnesses.getOrDefault(key, List.of())) {
            if (where.certainlySelects(w.value())) {
                String words = "not the initial version: " + name(key) + "'s initial value, which " + readOf(w) + " as "
                        + w.value() + ", satisfies the predicate";
                if (preferred.test(w.reader().index())) {
                    return Optional.of(words);
                }
                found = found == null ? words : found;
            }
        }
        return Optional.ofNullable(found);
    }

    private String readOf(Witness w) {
        if (w.row() < 0) {
            return w.reader().id() + " read (operation " + w.operation() + ")";
        }
        PredicateRead read = w.reader().predicate(w.operation());
        return w.reader().id() + "'s read of " + read.table() + " where " + read.where() + " (operation "
                + w.operation() + ") returned";
    }

    private String name(int key) {
        return history.keys().name(key);
    }
}
