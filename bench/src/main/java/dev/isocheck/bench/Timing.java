package dev.isocheck.bench;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The start and end times a {@link Workloads} history records. Each is consistent with the serial
 * order the transactions ran in (a transaction that ended before another started ran before it),
 * so every history is strict serializable; they differ in how much they give away of that order.
 */
public enum Timing {

    /**
     * Sessions behave as closed-loop clients: a transaction starts when its session's previous one
     * was acknowledged, takes effect at its point in the serial order, and is acknowledged at a
     * random time before its session's next one takes effect. Transactions of different sessions
     * overlap as under a real database, and the order of their ends is not the serial order.
     */
    OVERLAPPING("overlapping"),

    /**
     * Each transaction runs alone in time: the order of the times is the serial order, so a checker
     * that follows real time finds the witness without searching.
     */
    SERIAL("serial"),

    /** No times, as in dbcop's histories: strict serializability then says no more than serializability. */
    NONE("none");

    private final String cliName;

    Timing(String cliName) {
        this.cliName = cliName;
    }

    /** The name on the benchmark's command line, e.g. {@code overlapping}. */
    public String cliName() {
        return cliName;
    }

    /**
     * The timing named so (case-insensitive).
     *
     * @throws IllegalArgumentException naming the timings there are, if none is called so
     */
    public static Timing fromName(String name) {
        String normal = name.trim().toLowerCase(Locale.ROOT);
        for (Timing t : values()) {
            if (t.cliName.equals(normal)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown timing '" + name + "'; the timings are "
                + Arrays.stream(values()).map(Timing::cliName).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() {
        return cliName;
    }
}
