package dev.isocheck.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.format.JsonlHistoryReader;
import dev.isocheck.history.History;
import java.net.URL;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A history recorded on PostgreSQL at READ COMMITTED, 200 transfers from 16 threads over 5
 * accounts (samples/recorded/README.md): what a team asserting their database's default level
 * would check. Every read may have seen the unknown initial row or a write, the guesses by file
 * order make reads of one initial value disagree (the recorder lists transactions by start), the
 * history is neither serializable nor snapshot isolated, and the search over choices gives up
 * long before it ends: the guess from the recorded times, repaired cycle by cycle, decides it.
 */
@DisplayName("a recorded PostgreSQL READ COMMITTED history on hot rows")
class RecordedHotRowsTests {

    private static History recorded() throws Exception {
        URL url = RecordedHotRowsTests.class.getResource("/samples/recorded/postgres-read-committed-hot-rows.jsonl");
        assertThat(url).as("the recorded history on the test classpath").isNotNull();
        return new JsonlHistoryReader().read(Path.of(url.toURI()));
    }

    @Test
    void satisfiesReadCommittedButNotSerializability() throws Exception {
        History history = recorded();
        CheckPipeline pipeline = new CheckPipeline();

        assertThat(pipeline.check(history, IsolationLevel.READ_COMMITTED)).isInstanceOfSatisfying(Verdict.Satisfied.class,
                s -> assertThat(s.witness()).hasSize(history.committedCount()));
        assertThat(pipeline.check(history, IsolationLevel.SERIALIZABLE)).isInstanceOf(Verdict.Violated.class);
        assertThat(pipeline.check(history, IsolationLevel.SNAPSHOT_ISOLATION)).isInstanceOf(Verdict.Violated.class);
    }

    /** With no budget for the search over choices, only the guesses and the stronger orders decide. */
    @Test
    void isDecidedAtReadCommittedWithoutTheSearchOverChoices() throws Exception {
        History history = recorded();

        assertThat(new CheckPipeline(0).check(history, IsolationLevel.READ_COMMITTED)).isInstanceOf(Verdict.Satisfied.class);
    }
}
