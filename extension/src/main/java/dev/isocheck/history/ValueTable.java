package dev.isocheck.history;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * The distinct values of one history, each interned to a dense {@code int} id.
 *
 * <p>Id {@link #ABSENT} (0) is always {@link Value#ABSENT}, so "the key did not exist" needs no
 * lookup. Equal values share an id, so duplicate values (several transactions writing the same
 * value) are visible as equal ids.
 */
@API(status = INTERNAL, since = "0.1")
public final class ValueTable {

    /** The id of {@link Value#ABSENT}. */
    public static final int ABSENT = 0;

    private final Interner<Value> interner = new Interner<>();

    ValueTable() {
        intern(Value.ABSENT);
    }

    int intern(Value value) {
        return interner.intern(value);
    }

    /** The value with this id. */
    public Value get(int id) {
        return interner.get(id);
    }

    /** The id of a value, or {@code -1} when the history never mentions it. */
    public int idOf(Value value) {
        return interner.idOf(value);
    }

    /** How many distinct values the history mentions, absent included. */
    public int size() {
        return interner.size();
    }
}
