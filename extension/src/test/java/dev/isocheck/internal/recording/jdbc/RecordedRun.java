package dev.isocheck.internal.recording.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.AnomalyType;
import dev.isocheck.CheckResult;
import dev.isocheck.explain.Explanation;
import java.util.List;
import dev.isocheck.Isocheck;
import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.recording.RecordedHistory;
import dev.isocheck.internal.recording.Recording;
import javax.sql.DataSource;

/**
 * Runs a workload through {@link Isocheck#record} inside a {@link Recording}, as the JUnit
 * extension will, and checks what was recorded.
 */
final class RecordedRun {

    private RecordedRun() {
    }

    /** A workload run on the recorded data source. */
    @FunctionalInterface
    interface Workload {
        void run(DataSource recorded) throws Exception;
    }

    static RecordedHistory record(String name, DataSource plain, Workload workload) throws Exception {
        Recording recording = new Recording(name);
        try (Recording.Binding ignored = recording.bind()) {
            workload.run(Isocheck.record(plain));
        } catch (Exception | Error e) {
            recording.finish();
            throw e;
        }
        return recording.finish();
    }

    /**
     * The types of the cycles the explanation shows: the verdict alone may say only "no valid
     * order" when the initial values are unknown, the explanation names the cycle.
     */
    static List<AnomalyType> cycleTypes(CheckResult result) {
        if (result.explanation().orElse(null) instanceof Explanation.Cycles cycles) {
            return cycles.cases().stream().map(c -> c.cycle().type()).distinct().toList();
        }
        return result.anomaly().map(a -> List.of(a.type())).orElse(List.of());
    }

    static CheckResult check(RecordedHistory recorded, IsolationLevel level) {
        CheckResult result = Isocheck.check(recorded.history(), level);
        assertThat(result.isUnknown()).as("verdict %s", result.verdict()).isFalse();
        return result;
    }
}
