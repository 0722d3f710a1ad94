package dev.isocheck.internal.simulate;

import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.InitialState;
import dev.isocheck.history.PredicateRead;
import dev.isocheck.history.Session;
import dev.isocheck.history.Transaction;
import dev.isocheck.history.UnknownInitialValues;
import dev.isocheck.history.Value;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Test helper: a history as a recorder that never saw the initial state would write it, declaring
 * {@code "unknown": "any"} and forgetting some of the initial values it listed. The transactions
 * (ids, sessions, statuses, times, operations) are copied unchanged.
 *
 * <p>Why this makes good differential cases: the simulated databases start plain keys at {@code 0}
 * and rows at {@code v = 0}, values their transactions write again when values are drawn from a
 * small domain, so a forgotten initial value is often one a transaction writes (the toggle of
 * issue 14), and reads of it are explained both by the initial version and by that write.
 */
public final class AnyInitialValues {

    private AnyInitialValues() {
    }

    /**
     * {@code history} declaring {@code "unknown": "any"}, not complete, with each initial value it
     * knows (listed, or absent in a complete state) kept with probability {@code 1/4}: the others
     * become unknown.
     */
    public static History forget(History history, SplittableRandom random) {
        return forget(history, random, UnknownInitialValues.ANY);
    }

    /**
     * As {@link #forget(History, SplittableRandom)}, declaring {@code unknown} instead: with
     * {@link UnknownInitialValues#UNWRITTEN}, the mistake the default reading makes of a recorded
     * history (a forgotten initial value that a transaction writes is taken to be unwritten).
     */
    public static History forget(History history, SplittableRandom random, UnknownInitialValues unknown) {
        return forget(history, random, unknown, t -> true);
    }

    /**
     * As {@link #forget(History, SplittableRandom, UnknownInitialValues)}, keeping the reads
     * (plain and predicate) only of the transactions whose index {@code readsKept} accepts: the
     * others keep their writes, as the earlier transactions of a recording's slice do.
     */
    public static History forget(History history, SplittableRandom random, UnknownInitialValues unknown,
                                 java.util.function.IntPredicate readsKept) {
        HistoryBuilder b = History.builder().unknownInitialValues(unknown);
        InitialState initial = history.initialState();
        for (int k = 0; k < history.keys().size(); k++) {
            if (initial.isKnown(k) && random.nextInt(4) == 0) {
                b.initialValue(history.keys().name(k), history.values().get(initial.valueOf(k)));
            }
        }
        for (Transaction t : history.transactions()) {
            HistoryBuilder.TransactionBuilder tb = b.transaction(t.hasNumericId() ? (Object) Long.parseLong(t.id()) : t.id())
                    .status(t.status());
            Session session = history.sessionOf(t);
            if (!session.isImplicit()) {
                tb.session(session.name());
            }
            if (t.startTime() != Transaction.NO_TIME) {
                tb.start(t.startTime());
            }
            if (t.endTime() != Transaction.NO_TIME) {
                tb.end(t.endTime());
            }
            boolean reads = readsKept.test(t.index());
            for (int i = 0; i < t.size(); i++) {
                if (!reads && t.kind(i) != dev.isocheck.history.OpKind.WRITE) {
                    continue;
                }
                switch (t.kind(i)) {
                    case READ -> tb.read(history.keys().name(t.key(i)), history.values().get(t.value(i)));
                    case WRITE -> tb.write(history.keys().name(t.key(i)), history.values().get(t.value(i)));
                    case PREDICATE -> {
                        PredicateRead read = t.predicate(i);
                        Map<String, Value> rows = new LinkedHashMap<>();
                        for (int r = 0; r < read.rowCount(); r++) {
                            rows.put(history.keys().name(read.rowKey(r)), history.values().get(read.rowValue(r)));
                        }
                        tb.predicate(read.table(), read.where(), rows);
                    }
                }
            }
        }
        return b.build();
    }
}
