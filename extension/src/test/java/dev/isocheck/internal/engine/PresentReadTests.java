package dev.isocheck.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.IsolationLevel;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.UnknownInitialValues;
import dev.isocheck.internal.reference.ReferenceChecker;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A read of a row's key columns alone ({@code {"id": 2}}), which the recorder puts before an
 * UPDATE or DELETE whose old row it does not know, means "present with this key": any present
 * version of the row explains it, an absent one never does (docs/semantics.md, partial rows).
 */
@DisplayName("a read of a row's key alone: the row was present")
class PresentReadTests {

    private static final Map<String, Object> PRESENT = Map.of("id", 2);

    @Test
    void anyPresentVersionExplainsIt() {
        HistoryBuilder b = History.builder().initialStateComplete(true);
        b.transaction("T1").session("a").times(1, 2).write("doctors/2", Map.of("id", 2, "on_call", true));
        b.transaction("T2").session("b").times(3, 4).read("doctors/2", PRESENT)
                .write("doctors/2", Map.of("id", 2, "on_call", false));
        b.transaction("T3").session("a").times(5, 6).read("doctors/2", PRESENT).write("doctors/2", null);

        assertSatisfiedEverywhere(b.build());
    }

    @Test
    void anAbsentRowNeverExplainsIt() {
        // The row never existed: nothing explains the UPDATE's finding it.
        HistoryBuilder never = History.builder().initialStateComplete(true);
        never.transaction("T1").read("doctors/2", PRESENT).write("doctors/2", Map.of("id", 2, "on_call", false));
        assertViolatedEverywhere(never.build());

        // Deleted before, in real time: the UPDATE after it cannot have found it.
        HistoryBuilder deleted = History.builder();
        deleted.transaction("T1").times(1, 2).write("doctors/2", null);
        deleted.transaction("T2").times(3, 4).read("doctors/2", PRESENT).write("doctors/2", Map.of("id", 2, "on_call", false));
        History h = deleted.build();
        assertThat(new ReferenceChecker().check(h, IsolationLevel.STRICT_SERIALIZABLE).isViolated()).isTrue();
        assertThat(new CheckPipeline().check(h, IsolationLevel.STRICT_SERIALIZABLE).isViolated()).isTrue();
    }

    @Test
    void withUnknownInitialValuesItIsAnObservationOfAPresentInitialRow() {
        // The initial row read absent by one and present by another: they cannot both have read it.
        HistoryBuilder b = History.builder().unknownInitialValues(UnknownInitialValues.ANY);
        b.transaction("T1").readAbsent("doctors/2");
        b.transaction("T2").read("doctors/2", PRESENT).write("doctors/2", Map.of("id", 2, "on_call", false));
        b.transaction("T3").read("doctors/2", Map.of("id", 2, "on_call", false));
        // T1 read the initial (absent) version; T2's present read can only be of the initial one too.
        assertViolatedEverywhere(b.build());

        // Present and of any value: a row written later with the same values changes nothing.
        HistoryBuilder any = History.builder().unknownInitialValues(UnknownInitialValues.ANY);
        any.transaction("T1").session("a").read("doctors/2", PRESENT).write("doctors/2", Map.of("id", 2, "on_call", true));
        any.transaction("T2").session("a").read("doctors/2", PRESENT).write("doctors/2", Map.of("id", 2, "on_call", true));
        any.transaction("T3").read("doctors/2", Map.of("id", 2, "on_call", true));
        assertSatisfiedEverywhere(any.build());
    }

    @Test
    void afterTheTransactionsOwnWritesItIsAnInternalRead() {
        // Inserted and updated in one transaction; deleted and inserted again; moved to another key.
        HistoryBuilder b = History.builder().initialStateComplete(true);
        b.transaction("T1").write("doctors/2", Map.of("id", 2, "on_call", true))
                .read("doctors/2", PRESENT).write("doctors/2", Map.of("id", 2, "on_call", false));
        b.transaction("T2").read("doctors/2", PRESENT).write("doctors/2", null)
                .write("doctors/2", Map.of("id", 2, "on_call", true))
                .read("doctors/2", PRESENT).write("doctors/2", Map.of("id", 2, "on_call", false));
        b.transaction("T3").read("doctors/2", PRESENT).write("doctors/2", null)
                .write("doctors/3", Map.of("id", 3, "on_call", false));
        b.transaction("T4").readAbsent("doctors/2").read("doctors/3", Map.of("id", 3, "on_call", false));
        assertSatisfiedEverywhere(b.build());

        // Own delete, then a present read before any insert: contradicts the transaction itself.
        HistoryBuilder own = History.builder();
        own.transaction("T1").write("doctors/2", null).read("doctors/2", PRESENT).write("doctors/2", Map.of("id", 2));
        assertViolatedEverywhere(own.build());
    }

    private static void assertSatisfiedEverywhere(History h) {
        for (IsolationLevel level : IsolationLevel.values()) {
            assertThat(new ReferenceChecker().check(h, level).isSatisfied()).as("reference at %s", level).isTrue();
            assertThat(new CheckPipeline().check(h, level).isSatisfied()).as("pipeline at %s", level).isTrue();
        }
    }

    private static void assertViolatedEverywhere(History h) {
        for (IsolationLevel level : IsolationLevel.values()) {
            assertThat(new ReferenceChecker().check(h, level).isViolated()).as("reference at %s", level).isTrue();
            assertThat(new CheckPipeline().check(h, level).isViolated()).as("pipeline at %s", level).isTrue();
        }
    }
}
