package dev.isocheck.format;

import dev.isocheck.history.History;
import dev.isocheck.history.InitialState;
import dev.isocheck.history.PredicateRead;
import dev.isocheck.history.Session;
import dev.isocheck.history.Transaction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Test helper: a canonical description of a history. */
final class HistoryDescription {

    private HistoryDescription() {
    }

    /**
     * Everything a history says, by names rather than interned ids, written without the JSONL
     * writer so that it can judge the writer: equal descriptions mean equal histories.
     */
    static String describe(History h) {
        StringBuilder out = new StringBuilder();
        InitialState init = h.initialState();
        Map<String, String> initial = new TreeMap<>();
        for (int k = 0; k < h.keys().size(); k++) {
            int v = init.valueOf(k);
            if (v != InitialState.UNKNOWN && !(init.isComplete() && v == 0)) {
                initial.put(h.keys().name(k), h.values().get(v).toString());
            }
        }
        out.append("complete=").append(init.isComplete()).append(" unknown=").append(init.unknownValues()).append(" init=").append(initial).append('\n');
        for (Session s : h.sessions()) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < s.size(); i++) {
                ids.add(h.transaction(s.transaction(i)).id());
            }
            out.append(s.isImplicit() ? "implicit " : "session ").append(s.name()).append(' ').append(ids).append('\n');
        }
        for (Transaction t : h.transactions()) {
            out.append(t.hasNumericId() ? "#" : "").append(t).append(" status=").append(t.status())
                    .append(" start=").append(t.start()).append(" end=").append(t.end());
            for (int i = 0; i < t.size(); i++) {
                if (t.hasPredicateReads() && t.kind(i) == dev.isocheck.history.OpKind.PREDICATE) {
                    PredicateRead p = t.predicate(i);
                    out.append(" [").append(p.table()).append('|').append(p.where()).append('|').append(p.rows()).append(']');
                }
            }
            out.append('\n');
        }
        return out.toString();
    }
}
