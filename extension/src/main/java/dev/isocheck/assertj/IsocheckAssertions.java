package dev.isocheck.assertj;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.isocheck.Recording;
import dev.isocheck.history.History;
import org.apiguardian.api.API;

/**
 * Entry point of isocheck's AssertJ assertions, imported statically beside AssertJ's own:
 *
 * <pre>{@code
 * import static dev.isocheck.assertj.IsocheckAssertions.assertThat;
 *
 * assertThat(history).isSerializable();
 * assertThat(history).violates(IsolationLevel.SERIALIZABLE).hasAnomaly("write skew");
 * assertThat(recording).isSerializable().hasNothingLeftOut();
 * assertThat(recording.since(mark)).violates(IsolationLevel.SERIALIZABLE);
 * }</pre>
 */
@API(status = EXPERIMENTAL, since = "0.2")
public final class IsocheckAssertions {

    private IsocheckAssertions() {
    }

    /**
     * Assertions on the running test's recording (a parameter of the test method): the history
     * recorded so far, and what was left out of it.
     */
    public static RecordingAssert assertThat(Recording recording) {
        return new RecordingAssert(recording);
    }

    /** Assertions on {@code history}, checked when an assertion asks. */
    public static HistoryAssert assertThat(History history) {
        return new HistoryAssert(history);
    }
}
