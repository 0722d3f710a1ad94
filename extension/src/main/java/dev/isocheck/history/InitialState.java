package dev.isocheck.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Arrays;
import org.apiguardian.api.API;

/**
 * What each key held before the first transaction.
 *
 * <p>A key's initial value is known (listed), absent (not listed in a {@link #isComplete()
 * complete} initial state), or {@link #UNKNOWN}: then it is absent or some single present value
 * that no transaction wrote (see {@code docs/semantics.md}).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class InitialState {

    /** Returned by {@link #valueOf(int)} for a key whose initial value is unknown. */
    public static final int UNKNOWN = -1;

    private final int[] byKey;
    private final boolean complete;

    InitialState(int[] byKey, boolean complete) {
        this.byKey = byKey;
        this.complete = complete;
    }

    /** Whether every key not listed was absent initially. */
    public boolean isComplete() {
        return complete;
    }

    /**
     * The value id the key held initially, {@link ValueTable#ABSENT} if it did not exist, or
     * {@link #UNKNOWN}.
     */
    public int valueOf(int key) {
        return byKey[key];
    }

    /** Whether the initial value of this key is known (possibly absent). */
    public boolean isKnown(int key) {
        return byKey[key] != UNKNOWN;
    }

    /** How many keys have a known present initial value. */
    public int listedCount() {
        return (int) Arrays.stream(byKey).filter(v -> v > ValueTable.ABSENT).count();
    }
}
