package dev.isocheck;

import static org.apiguardian.api.API.Status.STABLE;

import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * The answer of a check: the history {@link Satisfied satisfies} the level (with a witness
 * order), {@link Violated violates} it (with an anomaly), or the checker could not decide
 * ({@link Unknown}, never to be read as a pass).
 */
@API(status = STABLE, since = "0.1")
public sealed interface Verdict permits Verdict.Satisfied, Verdict.Violated, Verdict.Unknown {

    /** The level checked. */
    IsolationLevel level();

    /** Whether the history was shown to satisfy the level. */
    default boolean isSatisfied() {
        return this instanceof Satisfied;
    }

    /** Whether the history was shown to violate the level. */
    default boolean isViolated() {
        return this instanceof Violated;
    }

    /**
     * The history satisfies the level.
     *
     * @param level   the level checked
     * @param witness ids of the committed transactions in an order that explains every read
     *                (for snapshot isolation and prefix consistency, the commit order; for causal, read atomic and read
     *                committed, a commit order that satisfies the level's axiom for some choice
     *                of the writes the reads saw); a test can replay it at the serializable levels
     * @param caveats what the check could not model and so did not hold the history to, in words
     *                (a predicate read whose {@code where} is unsupported: its returned rows were
     *                checked, its other rows not; real-time order at strict serializability for
     *                transactions without start or end times; nothing at all in a history without
     *                committed transactions); empty when everything was checked
     */
    record Satisfied(IsolationLevel level, List<String> witness, List<String> caveats) implements Verdict {
        /** Validates and copies. */
        public Satisfied {
            Objects.requireNonNull(level, "level is null");
            witness = List.copyOf(witness);
            caveats = List.copyOf(caveats);
        }

        /** Satisfied with nothing left unchecked. */
        public Satisfied(IsolationLevel level, List<String> witness) {
            this(level, witness, List.of());
        }
    }

    /**
     * The history violates the level.
     *
     * @param level   the level checked
     * @param anomaly the evidence
     */
    record Violated(IsolationLevel level, Anomaly anomaly) implements Verdict {
        /** Validates. */
        public Violated {
            Objects.requireNonNull(level, "level is null");
            Objects.requireNonNull(anomaly, "anomaly is null");
        }
    }

    /**
     * The checker could not decide, for the reason given: a time limit or memory budget exceeded
     * (naming it and the stage), or what the engine cannot model. Never a pass.
     *
     * @param level  the level checked
     * @param reason why, in words
     */
    record Unknown(IsolationLevel level, String reason) implements Verdict {
        /** Validates. */
        public Unknown {
            Objects.requireNonNull(level, "level is null");
            Objects.requireNonNull(reason, "reason is null");
        }
    }
}
