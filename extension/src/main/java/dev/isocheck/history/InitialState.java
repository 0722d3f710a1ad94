package dev.isocheck.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Arrays;
import org.apiguardian.api.API;

/**
 * What each key held before the first transaction.
 *
 * <p>A key's initial value is known (listed), absent (not listed in a {@link #isComplete()
 * complete} initial state), or {@link #UNKNOWN}: then it is absent or some single present value,
 * one that no transaction wrote unless {@link #unknownValues()} is {@link UnknownInitialValues#ANY}
 * (see {@code docs/semantics.md}).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class InitialState {

    /** Returned by {@link #valueOf(int)} for a key whose initial value is unknown. */
    public static final int UNKNOWN = -1;

    private final int[] byKey;
    private final boolean complete;
    private final UnknownInitialValues unknownValues;

    InitialState(int[] byKey, boolean complete, UnknownInitialValues unknownValues) {
        this.byKey = byKey;
        this.complete = complete;
        this.unknownValues = unknownValues;
    }

    /** Whether every key not listed was absent initially. */
    public boolean isComplete() {
        return complete;
    }

    /**
     * What an {@link #UNKNOWN} initial value may be: by default ({@link UnknownInitialValues#UNWRITTEN})
     * a value no transaction writes; with {@link UnknownInitialValues#ANY}, any value. Irrelevant
     * when the state is {@link #isComplete() complete}.
     */
    public UnknownInitialValues unknownValues() {
        return unknownValues;
    }

    /**
     * Whether the initial value of {@code key} is unknown and may be a value some transaction
     * writes ({@link UnknownInitialValues#ANY}): then no observation is ruled out as a read of it
     * by its value alone.
     */
    public boolean mayBeAnyValue(int key) {
        return byKey[key] == UNKNOWN && unknownValues == UnknownInitialValues.ANY;
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
