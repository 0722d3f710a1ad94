package dev.isocheck.assertj;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.isocheck.AnomalyType;
import dev.isocheck.CheckOptions;
import dev.isocheck.CheckResult;
import dev.isocheck.Isocheck;
import dev.isocheck.IsolationLevel;
import dev.isocheck.history.History;
import java.util.Objects;
import org.apiguardian.api.API;
import org.assertj.core.api.AbstractAssert;

/**
 * The assertions {@link HistoryAssert} and {@link RecordingAssert} share: each level assertion
 * checks a history at that level and fails with isocheck's explanation; {@link #hasAnomaly} then
 * asks which anomaly the last violation showed. A check that cannot decide fails every assertion,
 * saying why: it never passes.
 *
 * @param <SELF>   the assertion's own type, for chaining
 * @param <ACTUAL> what is asserted on: a history, or a test's recording
 */
@API(status = EXPERIMENTAL, since = "0.2")
public abstract class AbstractHistoryAssert<SELF extends AbstractHistoryAssert<SELF, ACTUAL>, ACTUAL>
        extends AbstractAssert<SELF, ACTUAL> {

    private CheckOptions options = CheckOptions.defaults();
    /** The last violation shown, for {@link #hasAnomaly}; {@code null} before one. */
    private CheckResult violation;

    AbstractHistoryAssert(ACTUAL actual, Class<?> selfType) {
        super(actual, selfType);
    }

    /** The history to check, taken from {@code actual} (not null). */
    abstract History history();

    /** What a failure message adds after the explanation: what the history left out, if anything. */
    String afterExplanation() {
        return "";
    }

    /** Checks with {@code options} (a time limit, the GPU mode) from here on. */
    public SELF usingOptions(CheckOptions options) {
        this.options = Objects.requireNonNull(options, "options is null");
        return myself;
    }

    /** Asserts that the history is serializable. */
    public SELF isSerializable() {
        return satisfies(IsolationLevel.SERIALIZABLE);
    }

    /** Asserts that the history satisfies {@code level}; the failure message is the explanation of the violation. */
    public SELF satisfies(IsolationLevel level) {
        CheckResult result = check(level);
        if (result.isViolated()) {
            failWithMessage("%nExpecting the history to satisfy %s, but it does not:%n%s%s", level.cliName(), explanation(result),
                    afterExplanation());
        }
        return myself;
    }

    /** Asserts that the history violates {@code level}; {@link #hasAnomaly} may then ask how. */
    public SELF violates(IsolationLevel level) {
        CheckResult result = check(level);
        if (result.isSatisfied()) {
            failWithMessage("%nExpecting the history to violate %s, but it satisfies it (%d transactions)%s", level.cliName(),
                    history().size(), afterExplanation());
        }
        violation = result;
        return myself;
    }

    /**
     * Asserts that the last violation shown (or, when none was asked for, the history checked at
     * serializability) shows an anomaly of {@code type}.
     */
    public SELF hasAnomaly(AnomalyType type) {
        return hasAnomaly(type.shortName());
    }

    /**
     * Asserts that the last violation shown (or, when none was asked for, the history checked at
     * serializability) shows an anomaly named {@code name}: a type's short name or description
     * ({@code G2-item}, {@code item anti-dependency cycle}) or the familiar name of a cycle shown
     * ({@code lost update}, {@code write skew}, {@code read skew}, {@code stale read},
     * {@code long fork}), in any case.
     */
    public SELF hasAnomaly(String name) {
        if (violation == null) {
            violates(IsolationLevel.SERIALIZABLE);
        }
        if (!violation.showsAnomaly(name)) {
            failWithMessage("%nExpecting the violation of %s to show a %s, but it shows %s:%n%s%s", violation.level().cliName(),
                    name, violation.anomaliesShown(), explanation(violation), afterExplanation());
        }
        return myself;
    }

    private CheckResult check(IsolationLevel level) {
        isNotNull();
        CheckResult result = Isocheck.check(history(), level, options);
        if (result.isUnknown()) {
            failWithMessage("%nThe check at %s could not decide: %s", level.cliName(), result.unknownReason().orElse("unknown"));
        }
        return result;
    }

    private static String explanation(CheckResult result) {
        return result.explanationText().orElse(String.valueOf(result.verdict()));
    }
}
