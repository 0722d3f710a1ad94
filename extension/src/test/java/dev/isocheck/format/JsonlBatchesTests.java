package dev.isocheck.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.isocheck.history.History;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("JSON Lines read in batches (issue 36): each batch over the file's initial state")
class JsonlBatchesTests {

    private static List<History> batches(String text, int size, List<Long> lines) throws Exception {
        List<History> out = new ArrayList<>();
        new JsonlHistoryReader().readInBatches(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)),
                Path.of("h.jsonl"), size, (batch, line) -> {
                    out.add(batch);
                    lines.add(line);
                }, w -> { });
        return out;
    }

    @Test
    void batchesHoldAtMostTheSizeInFileOrderOverTheInitialState() throws Exception {
        String text = """
                {"init": {"x": 0}, "complete": true}
                {"id": "T1", "session": "a", "ops": [{"op": "write", "key": "x", "value": 1}]}
                {"id": "T2", "session": "b", "ops": [{"op": "read", "key": "x", "value": 1}]}
                // a comment
                {"id": "T3", "session": "a", "ops": [{"op": "write", "key": "y", "value": 2}]}
                """;
        List<Long> lines = new ArrayList<>();
        List<History> read = batches(text, 2, lines);
        assertThat(read).hasSize(2);
        assertThat(read.get(0).transactions()).extracting(t -> t.id()).containsExactly("T1", "T2");
        assertThat(read.get(1).transactions()).extracting(t -> t.id()).containsExactly("T3");
        assertThat(lines).containsExactly(3L, 5L);
        for (History batch : read) {
            assertThat(batch.initialState().isComplete()).isTrue();
            int x = batch.keys().idOf("x");
            assertThat(batch.values().get(batch.initialState().valueOf(x)).toJava()).isEqualTo(0L);
        }
        assertThat(read.get(1).sessions()).extracting(s -> s.name()).containsExactly("a");
    }

    @Test
    void anEmptyFileIsOneEmptyBatch() throws Exception {
        List<History> read = batches("", 5, new ArrayList<>());
        assertThat(read).hasSize(1);
        assertThat(read.get(0).size()).isZero();
    }

    @Test
    void aMalformedLineStopsTheReadingNamingIt() {
        String text = """
                {"id": "T1", "ops": []}
                {"id": "T2", "ops": [
                """;
        assertThatThrownBy(() -> batches(text, 1, new ArrayList<>())).isInstanceOf(HistoryFormatException.class)
                .hasMessageStartingWith("h.jsonl:2: ");
    }
}
