package dev.isocheck.assertj;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.isocheck.history.History;
import org.apiguardian.api.API;

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
public final class HistoryAssert extends AbstractHistoryAssert<HistoryAssert, History> {

    HistoryAssert(History actual) {
        super(actual, HistoryAssert.class);
    }

    @Override
    History history() {
        return actual;
    }
}
