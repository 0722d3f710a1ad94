package dev.isocheck.explain;

import dev.isocheck.IsolationLevel;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.SqlStatement;
import dev.isocheck.internal.explain.ExhaustiveExplainer;
import java.util.List;

/**
 * Violations over names and values that a report must survive: long, huge, or holding characters
 * that hide or reorder text. Built here, so that every input of the tests that use them is in the
 * repository.
 */
final class StrangeHistories {

    private StrangeHistories() {
    }

    /**
     * A recorded write skew (each of two transactions misses the other's write) at serializable:
     * transactions {@code a} and {@code b}, sessions and threads named {@code name} with a suffix,
     * keys {@code x} and {@code y}, both writing {@code value} by an UPDATE that carries it as a
     * parameter. Every line of a box is drawn, and the value is in operations, reasons and SQL.
     */
    static Explanation writeSkew(String a, String b, String name, String x, String y, String value) {
        HistoryBuilder h = History.builder().initialValue(x, "0").initialValue(y, "0").initialStateComplete(true);
        h.transaction(a).session(name + "-1").thread(name + "-thread-1").times(100, 180)
                .statement(SqlStatement.of("SELECT v FROM t WHERE k IN (?, ?)", List.of(x, y))).read(x, "0").read(y, "0")
                .statement(SqlStatement.of("UPDATE t SET v = ? WHERE k = ?", List.of(value, y))).write(y, value);
        h.transaction(b).session(name + "-2").thread(name + "-thread-2").times(110, 190)
                .statement(SqlStatement.of("SELECT v FROM t WHERE k IN (?, ?)", List.of(x, y))).read(x, "0").read(y, "0")
                .statement(SqlStatement.of("UPDATE t SET v = ? WHERE k = ?", List.of(value, x))).write(x, value);
        return explain(h.build());
    }

    /**
     * A ring of {@code n} transactions at serializable, each reading the initial value of the key
     * the one before it writes: a cycle of {@code n} read-write edges. Transaction {@code i} (from
     * 1) is {@code id + i}, in session {@code name + i}, and writes key {@code key + i}.
     */
    static Explanation ring(int n, String id, String name, String key) {
        HistoryBuilder h = History.builder().initialStateComplete(true);
        for (int i = 1; i <= n; i++) {
            h.initialValue(key + i, 0);
        }
        for (int i = 1; i <= n; i++) {
            h.transaction(id + i).session(name + i).times(10L * i, 10L * i + 100).read(key + (i == 1 ? n : i - 1), 0)
                    .write(key + i, 1);
        }
        return explain(h.build());
    }

    private static Explanation explain(History history) {
        return new ExhaustiveExplainer().explain(history, IsolationLevel.SERIALIZABLE);
    }
}
