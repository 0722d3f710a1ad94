package dev.isocheck.internal.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.Isocheck;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("the background warm-up: never beside another check, never left running")
class BackgroundTests {

    @Test
    void aCheckOfAnotherThreadStopsItAndWaitsForItsStepFirst() {
        Background.startNow(IsolationLevel.SERIALIZABLE);

        assertThat(Isocheck.check(TrainingWorkload.generate(7, 4, 10, 20, true).asRows(), IsolationLevel.SERIALIZABLE)
                .verdict()).isInstanceOf(Verdict.Violated.class);
        assertThat(Background.running()).isFalse();
    }

    @Test
    void stoppingItWaitsForItToEnd() {
        Background.startNow(IsolationLevel.SNAPSHOT_ISOLATION);

        Background.stop();
        assertThat(Background.running()).isFalse();
        // Stopped with nothing running: nothing to wait for.
        Background.stop();
        Background.beforeCheck();
    }
}
