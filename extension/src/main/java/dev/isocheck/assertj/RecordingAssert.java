package dev.isocheck.assertj;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.isocheck.Recording;
import dev.isocheck.history.History;
import java.util.List;
import org.apiguardian.api.API;

/**
 * AssertJ assertions on the {@link Recording} of the running test: the level assertions of
 * {@link HistoryAssert} on the history recorded so far (taken once, at the first assertion that
 * needs it, so that a chain asserts on one history), and {@link #hasNothingLeftOut()}.
 *
 * <pre>{@code
 * assertThat(recording).isSerializable().hasNothingLeftOut();
 * }</pre>
 *
 * <p>A failure message ends with what the recording left out of the history, if anything: the
 * verdict does not cover it.
 */
@API(status = EXPERIMENTAL, since = "0.2")
public final class RecordingAssert extends AbstractHistoryAssert<RecordingAssert, Recording> {

    private History history;

    RecordingAssert(Recording actual) {
        super(actual, RecordingAssert.class);
    }

    /**
     * Asserts that the recording left nothing out of the history so far: every table the test
     * touched and every statement it ran was modelled, so a verdict covers all of it.
     */
    public RecordingAssert hasNothingLeftOut() {
        isNotNull();
        List<String> leftOut = actual.leftOut();
        if (!leftOut.isEmpty()) {
            failWithMessage("%nExpecting the recording of %s to have left nothing out of the check, but it left out:%n%s",
                    actual.testName(), lines(leftOut));
        }
        return myself;
    }

    @Override
    History history() {
        if (history == null) {
            history = actual.history();
        }
        return history;
    }

    @Override
    String afterExplanation() {
        List<String> leftOut = actual.leftOut();
        return leftOut.isEmpty() ? "" : String.format("%nLeft out of the recording, so not checked:%n%s", lines(leftOut));
    }

    private static String lines(List<String> entries) {
        StringBuilder out = new StringBuilder();
        entries.forEach(e -> out.append("  ").append(e).append(String.format("%n")));
        return out.toString();
    }
}
