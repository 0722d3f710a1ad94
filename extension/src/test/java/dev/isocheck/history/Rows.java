package dev.isocheck.history;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Row values and predicate-read results for test histories. Each call returns a new, mutable map
 * that keeps the order it was given in, so that rows and messages print as written, and that may
 * hold {@code null} fields (which {@link Map#of} would refuse).
 */
public final class Rows {

    private Rows() {
    }

    /** The row {@code {"id": id, "v": v}}. */
    public static Map<String, Object> row(int id, int v) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("id", id);
        row.put("v", v);
        return row;
    }

    /** The row {@code {"id": id, "on_call": onCall}}: a doctor of the on-call write skew (Berenson et al.). */
    public static Map<String, Object> doctor(int id, boolean onCall) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("id", id);
        row.put("on_call", onCall);
        return row;
    }

    /**
     * The rows a predicate read returned, from alternating keys and row values:
     * {@code rows("t/1", row(1, 5), "t/2", row(2, 7))}.
     */
    public static Map<String, Object> rows(Object... keysAndValues) {
        Map<String, Object> rows = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            rows.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return rows;
    }
}
