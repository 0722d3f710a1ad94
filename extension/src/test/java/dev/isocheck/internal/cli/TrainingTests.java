package dev.isocheck.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.Isocheck;
import dev.isocheck.IsolationLevel;
import dev.isocheck.format.HistoryFormat;
import dev.isocheck.format.HistoryReader;
import dev.isocheck.history.History;
import dev.isocheck.internal.warmup.TrainingWorkload;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@DisplayName("the training run of the check command's class-data archive")
class TrainingTests {

    @TempDir
    Path dir;

    @Test
    void everyCommandOfTheTrainingGivesTheVerdictItsWorkloadWasBuiltFor() throws Exception {
        assertThat(Training.run(dir)).isTrue();
        assertThat(dir.resolve("reports")).isDirectoryContaining(path -> path.toString().endsWith(".html"));
    }

    @Test
    void eachFormatReadsBackTheWorkloadsTransactionsAndVerdict() throws Exception {
        TrainingWorkload lost = TrainingWorkload.generate(7, 4, 10, 12, true);
        List<Path> files = TrainingFiles.write(lost, dir, "lost");
        int transactions = lost.sessions().stream().mapToInt(List::size).sum();

        for (Path file : files) {
            HistoryFormat format = Files.isDirectory(file) ? HistoryFormat.COBRA : HistoryFormat.detect(file).orElseThrow();
            History history = HistoryReader.of(format).read(file);
            assertThat(history.size()).as(file.toString()).isEqualTo(transactions);
            assertThat(Isocheck.check(history, IsolationLevel.SERIALIZABLE).isViolated()).as(file.toString()).isTrue();
            assertThat(Isocheck.check(history, IsolationLevel.READ_COMMITTED).isSatisfied()).as(file.toString()).isTrue();
        }
    }
}
