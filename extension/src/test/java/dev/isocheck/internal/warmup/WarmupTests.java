package dev.isocheck.internal.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.isocheck.IsolationLevel;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@DisplayName("the warm-up: checks of its own, stopped between checks")
class WarmupTests {

    @ParameterizedTest
    @EnumSource(IsolationLevel.class)
    void itRunsItsChecksAtEveryLevel(IsolationLevel level) {
        assertThat(Warmup.run(level, () -> false)).isEqualTo(Warmup.SATISFIED_ROUNDS + 1);
    }

    @Test
    void itStopsBeforeItsNextCheckOnceAskedTo() {
        assertThat(Warmup.run(IsolationLevel.SERIALIZABLE, () -> true)).isZero();

        AtomicInteger asked = new AtomicInteger();
        assertThat(Warmup.run(IsolationLevel.SERIALIZABLE, () -> asked.incrementAndGet() > 2)).isEqualTo(2);
    }
}
