package dev.isocheck.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Dense {@code int} ids for distinct items, in order of first appearance: the storage behind {@link KeyTable} and {@link ValueTable}. */
final class Interner<T> {

    private final List<T> items = new ArrayList<>();
    private final Map<T, Integer> ids = new HashMap<>();

    int intern(T item) {
        Integer id = ids.get(item);
        if (id != null) {
            return id;
        }
        int fresh = items.size();
        items.add(item);
        ids.put(item, fresh);
        return fresh;
    }

    T get(int id) {
        return items.get(id);
    }

    /** The id of an item, or {@code -1} when it was never interned. */
    int idOf(T item) {
        Integer id = ids.get(item);
        return id == null ? -1 : id;
    }

    int size() {
        return items.size();
    }
}
