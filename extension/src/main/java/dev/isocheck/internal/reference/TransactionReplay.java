package dev.isocheck.internal.reference;

import dev.isocheck.history.History;
import dev.isocheck.history.InitialState;
import dev.isocheck.history.KeyIndex;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.PredicateRead;
import dev.isocheck.history.Transaction;
import dev.isocheck.history.Value;
import dev.isocheck.history.ValueTable;
import dev.isocheck.internal.predicate.ParsedWhere;
import dev.isocheck.internal.predicate.WherePredicate;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Runs one committed transaction atomically on a database state and says whether the state
 * explains every read it made.
 *
 * <p>A state is an {@code int[]} from key id to value id, or {@link InitialState#UNKNOWN} for a
 * key still holding its unknown initial value. The transaction sees that state plus its own writes
 * so far; reads of an unknown initial value go through {@link InitialValueKnowledge}.
 */
final class TransactionReplay {

    private final History history;
    private final ValueTable values;
    /** Per key, every value any transaction (aborted ones included) wrote to it. */
    private final int[][] writtenValues;
    private final Map<String, int[]> tableKeys = new HashMap<>();

    TransactionReplay(History history) {
        this.history = history;
        this.values = history.values();
        KeyIndex index = history.index();
        this.writtenValues = new int[history.keys().size()][];
        for (int key = 0; key < writtenValues.length; key++) {
            int[] written = new int[index.writeCount(key)];
            for (int i = 0; i < written.length; i++) {
                long ref = index.write(key, i);
                written[i] = history.transaction(KeyIndex.transactionOf(ref)).value(KeyIndex.operationOf(ref));
            }
            writtenValues[key] = written;
        }
    }

    /** The state before the first transaction. */
    int[] initialState() {
        int[] state = new int[history.keys().size()];
        for (int key = 0; key < state.length; key++) {
            state[key] = history.initialState().valueOf(key);
        }
        return state;
    }

    /** {@code state} after {@code t} commits: its last write of each key installed. */
    static int[] install(int[] state, Transaction t) {
        int[] next = Arrays.copyOf(state, state.length);
        for (int i = 0; i < t.size(); i++) {
            if (t.kind(i) == OpKind.WRITE) {
                next[t.key(i)] = t.value(i);
            }
        }
        return next;
    }

    /**
     * Whether {@code state} (plus {@code t}'s own writes) explains every read of {@code t}.
     * {@code knowledge} (per key) is updated in place with what the reads say about unknown initial
     * values; the caller passes a copy it can drop on failure.
     */
    boolean explains(Transaction t, int[] state, InitialValueKnowledge[] knowledge) {
        Map<Integer, Integer> ownWrites = new HashMap<>();
        for (int i = 0; i < t.size(); i++) {
            boolean explained = switch (t.kind(i)) {
                case WRITE -> {
                    ownWrites.put(t.key(i), t.value(i));
                    yield true;
                }
                case READ -> observes(t.key(i), t.value(i), current(t.key(i), state, ownWrites), knowledge);
                case PREDICATE -> predicateRead(t.predicate(i), state, ownWrites, knowledge);
            };
            if (!explained) {
                return false;
            }
        }
        return true;
    }

    private static int current(int key, int[] state, Map<Integer, Integer> ownWrites) {
        Integer own = ownWrites.get(key);
        return own != null ? own : state[key];
    }

    /** Whether a read that observed {@code observed} is explained by the key's current value. */
    private boolean observes(int key, int observed, int current, InitialValueKnowledge[] knowledge) {
        if (current == InitialState.UNKNOWN) {
            return observesInitial(key, observed, knowledge);
        }
        return values.get(observed).isConsistentWith(values.get(current));
    }

    /**
     * An observation of a key's unknown initial value: absent or a row is always possible; another
     * present value only if no transaction wrote a value it is consistent with (the initial value
     * is one nobody wrote), unless the history declares that an unknown initial value may be any
     * value ({@link InitialState#mayBeAnyValue}); and it must be compatible with every other
     * observation of that initial value.
     */
    private boolean observesInitial(int key, int observed, InitialValueKnowledge[] knowledge) {
        Value value = values.get(observed);
        // A row observation names only the columns it selected: the initial row may share them
        // with a written row, so only a non-row value is ruled out by a write of it.
        if (!value.isAbsent() && !value.isObject() && !history.initialState().mayBeAnyValue(key)) {
            for (int written : writtenValues[key]) {
                if (value.isConsistentWith(values.get(written))) {
                    return false;
                }
            }
        }
        InitialValueKnowledge next = knowledge[key].observe(value);
        if (next == null) {
            return false;
        }
        knowledge[key] = next;
        return true;
    }

    /**
     * A predicate read returns exactly the keys of its table whose current value is present and
     * satisfies {@code where}, each with a value consistent with the current one. A row whose
     * truth we cannot tell ({@code INDETERMINATE}) may be returned or not. With an unsupported
     * {@code where} the returned rows are checked as item reads and the other keys are free.
     */
    private boolean predicateRead(PredicateRead read, int[] state, Map<Integer, Integer> ownWrites,
            InitialValueKnowledge[] knowledge) {
        ParsedWhere parsed = WherePredicate.parse(read.where());
        WherePredicate where = parsed instanceof WherePredicate supported ? supported : null;
        for (int row = 0; row < read.rowCount(); row++) {
            int key = read.rowKey(row);
            int current = current(key, state, ownWrites);
            if (!observes(key, read.rowValue(row), current, knowledge)) {
                return false;
            }
            if (where != null && current != InitialState.UNKNOWN
                    && !where.evaluate(values.get(current)).maybeTrue()) {
                return false;
            }
        }
        if (where == null) {
            return true;
        }
        for (int key : keysOfTable(read.table())) {
            if (read.valueReturnedFor(key) >= 0) {
                continue;
            }
            int current = current(key, state, ownWrites);
            if (current == InitialState.UNKNOWN) {
                InitialValueKnowledge next = knowledge[key].notSelectedBy(where);
                if (next == null) {
                    return false;
                }
                knowledge[key] = next;
            } else if (where.evaluate(values.get(current)).isTrue()) {
                return false;
            }
        }
        return true;
    }

    private int[] keysOfTable(String table) {
        return tableKeys.computeIfAbsent(table, history.keys()::keysOfTable);
    }
}
