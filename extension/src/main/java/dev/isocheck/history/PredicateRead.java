package dev.isocheck.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * A read by predicate: every key of {@link #table()} whose row satisfied {@link #where()} at the
 * time of the read, with the values observed for the rows returned.
 *
 * <p>Keys of the table that were not returned were, by the read's claim, absent or did not
 * satisfy the predicate. Row keys and values are interned ids of the owning history.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class PredicateRead {

    private final String table;
    private final String where;
    private final int[] rowKeys;
    private final int[] rowValues;
    private final KeyTable keys;
    private final ValueTable values;

    PredicateRead(String table, String where, int[] rowKeys, int[] rowValues, KeyTable keys, ValueTable values) {
        this.table = table;
        this.where = where;
        this.rowKeys = rowKeys;
        this.rowValues = rowValues;
        this.keys = keys;
        this.values = values;
    }

    /** The table: the predicate ranges over keys starting with {@code table + "/"}. */
    public String table() {
        return table;
    }

    /**
     * Whether {@code key} (a key id of the owning history) belongs to this read's table, that is,
     * its name starts with {@code table() + "/"}: the keys the predicate ranges over.
     */
    public boolean covers(int key) {
        return keys.name(key).startsWith(table + "/");
    }

    /** The SQL boolean expression over a row's fields, as recorded. */
    public String where() {
        return where;
    }

    /** How many rows were returned. */
    public int rowCount() {
        return rowKeys.length;
    }

    /** The key id of the {@code i}-th returned row. */
    public int rowKey(int i) {
        return rowKeys[i];
    }

    /** The value id observed for the {@code i}-th returned row. */
    public int rowValue(int i) {
        return rowValues[i];
    }

    /** The value id observed for a key, or {@code -1} if the read did not return that key. */
    public int valueReturnedFor(int key) {
        for (int i = 0; i < rowKeys.length; i++) {
            if (rowKeys[i] == key) {
                return rowValues[i];
            }
        }
        return -1;
    }

    /** The rows returned, as key name to value, in the order returned. */
    public List<Map.Entry<String, Value>> rows() {
        List<Map.Entry<String, Value>> out = new ArrayList<>(rowKeys.length);
        for (int i = 0; i < rowKeys.length; i++) {
            out.add(Map.entry(keys.name(rowKeys[i]), values.get(rowValues[i])));
        }
        return out;
    }

    @Override
    public String toString() {
        return "predicate(" + table + " where " + where + ") -> " + rows();
    }
}
