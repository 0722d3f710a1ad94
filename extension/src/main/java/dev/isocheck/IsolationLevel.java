package dev.isocheck;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/** The isolation levels a history can be checked at, strongest first. */
@API(status = STABLE, since = "0.1")
public enum IsolationLevel {

    /** Serializable, respecting also real time: {@code end(a) < start(b)} puts a before b. */
    STRICT_SERIALIZABLE("strict-serializable"),

    /** Some total order of the committed transactions, respecting session order, replays every read. */
    SERIALIZABLE("serializable"),

    /** Reads from a snapshot that is a prefix of the commit order; concurrent writers of a key cannot both commit. */
    SNAPSHOT_ISOLATION("snapshot-isolation");

    private final String cliName;

    IsolationLevel(String cliName) {
        this.cliName = cliName;
    }

    /** The level's name on the command line and in JSON verdicts, e.g. {@code snapshot-isolation}. */
    public String cliName() {
        return cliName;
    }

    /**
     * The level named {@code name} (its {@link #cliName()}, case-insensitive; {@code _} accepted for {@code -}).
     *
     * @throws IllegalArgumentException naming the levels there are, if none is called so
     */
    public static IsolationLevel fromName(String name) {
        String normal = name.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        for (IsolationLevel level : values()) {
            if (level.cliName.equals(normal)) {
                return level;
            }
        }
        throw new IllegalArgumentException("unknown isolation level '" + name + "'; the levels are "
                + Arrays.stream(values()).map(IsolationLevel::cliName).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() {
        return cliName;
    }
}
