package dev.isocheck.bench;

import dev.isocheck.IsolationLevel;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * One anomaly that {@link Workloads} can add to a serial history: two transactions (concurrent,
 * but for the stale read), in two existing sessions, on two fresh keys that start at {@code 0} and
 * that no other transaction touches, so the anomaly is the only reason the history fails a level.
 */
public enum InjectedAnomaly {

    /** No anomaly: the history stays serial. */
    NONE("none"),

    /**
     * Both transactions read {@code x = 0} and write {@code x}: every order loses one update.
     * Forbidden from snapshot isolation up (by first committer wins); causal consistency and the
     * levels below it allow it (the two are concurrent).
     */
    LOST_UPDATE("lost-update"),

    /**
     * Both read {@code x = 0} and {@code y = 0}; one writes {@code x}, the other {@code y}.
     * Not serializable, but snapshot isolation allows it.
     */
    WRITE_SKEW("write-skew"),

    /**
     * One writes {@code x} and {@code y}; the other reads the old {@code x} and then the new {@code y}.
     * Forbidden from read atomic up: no snapshot holds half of a transaction. Read committed allows
     * it (the new {@code y} was committed when it was read).
     */
    READ_SKEW("read-skew"),

    /**
     * One writes {@code x} and is acknowledged; the other starts after that and reads the old
     * {@code x}. Serializable (the reader comes first) but not strictly serializable: what a
     * replica behind its primary gives. Only strict serializability sees it, and only with times.
     */
    STALE_READ("stale-read");

    private final String cliName;

    InjectedAnomaly(String cliName) {
        this.cliName = cliName;
    }

    /** The name on the benchmark's command line, e.g. {@code lost-update}. */
    public String cliName() {
        return cliName;
    }

    /** Whether a history holding this anomaly violates {@code level}. */
    public boolean violates(IsolationLevel level) {
        return switch (this) {
            case NONE -> false;
            case LOST_UPDATE -> level.compareTo(IsolationLevel.SNAPSHOT_ISOLATION) <= 0;
            case READ_SKEW -> level != IsolationLevel.READ_COMMITTED;
            case WRITE_SKEW -> level.compareTo(IsolationLevel.SNAPSHOT_ISOLATION) < 0;
            case STALE_READ -> level == IsolationLevel.STRICT_SERIALIZABLE;
        };
    }

    /**
     * The anomaly named so (case-insensitive; {@code _} accepted for {@code -}).
     *
     * @throws IllegalArgumentException naming the anomalies there are, if none is called so
     */
    public static InjectedAnomaly fromName(String name) {
        String normal = name.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        for (InjectedAnomaly a : values()) {
            if (a.cliName.equals(normal)) {
                return a;
            }
        }
        throw new IllegalArgumentException("unknown anomaly '" + name + "'; the anomalies are "
                + Arrays.stream(values()).map(InjectedAnomaly::cliName).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() {
        return cliName;
    }
}
