package dev.isocheck.internal.saturate;

/**
 * The levels below snapshot isolation, as axioms over a commit order {@code co} that contains
 * session order and write-read order (Biswas and Enea, "On the complexity of checking
 * transactional consistency", OOPSLA 2019, section 3), weakest first. Each axiom says: when
 * {@code t3} reads key {@code x} from {@code t2}, and another writer {@code t1} of {@code x} is
 * visible to {@code t3} in the level's sense, then {@code t1} commits before {@code t2}.
 */
public enum WeakLevel {

    /** {@code t3} read something {@code t1} wrote in an operation before the read of {@code x}. */
    READ_COMMITTED("read-committed", "Read Committed"),

    /** {@code t3} read anything {@code t1} wrote, or {@code t1} is an earlier transaction of {@code t3}'s session. */
    READ_ATOMIC("read-atomic", "Read Atomic"),

    /** {@code t1} precedes {@code t3} causally: a chain of session order and write-read edges. */
    CAUSAL("causal", "Causal"),

    /** {@code t1} commits before (or is) a transaction that precedes {@code t3} by session order or write-read. */
    PREFIX("prefix", "Prefix");

    private final String cliName;
    private final String axiom;

    WeakLevel(String cliName, String axiom) {
        this.cliName = cliName;
        this.axiom = axiom;
    }

    /** The weak level of {@code level}, if it is one of those decided by saturation (not prefix). */
    public static java.util.Optional<WeakLevel> of(dev.isocheck.IsolationLevel level) {
        return switch (level) {
            case READ_COMMITTED -> java.util.Optional.of(READ_COMMITTED);
            case READ_ATOMIC -> java.util.Optional.of(READ_ATOMIC);
            case CAUSAL -> java.util.Optional.of(CAUSAL);
            case STRICT_SERIALIZABLE, SERIALIZABLE, SNAPSHOT_ISOLATION, PREFIX -> java.util.Optional.empty();
        };
    }

    /** The levels the search engine decides (serializability and snapshot isolation), strongest first. */
    public static dev.isocheck.IsolationLevel[] searchedLevels() {
        return new dev.isocheck.IsolationLevel[] {dev.isocheck.IsolationLevel.STRICT_SERIALIZABLE,
            dev.isocheck.IsolationLevel.SERIALIZABLE, dev.isocheck.IsolationLevel.SNAPSHOT_ISOLATION};
    }

    /** The level's name on the command line, e.g. {@code read-atomic}. */
    public String cliName() {
        return cliName;
    }

    /** The axiom's name, e.g. {@code Read Atomic}. */
    public String axiom() {
        return axiom;
    }
}
