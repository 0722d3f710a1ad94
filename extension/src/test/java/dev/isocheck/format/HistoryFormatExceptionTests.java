package dev.isocheck.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class HistoryFormatExceptionTests {

    @Test
    void theMessageIsTheFileThePlaceAndTheProblem() {
        HistoryFormatException e = new HistoryFormatException(Path.of("h.jsonl"), "12", "unknown op");
        assertThat(e.getMessage()).isEqualTo("h.jsonl:12: unknown op");
        assertThat(new HistoryFormatException(Path.of("c"), "", "no *.log files").getMessage()).isEqualTo("c: no *.log files");
    }

    /** The last bound on what a message echoes, whatever a reader quoted. */
    @Test
    void aProblemOfMegabytesIsCutAndCounted() {
        HistoryFormatException e = new HistoryFormatException(Path.of("h.jsonl"), "1", "x".repeat(10_000_000));
        assertThat(e.problem()).hasSizeLessThan(HistoryFormatException.MAX_PROBLEM + 40)
                .endsWith("x… (9,998,000 more characters)");
        assertThat(e.getMessage()).isEqualTo("h.jsonl:1: " + e.problem());
    }
}
