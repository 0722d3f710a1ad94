package dev.isocheck;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.isocheck.history.History;
import java.util.List;
import org.apiguardian.api.API;

/**
 * The recording of the running test, for a test that wants to look at it before the check after
 * its body: declare a parameter of this type on a test method (or a {@code @BeforeEach} or
 * {@code @AfterEach} method) of a {@link SerializableCheck @SerializableCheck} class, as one
 * declares {@code TestInfo}.
 *
 * <pre>{@code
 * @SerializableCheck(level = IsolationLevel.SNAPSHOT_ISOLATION)
 * class RotaTests {
 *
 *     @Test
 *     void snapshotIsolationLetsTwoDoctorsGoOffCall(Recording recording) throws Exception {
 *         fillTheRota();
 *         Recording.Mark concurrent = recording.mark();
 *         bothDoctorsGoOffCallAtOnce();
 *         assertThat(recording.since(concurrent))
 *                 .violates(IsolationLevel.SERIALIZABLE)
 *                 .hasAnomaly("write skew");
 *         assertThat(recording).hasNothingLeftOut();
 *     }
 * }
 * }</pre>
 *
 * <p>The check after the body still checks everything the test recorded, at the test's level; a
 * recording's history checked at another level, or a slice of it, is for assertions of the test's
 * own ({@code dev.isocheck.assertj}, {@code dev.isocheck.hamcrest}). A test that documents an
 * anomaly at its own level names it in {@link SerializableCheck#expect()}.
 *
 * <p>A history asked for holds the transactions that had finished when it was asked for, built as
 * the check after the body builds it (with PostgreSQL's logical decoding, the database's log is
 * read and left as it was). A transaction still running on another thread is not in it yet. Once
 * the body has run, it is the history the check after the body checked. Thread-safe.
 */
@API(status = EXPERIMENTAL, since = "0.2")
public interface Recording {

    /** The test's name, as messages give it: its class and display name. */
    String testName();

    /** The level the test is checked at after its body, as {@link SerializableCheck} chose it. */
    IsolationLevel level();

    /** Every transaction the test has finished so far. */
    History history();

    /**
     * A point in the test: the transactions that start after it are those of
     * {@link #since(Mark)}.
     */
    Mark mark();

    /**
     * The slice of the test that began at {@code mark}: every transaction finished so far, where
     * those that started before the mark keep their writes and lose their reads. The earlier writes
     * stay because the slice's reads may have seen them, and a value no transaction of the history
     * wrote is taken for an initial value, of which a key has one: two reads of two values written
     * before the mark would otherwise look impossible. Taking reads away only takes constraints
     * away, so a slice violates a level only where the whole test does, and the anomalies it shows
     * go through the slice's reads.
     *
     * @throws IllegalArgumentException when {@code mark} was not made by this recording
     */
    History since(Mark mark);

    /** Checks {@link #history()} at the test's level now, with the run's configured options (its time limit, the GPU). */
    CheckResult check();

    /** Checks {@link #history()} at {@code level} now, with the run's configured options. */
    CheckResult check(IsolationLevel level);

    /**
     * What the recording saw so far but left out of the history, each entry naming a table or a
     * statement and why (a table the recorder could not see the writes of, a statement it could not
     * analyse); empty when everything was modelled. The check after the body reports the same
     * entries, and aborts or fails a passing test over a table left out (configuration parameter
     * {@code isocheck.left-out}).
     */
    List<String> leftOut();

    /**
     * A point in a test, made by {@link Recording#mark()}: only the recording that made it takes
     * it back.
     */
    @API(status = EXPERIMENTAL, since = "0.2")
    interface Mark {
    }
}
