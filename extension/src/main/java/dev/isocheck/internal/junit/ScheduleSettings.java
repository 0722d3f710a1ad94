package dev.isocheck.internal.junit;

import dev.isocheck.internal.limit.DurationText;
import dev.isocheck.internal.schedule.Timing;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The run-wide settings of interleaving tests, read from JUnit's configuration parameters as
 * {@link Configuration} reads its own.
 *
 * @param schedules how many schedules a test explores unless its annotation says
 *                  ({@value #SCHEDULES}); defaults to {@value #DEFAULT_SCHEDULES}
 * @param timing    the gate's waits, the stall timeout ({@value #STALL}, default 10 s) among them
 */
public record ScheduleSettings(int schedules, Timing timing) {

    /** The configuration parameter giving the default number of schedules. */
    public static final String SCHEDULES = "isocheck.schedules";

    /** The configuration parameter giving how long a run may stall before it is stopped. */
    public static final String STALL = "isocheck.schedules.stall";

    /** The default of {@value #SCHEDULES}. */
    public static final int DEFAULT_SCHEDULES = 20;

    /** Reads the settings through {@code context}; a bad value fails naming the key. */
    public static ScheduleSettings read(ExtensionContext context) {
        int schedules = Configuration.parameter(context, SCHEDULES, ScheduleSettings::positive, "a whole number from 1")
                .orElse(DEFAULT_SCHEDULES);
        Duration stall = Configuration.parameter(context, STALL, v -> Configuration.duration(v).filter(d -> !d.isZero()),
                DurationText.FORMS).orElse(Timing.defaults().stall());
        return new ScheduleSettings(schedules, Timing.defaults().withStall(stall));
    }

    private static Optional<Integer> positive(String value) {
        try {
            int n = Integer.parseInt(value.strip());
            return n >= 1 ? Optional.of(n) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
