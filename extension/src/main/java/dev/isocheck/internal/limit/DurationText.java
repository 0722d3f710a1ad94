package dev.isocheck.internal.limit;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one way isocheck reads a duration, in the {@code check} command's {@code --timeout} and in
 * the JUnit configuration ({@code isocheck.timeout}) alike: a bare number of seconds ({@code 30}),
 * a number and a unit ({@code 30s}, {@code 30 s}, {@code 500ms}, as JUnit's own timeouts are
 * written), or several such parts ({@code 1m30s}, {@code 1h 30m}); units {@code ns}, {@code μs}
 * (or {@code us}), {@code ms}, {@code s}, {@code m}, {@code h}, {@code d}, in any case. Positive.
 */
public final class DurationText {

    /** The forms, for messages. */
    public static final String FORMS = "a positive duration such as 30s, 30 s, 500ms, 5m, 1h or 1m30s"
            + " (units ns, μs, ms, s, m, h, d; a bare number is seconds)";

    private static final Pattern PART = Pattern.compile("\\s*(\\d{1,12})\\s*(ns|μs|us|ms|s|m|h|d)", Pattern.CASE_INSENSITIVE);
    private static final Pattern SECONDS = Pattern.compile("\\d{1,12}");

    private DurationText() {
    }

    /** {@code text} as a duration; empty when it is not one of the {@linkplain DurationText forms}, or not positive. */
    public static Optional<Duration> parse(String text) {
        String trimmed = text.strip();
        try {
            Duration total = Duration.ZERO;
            if (SECONDS.matcher(trimmed).matches()) {
                total = Duration.ofSeconds(Long.parseLong(trimmed));
            } else {
                Matcher part = PART.matcher(trimmed);
                int at = 0;
                while (at < trimmed.length() && part.find(at) && part.start() == at) {
                    total = total.plus(of(Long.parseLong(part.group(1)), part.group(2).toLowerCase(Locale.ROOT)));
                    at = part.end();
                }
                if (at != trimmed.length() || trimmed.isEmpty()) {
                    return Optional.empty();
                }
            }
            return total.isZero() || total.isNegative() ? Optional.empty() : Optional.of(total);
        } catch (ArithmeticException tooLong) {
            return Optional.empty();
        }
    }

    private static Duration of(long amount, String unit) {
        return switch (unit) {
            case "ns" -> Duration.ofNanos(amount);
            case "μs", "us" -> Duration.ofNanos(Math.multiplyExact(amount, 1000L));
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default -> Duration.ofDays(amount);
        };
    }
}
