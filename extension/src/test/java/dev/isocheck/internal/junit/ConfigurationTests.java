package dev.isocheck.internal.junit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.CheckOptions;
import dev.isocheck.GpuMode;
import dev.isocheck.IsolationLevel;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ConfigurationTests {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "30       | PT30S",
        "30 s     | PT30S",
        "500 ms   | PT0.5S",
        "500ms    | PT0.5S",
        "2 m      | PT2M",
        "1 h      | PT1H",
        "1 d      | PT24H",
        "1 ns     | PT0.000000001S",
        "3 μs     | PT0.000003S",
        "3 US     | PT0.000003S",
    })
    void durationsAreJUnitsTimeoutSyntax(String text, String expected) {
        assertThat(Configuration.duration(text)).contains(Duration.parse(expected));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "0", "0 s", "-1 s", "soon", "1.5 s", "1 week", "99999999999999999999 s"})
    void otherDurationsAreRefused(String text) {
        assertThat(Configuration.duration(text)).isEmpty();
    }

    @Test
    void theExplanationStopsSearchingWithinTheTimeout() {
        Configuration quick = new Configuration(IsolationLevel.SERIALIZABLE, Path.of("r"), Duration.ofSeconds(2), Undecided.FAIL,
                GpuMode.OFF);
        assertThat(quick.checkOptions().explainTimeLimit()).isEqualTo(Duration.ofSeconds(2));
        assertThat(quick.checkOptions().gpuMode()).isEqualTo(GpuMode.OFF);
        Configuration slow = new Configuration(IsolationLevel.SERIALIZABLE, Path.of("r"), Duration.ofHours(1), Undecided.FAIL,
                GpuMode.AUTO);
        assertThat(slow.checkOptions().explainTimeLimit()).isEqualTo(CheckOptions.defaults().explainTimeLimit());
    }

    @Test
    void timeoutsAreWrittenBackAsAUserWouldWriteThem() {
        assertThat(TestCheck.format(Duration.ofSeconds(60))).isEqualTo("60 s");
        assertThat(TestCheck.format(Duration.ofMillis(500))).isEqualTo("500 ms");
        assertThat(TestCheck.format(Duration.ofNanos(3000))).isEqualTo("3 μs");
        assertThat(TestCheck.format(Duration.ofNanos(1))).isEqualTo("1 ns");
    }
}
