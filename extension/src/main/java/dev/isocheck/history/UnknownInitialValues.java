package dev.isocheck.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Locale;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What the initial value of a key may be when the initial state does not list it and is not
 * {@link InitialState#isComplete() complete}: the history format's {@code "unknown"} field.
 *
 * <p>Why two readings: a history written by hand or by a generator can promise that values it does
 * not list were never written by any transaction ({@link #UNWRITTEN}), which lets a read of a
 * written value be blamed on that write. A recorder that attaches to an existing database never
 * saw the rows that were already there, and applications write values back (a flag set, cleared and
 * set again; a status that cycles), so it cannot promise that: it declares {@link #ANY}.
 * In a complete initial state no key is unknown, and this setting changes nothing.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public enum UnknownInitialValues {

    /**
     * The default ({@code "unwritten"}): absent, or a single present value that no transaction
     * writes to the key (aborted and overwritten writes included).
     */
    UNWRITTEN,

    /**
     * {@code "any"}: any single value, absent included, possibly one that some transaction writes to
     * the key later. Every read of the initial version of a key still sees that one value.
     */
    ANY;

    /** The name in the history format: {@code "unwritten"} or {@code "any"}. */
    public String formatName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The setting a history file names, exactly as {@link #formatName()} spells it.
     *
     * @return empty for any other text
     */
    public static Optional<UnknownInitialValues> fromFormatName(String name) {
        for (UnknownInitialValues value : values()) {
            if (value.formatName().equals(name)) {
                return Optional.of(value);
            }
        }
        return Optional.empty();
    }
}
