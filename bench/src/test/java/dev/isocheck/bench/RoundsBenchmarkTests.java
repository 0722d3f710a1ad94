package dev.isocheck.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.Isocheck;
import dev.isocheck.IsolationLevel;
import dev.isocheck.format.JsonlHistoryReader;
import dev.isocheck.history.History;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The rounds benchmark's long history is what it says: runs continuing one another, serial but for the anomalies. */
class RoundsBenchmarkTests {

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = Timing.class, names = {"SERIAL", "OVERLAPPING"})
    void runsContinueOneAnotherSoTheWholeIsStrictlySerializable(Timing timing) throws Exception {
        Path file = dir.resolve("clean.jsonl");
        RoundsBenchmark.write(file, Workloads.Kind.YCSB_DUP, 4, 400, new InjectedAnomaly[] {InjectedAnomaly.NONE}, timing);
        History whole = new JsonlHistoryReader().read(file);
        assertThat(whole.size()).isEqualTo(1_600);
        assertThat(Isocheck.check(whole, IsolationLevel.STRICT_SERIALIZABLE).verdict().isSatisfied()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(value = Timing.class, names = {"SERIAL", "OVERLAPPING"})
    void eachRunsAnomalyIsTheOnlyViolationOfItsRun(Timing timing) throws Exception {
        for (InjectedAnomaly anomaly : new InjectedAnomaly[] {InjectedAnomaly.LOST_UPDATE, InjectedAnomaly.STALE_READ}) {
            Path file = dir.resolve(anomaly.cliName() + ".jsonl");
            RoundsBenchmark.write(file, Workloads.Kind.YCSB_DUP, 3, 300, new InjectedAnomaly[] {anomaly}, timing);
            History whole = new JsonlHistoryReader().read(file);
            var result = Isocheck.check(whole, IsolationLevel.STRICT_SERIALIZABLE);
            assertThat(result.verdict().isViolated()).isTrue();
            assertThat(result.anomaly().orElseThrow().transactions()).allMatch(id -> id.contains(":anomaly-"));
        }
    }
}
