package dev.isocheck.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.AnomalyType;
import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.graph.ReadAnomalies;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.internal.reference.ReferenceChecker;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * With an unknown initial state, a read of some columns of a row may have read the initial row even
 * when a transaction wrote a row with the same columns: the initial row differs in columns nobody
 * read. Screening, the reference and the pipeline must all accept it (docs/semantics.md).
 */
@DisplayName("unknown initial rows and partial reads")
class UnknownInitialRowsTests {

    @Test
    void aPartialRowReadMayHaveReadTheInitialRowDespiteAnAbortedWriteWithTheSameColumns() {
        HistoryBuilder b = History.builder();
        b.transaction("T1").aborted().write("users/1", Map.of("id", 1, "name", "bo"));
        b.transaction("T2").read("users/1", Map.of("id", 1));
        History h = b.build();

        assertThat(ReadAnomalies.find(h)).isEmpty();
        for (IsolationLevel level : IsolationLevel.values()) {
            assertThat(new ReferenceChecker().check(h, level).isSatisfied()).as("reference at %s", level).isTrue();
            assertThat(new CheckPipeline().check(h, level).isSatisfied()).as("pipeline at %s", level).isTrue();
        }
    }

    @Test
    void aRowReadMatchingTheOnlyCommittedWriteMayStillPrecedeIt() {
        // T2 reads id 1 and then T1, in the same session, rewrites the row: serially T2 comes first
        // and read the initial row. Blaming T1's write would put T1 before T2 against session order.
        HistoryBuilder b = History.builder();
        b.transaction("T2").session("s").read("users/1", Map.of("id", 1));
        b.transaction("T1").session("s").write("users/1", Map.of("id", 1, "name", "bo"));
        History h = b.build();

        assertThat(ReadAnomalies.find(h)).isEmpty();
        assertThat(new ReferenceChecker().check(h, IsolationLevel.SERIALIZABLE).isSatisfied()).isTrue();
    }

    @Test
    void twoIncompatibleObservationsOfTheInitialRowStillConflict() {
        HistoryBuilder b = History.builder();
        b.transaction("T1").read("users/1", Map.of("id", 1, "name", "al"));
        b.transaction("T2").read("users/1", Map.of("id", 1, "name", "bo"));
        History h = b.build();

        assertThat(ReadAnomalies.find(h)).extracting(a -> a.type()).containsExactly(AnomalyType.INITIAL_VALUE_CONFLICT);
        assertThat(new ReferenceChecker().check(h, IsolationLevel.SERIALIZABLE).isViolated()).isTrue();
    }

    @Test
    void aScalarEqualToAWrittenValueIsStillNotTheUnknownInitialValue() {
        HistoryBuilder b = History.builder();
        b.transaction("T1").aborted().write("x", 5);
        b.transaction("T2").read("x", 5);
        History h = b.build();

        assertThat(ReadAnomalies.find(h)).extracting(a -> a.type()).containsExactly(AnomalyType.G1A);
        assertThat(new ReferenceChecker().check(h, IsolationLevel.SERIALIZABLE).isViolated()).isTrue();
    }
}
