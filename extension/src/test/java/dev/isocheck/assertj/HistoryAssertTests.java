package dev.isocheck.assertj;

import static dev.isocheck.assertj.IsocheckAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.isocheck.AnomalyType;
import dev.isocheck.CheckOptions;
import dev.isocheck.IsolationLevel;
import dev.isocheck.SampleHistories;
import dev.isocheck.history.History;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The AssertJ assertions: what passes, and what fails with which message. */
class HistoryAssertTests {

    private static History writeSkew() {
        return SampleHistories.writeSkew();
    }

    private static History serial() {
        return SampleHistories.serial();
    }

    @Test
    void aSerialHistoryPassesAndAWriteSkewShowsItself() {
        assertThat(serial()).isSerializable().satisfies(IsolationLevel.STRICT_SERIALIZABLE);
        assertThat(writeSkew()).satisfies(IsolationLevel.SNAPSHOT_ISOLATION).violates(IsolationLevel.SERIALIZABLE)
                .hasAnomaly("write skew").hasAnomaly(AnomalyType.G2_ITEM).hasAnomaly("Item anti-dependency cycle");
        assertThat(writeSkew()).hasAnomaly("write skew");
    }

    @Test
    void aViolationFailsWithTheExplanation() {
        assertThatThrownBy(() -> assertThat(writeSkew()).isSerializable()).isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting the history to satisfy serializable, but it does not:")
                .hasMessageContaining("G2-item (write skew) at serializable");
    }

    @Test
    void aSatisfiedLevelFailsViolatesAndAnotherAnomalyFailsHasAnomaly() {
        assertThatThrownBy(() -> assertThat(serial()).violates(IsolationLevel.SERIALIZABLE)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting the history to violate serializable, but it satisfies it (2 transactions)");
        assertThatThrownBy(() -> assertThat(writeSkew()).hasAnomaly("lost update")).isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting the violation of serializable to show a lost update, but it shows [")
                .hasMessageContaining("write skew");
    }

    @Test
    void aCheckThatCannotDecideNeverPasses() {
        CheckOptions instant = CheckOptions.defaults().withTimeLimit(Duration.ofNanos(1));
        assertThatThrownBy(() -> assertThat(writeSkew()).usingOptions(instant).satisfies(IsolationLevel.SERIALIZABLE))
                .isInstanceOf(AssertionError.class).hasMessageContaining("could not decide");
    }
}
