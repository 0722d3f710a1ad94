package dev.isocheck;

import dev.isocheck.internal.recording.RecordedHistory;
import dev.isocheck.internal.recording.Recording;
import java.util.concurrent.Callable;

/**
 * The doctors' write skew recorded and checked, for {@link JdbiOptionalTests} to run in a class
 * loader that has no Jdbi: returns the explanation's text.
 */
public final class RecordingWithoutJdbi implements Callable<String> {

    /** For the class loader to instantiate. */
    public RecordingWithoutJdbi() {
    }

    @Override
    public String call() throws Exception {
        Doctors doctors = new Doctors();
        Recording recording = new Recording("without Jdbi");
        try (Recording.Binding ignored = recording.bind()) {
            doctors.writeSkewOnTwoThreads();
        } catch (Exception | Error e) {
            recording.finish();
            throw e;
        }
        RecordedHistory recorded = recording.finish();
        return Isocheck.check(recorded.history(), IsolationLevel.SERIALIZABLE).explanationText().orElse("no violation");
    }
}
