package dev.isocheck.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The keys of one history, each interned to a dense {@code int} id in order of first appearance.
 *
 * <p>A key such as {@code "accounts/1"} belongs to table {@code "accounts"}: a predicate read over
 * a table ranges over the keys that start with the table's name and a slash.
 */
public final class KeyTable {

    private final List<String> names = new ArrayList<>();
    private final Map<String, Integer> ids = new HashMap<>();

    KeyTable() {
    }

    int intern(String key) {
        Integer id = ids.get(key);
        if (id != null) {
            return id;
        }
        int fresh = names.size();
        names.add(key);
        ids.put(key, fresh);
        return fresh;
    }

    /** The key with this id. */
    public String name(int id) {
        return names.get(id);
    }

    /** The id of a key, or {@code -1} when the history never mentions it. */
    public int idOf(String key) {
        Integer id = ids.get(key);
        return id == null ? -1 : id;
    }

    /** How many distinct keys the history mentions. */
    public int size() {
        return names.size();
    }

    /**
     * The ids of every key of {@code table} (keys starting with {@code table + "/"}) that appears
     * anywhere in the history, in id order.
     */
    public int[] keysOfTable(String table) {
        String prefix = table + "/";
        int[] out = new int[names.size()];
        int n = 0;
        for (int id = 0; id < names.size(); id++) {
            if (names.get(id).startsWith(prefix)) {
                out[n++] = id;
            }
        }
        return java.util.Arrays.copyOf(out, n);
    }
}
