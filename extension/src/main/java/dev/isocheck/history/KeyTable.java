package dev.isocheck.history;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Arrays;
import org.apiguardian.api.API;

/**
 * The keys of one history, each interned to a dense {@code int} id in order of first appearance.
 *
 * <p>A key such as {@code "accounts/1"} belongs to table {@code "accounts"}: a predicate read over
 * a table ranges over the keys that start with the table's name and a slash.
 */
@API(status = INTERNAL, since = "0.1")
public final class KeyTable {

    private final Interner<String> interner = new Interner<>();

    KeyTable() {
    }

    int intern(String key) {
        return interner.intern(key);
    }

    /** The key with this id. */
    public String name(int id) {
        return interner.get(id);
    }

    /** The id of a key, or {@code -1} when the history never mentions it. */
    public int idOf(String key) {
        return interner.idOf(key);
    }

    /** How many distinct keys the history mentions. */
    public int size() {
        return interner.size();
    }

    /**
     * The ids of every key of {@code table} (keys starting with {@code table + "/"}) that appears
     * anywhere in the history, in id order.
     */
    public int[] keysOfTable(String table) {
        String prefix = table + "/";
        int[] out = new int[interner.size()];
        int n = 0;
        for (int id = 0; id < interner.size(); id++) {
            if (interner.get(id).startsWith(prefix)) {
                out[n++] = id;
            }
        }
        return Arrays.copyOf(out, n);
    }
}
