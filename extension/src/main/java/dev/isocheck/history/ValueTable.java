package dev.isocheck.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The distinct values of one history, each interned to a dense {@code int} id.
 *
 * <p>Id {@link #ABSENT} (0) is always {@link Value#ABSENT}, so "the key did not exist" needs no
 * lookup. Equal values share an id, so duplicate values (several transactions writing the same
 * value) are visible as equal ids.
 */
public final class ValueTable {

    /** The id of {@link Value#ABSENT}. */
    public static final int ABSENT = 0;

    private final List<Value> values = new ArrayList<>();
    private final Map<Value, Integer> ids = new HashMap<>();

    ValueTable() {
        intern(Value.ABSENT);
    }

    int intern(Value value) {
        Integer id = ids.get(value);
        if (id != null) {
            return id;
        }
        int fresh = values.size();
        values.add(value);
        ids.put(value, fresh);
        return fresh;
    }

    /** The value with this id. */
    public Value get(int id) {
        return values.get(id);
    }

    /** The id of a value, or {@code -1} when the history never mentions it. */
    public int idOf(Value value) {
        Integer id = ids.get(value);
        return id == null ? -1 : id;
    }

    /** How many distinct values the history mentions, absent included. */
    public int size() {
        return values.size();
    }
}
