package dev.isocheck;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apiguardian.api.API;

/**
 * The isolation levels a history can be checked at, strongest first. The four below snapshot
 * isolation follow Biswas and Enea's axioms: prefix consistency is decided as the serializability
 * of the history with each transaction split into its reads and its writes, the three weakest by
 * saturation.
 */
@API(status = STABLE, since = "0.1")
public enum IsolationLevel {

    /** Serializable, respecting also real time: {@code end(a) < start(b)} puts a before b. */
    STRICT_SERIALIZABLE("strict-serializable"),

    /** Some total order of the committed transactions, respecting session order, replays every read. */
    SERIALIZABLE("serializable"),

    /** Reads from a snapshot that is a prefix of the commit order; concurrent writers of a key cannot both commit. */
    SNAPSHOT_ISOLATION("snapshot-isolation"),

    /**
     * Prefix consistency: every transaction reads from a snapshot that is a prefix of the commit
     * order holding its session's earlier transactions, as under snapshot isolation, but concurrent
     * writers of a key may both commit (a lost update is allowed; a long fork, two readers seeing
     * two writers' commits in opposite orders, is not).
     */
    PREFIX("prefix"),

    /**
     * Causal consistency: a transaction sees the writes of every transaction that causally
     * precedes it (by session order and what it read, transitively), each installed after the
     * versions they overwrote; concurrent transactions may be seen in different orders.
     */
    CAUSAL("causal"),

    /**
     * Read atomic: a transaction sees all of another transaction's writes or none of them (no
     * fractured reads), and its own session's earlier writes.
     */
    READ_ATOMIC("read-atomic"),

    /**
     * Read committed: every read sees a committed, final write, and once a read has seen a
     * transaction's writes, later reads of the same transaction see those or newer ones
     * (PostgreSQL's and most databases' default level).
     */
    READ_COMMITTED("read-committed");

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
