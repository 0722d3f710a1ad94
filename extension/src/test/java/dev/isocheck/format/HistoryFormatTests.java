package dev.isocheck.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("HistoryFormat.detect: by name, through .gz; a directory is Cobra only with nothing else")
class HistoryFormatTests {

    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource(nullValues = "none", textBlock = """
            x.jsonl,            jsonl
            x.jsonl.gz,         jsonl
            history.bincode,    dbcop
            history.bincode.gz, dbcop
            history.gz,         none
            notes.txt,          none
            x.jsonl.zip,        none
            x.log,              none
            """)
    void aFileIsJudgedByItsNameWithoutGz(String name, String format) throws IOException {
        Path file = Files.writeString(dir.resolve(name), "");

        assertThat(HistoryFormat.detect(file)).isEqualTo(Optional.ofNullable(format).map(HistoryFormat::fromName));
        assertThat(HistoryFormat.isCompressed(file)).isEqualTo(name.endsWith(".gz"));
    }

    @Test
    void aDirectoryIsCobraOnlyWhenItHoldsLogsAndNoOtherHistory() throws IOException {
        Path logs = Files.createDirectory(dir.resolve("logs"));
        assertThat(HistoryFormat.detect(logs)).isEmpty();
        Files.writeString(logs.resolve("client-0.log"), "");
        Files.createDirectory(logs.resolve("x.jsonl")); // a directory named like a history is no history
        Files.writeString(logs.resolve("notes.txt"), "");
        assertThat(HistoryFormat.detect(logs)).contains(HistoryFormat.COBRA);

        for (String other : new String[] {"w.jsonl", "h.bincode", "w.jsonl.gz", "h.bincode.gz"}) {
            Path mixed = Files.createDirectory(dir.resolve("mixed-" + other));
            Files.writeString(mixed.resolve("client-0.log"), "");
            Files.writeString(mixed.resolve(other), "");
            assertThat(HistoryFormat.detect(mixed)).as(other).isEmpty();
        }
    }
}
