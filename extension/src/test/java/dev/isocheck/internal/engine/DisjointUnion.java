package dev.isocheck.internal.engine;

import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.InitialState;
import dev.isocheck.history.PredicateRead;
import dev.isocheck.history.Session;
import dev.isocheck.history.Transaction;
import dev.isocheck.history.UnknownInitialValues;
import dev.isocheck.history.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The disjoint union of histories, for decomposition tests: history {@code i}'s transaction ids,
 * session names, keys and tables get the prefix {@code p<i>.}, so the components share no key and
 * no session; their transactions are interleaved at random (each keeping its own order) or
 * concatenated. Each component's initial state is kept exactly: a complete one is listed key by key;
 * all components must read unknown initial values alike ({@code "unknown"}), and the union does too.
 */
final class DisjointUnion {

    private DisjointUnion() {
    }

    /** The components concatenated, first to last. */
    static History of(List<History> components) {
        return of(components, null);
    }

    /** The components interleaved by {@code random} ({@code null}: concatenated). */
    static History of(List<History> components, SplittableRandom random) {
        HistoryBuilder b = History.builder().initialStateComplete(false);
        // One reading of unknown initial values for the whole union: the components must agree.
        UnknownInitialValues unknown = components.isEmpty() ? UnknownInitialValues.UNWRITTEN
                : components.get(0).initialState().unknownValues();
        for (History h : components) {
            if (h.initialState().unknownValues() != unknown) {
                throw new IllegalArgumentException("the components read unknown initial values differently");
            }
        }
        b.unknownInitialValues(unknown);
        int[] next = new int[components.size()];
        for (int c = 0; c < components.size(); c++) {
            History h = components.get(c);
            InitialState initial = h.initialState();
            for (int k = 0; k < h.keys().size(); k++) {
                if (initial.isKnown(k)) {
                    b.initialValue(prefix(c) + h.keys().name(k), h.values().get(initial.valueOf(k)));
                }
            }
        }
        int left = 0;
        for (History h : components) {
            left += h.size();
        }
        for (; left > 0; left--) {
            int c = pick(components, next, random);
            copy(b, c, components.get(c), components.get(c).transaction(next[c]++));
        }
        return b.build();
    }

    private static int pick(List<History> components, int[] next, SplittableRandom random) {
        if (random == null) {
            for (int c = 0; ; c++) {
                if (next[c] < components.get(c).size()) {
                    return c;
                }
            }
        }
        List<Integer> open = new ArrayList<>();
        for (int c = 0; c < components.size(); c++) {
            if (next[c] < components.get(c).size()) {
                open.add(c);
            }
        }
        return open.get(random.nextInt(open.size()));
    }

    static String prefix(int component) {
        return "p" + component + ".";
    }

    private static void copy(HistoryBuilder b, int c, History h, Transaction t) {
        String p = prefix(c);
        HistoryBuilder.TransactionBuilder tb = b.transaction(p + t.id()).status(t.status());
        Session session = h.sessionOf(t);
        if (!session.isImplicit()) {
            tb.session(p + session.name());
        }
        if (t.startTime() != Transaction.NO_TIME && t.endTime() != Transaction.NO_TIME) {
            tb.times(t.startTime(), t.endTime());
        } else if (t.startTime() != Transaction.NO_TIME) {
            tb.start(t.startTime());
        } else if (t.endTime() != Transaction.NO_TIME) {
            tb.end(t.endTime());
        }
        for (int i = 0; i < t.size(); i++) {
            switch (t.kind(i)) {
                case READ -> tb.read(p + h.keys().name(t.key(i)), h.values().get(t.value(i)));
                case WRITE -> tb.write(p + h.keys().name(t.key(i)), h.values().get(t.value(i)));
                case PREDICATE -> {
                    PredicateRead read = t.predicate(i);
                    Map<String, Value> rows = new LinkedHashMap<>();
                    for (int r = 0; r < read.rowCount(); r++) {
                        rows.put(p + h.keys().name(read.rowKey(r)), h.values().get(read.rowValue(r)));
                    }
                    tb.predicate(p + read.table(), read.where(), rows);
                }
            }
        }
    }

    /** The history as text, one transaction a line with its session, for failure messages. */
    static String render(History h) {
        StringBuilder out = new StringBuilder();
        for (Transaction t : h.transactions()) {
            out.append(h.sessionOf(t).name()).append(' ').append(t);
            if (t.startTime() != Transaction.NO_TIME || t.endTime() != Transaction.NO_TIME) {
                out.append(" [").append(t.start()).append(", ").append(t.end()).append(']');
            }
            out.append('\n');
        }
        return out.toString();
    }
}
