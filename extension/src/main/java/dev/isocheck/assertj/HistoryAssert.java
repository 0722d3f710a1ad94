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
 * AssertJ assertions on a {@link History}: each level assertion checks the history at that level
 * and fails with isocheck's explanation; {@link #hasAnomaly} then asks which anomaly the last
 * violation showed. A check that cannot decide fails every assertion, saying why: it never passes.
 *
 * <pre>{@code
 * assertThat(history).isSerializable();
 * assertThat(history).satisfies(IsolationLevel.SNAPSHOT_ISOLATION)
 *                    .violates(IsolationLevel.SERIALIZABLE)
 *                    .hasAnomaly("write skew");
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.2")
public final class HistoryAssert extends AbstractAssert<HistoryAssert, History> {

    private CheckOptions options = CheckOptions.defaults();
    /** The last violation shown, for {@link #hasAnomaly}; {@code null} before one. */
    private CheckResult violation;

    HistoryAssert(History actual) {
        super(actual, HistoryAssert.class);
    }

    /** Checks with {@code options} (a time limit, the GPU mode) from here on. */
    public HistoryAssert usingOptions(CheckOptions options) {
        this.options = Objects.requireNonNull(options, "options is null");
        return myself;
    }

    /** Asserts that the history is serializable. */
    public HistoryAssert isSerializable() {
        return satisfies(IsolationLevel.SERIALIZABLE);
    }

    /** Asserts that the history satisfies {@code level}; the failure message is the explanation of the violation. */
    public HistoryAssert satisfies(IsolationLevel level) {
        CheckResult result = check(level);
        if (result.isViolated()) {
            failWithMessage("%nExpecting the history to satisfy %s, but it does not:%n%s", level.cliName(), explanation(result));
        }
        return myself;
    }

    /** Asserts that the history violates {@code level}; {@link #hasAnomaly} may then ask how. */
    public HistoryAssert violates(IsolationLevel level) {
        CheckResult result = check(level);
        if (result.isSatisfied()) {
            failWithMessage("%nExpecting the history to violate %s, but it satisfies it (%d transactions)", level.cliName(),
                    actual.size());
        }
        violation = result;
        return myself;
    }

    /**
     * Asserts that the last violation shown (or, when none was asked for, the history checked at
     * serializability) shows an anomaly of {@code type}.
     */
    public HistoryAssert hasAnomaly(AnomalyType type) {
        return hasAnomaly(type.shortName());
    }

    /**
     * Asserts that the last violation shown (or, when none was asked for, the history checked at
     * serializability) shows an anomaly named {@code name}: a type's short name or description
     * ({@code G2-item}, {@code item anti-dependency cycle}) or the familiar name of a cycle shown
     * ({@code lost update}, {@code write skew}, {@code read skew}, {@code stale read},
     * {@code long fork}), in any case.
     */
    public HistoryAssert hasAnomaly(String name) {
        if (violation == null) {
            violates(IsolationLevel.SERIALIZABLE);
        }
        if (!violation.showsAnomaly(name)) {
            failWithMessage("%nExpecting the violation of %s to show a %s, but it shows %s:%n%s", violation.level().cliName(),
                    name, violation.anomaliesShown(), explanation(violation));
        }
        return myself;
    }

    private CheckResult check(IsolationLevel level) {
        isNotNull();
        CheckResult result = Isocheck.check(actual, level, options);
        if (result.isUnknown()) {
            failWithMessage("%nThe check at %s could not decide: %s", level.cliName(), result.unknownReason().orElse("unknown"));
        }
        return result;
    }

    private static String explanation(CheckResult result) {
        return result.explanationText().orElse(String.valueOf(result.verdict()));
    }
}
