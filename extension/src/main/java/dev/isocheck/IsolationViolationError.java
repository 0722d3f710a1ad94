package dev.isocheck;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.isocheck.explain.Explanation;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;
import org.opentest4j.AssertionFailedError;

/**
 * Thrown after a {@link SerializableCheck @SerializableCheck} test whose recorded transactions
 * violate the level it is checked at. The message is the whole story: the explanation (each
 * transaction with its thread, connection and SQL), the paths of the HTML report and of the
 * recorded history, and what the recording could not model; the accessors give the same facts to
 * code.
 *
 * <p>The history file is in isocheck's JSON Lines format, so {@code java -jar isocheck.jar check
 * --level LEVEL FILE} checks it again without the test and prints the same explanation.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class IsolationViolationError extends AssertionFailedError {

    private static final long serialVersionUID = 1L;

    // Transient: explanations and paths do not serialise, and the message carries them anyway.
    private final transient CheckResult result;
    private final transient Path reportFile;
    private final transient Path historyFile;
    private final transient List<String> notModelled;

    IsolationViolationError(String message, CheckResult result, Path reportFile, Path historyFile, List<String> notModelled) {
        super(message);
        this.result = Objects.requireNonNull(result, "result is null");
        if (!result.isViolated()) {
            throw new IllegalArgumentException("not a violation: " + result.verdict());
        }
        this.reportFile = Objects.requireNonNull(reportFile, "reportFile is null");
        this.historyFile = Objects.requireNonNull(historyFile, "historyFile is null");
        this.notModelled = List.copyOf(notModelled);
    }

    /** The level the test was checked at. */
    public IsolationLevel level() {
        return result.level();
    }

    /**
     * The anomaly the checking engine reported.
     *
     * @return never {@code null}
     */
    public Anomaly anomaly() {
        return result.anomaly().orElseThrow();
    }

    /**
     * The explanation the message shows as text.
     *
     * @return never {@code null}; an {@link Explanation.Unexplained} when none could be given
     */
    public Explanation explanation() {
        return result.explanation().orElseThrow();
    }

    /** The whole result of the check: the verdict, the explanation and how long each took. */
    public CheckResult result() {
        return result;
    }

    /** The HTML report of the violation. */
    public Path reportFile() {
        return reportFile;
    }

    /** The recorded history, in JSON Lines, for {@code isocheck.jar check}. */
    public Path historyFile() {
        return historyFile;
    }

    /**
     * What the recording saw but could not model, and so the check did not cover, each as
     * {@code subject: reason}.
     *
     * @return never {@code null} but potentially empty
     */
    public List<String> notModelled() {
        return notModelled;
    }
}
