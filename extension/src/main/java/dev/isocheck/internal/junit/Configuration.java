package dev.isocheck.internal.junit;

import dev.isocheck.CheckOptions;
import dev.isocheck.GpuMode;
import dev.isocheck.IsolationLevel;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The run-wide settings of {@code @SerializableCheck}, read once from JUnit's configuration
 * parameters ({@code junit-platform.properties}, system properties, or the launcher's).
 *
 * @param level           the level tests are checked at unless their annotation names one
 *                        ({@value #LEVEL}); defaults to serializable
 * @param reportDirectory where report and history files go ({@value #REPORT_DIR}); defaults to
 *                        {@code target/isocheck}
 * @param timeout         how long one test's check may take, explanation included
 *                        ({@value #TIMEOUT}); defaults to 60 seconds
 * @param undecided       what an undecided check does to its test ({@value #UNDECIDED}); defaults
 *                        to failing it
 * @param gpuMode         the reachability engine ({@value #GPU}), as for the {@code check}
 *                        command; defaults to auto
 * @param leftOut         what a passing test with a table left out of the check does
 *                        ({@value #LEFT_OUT}); defaults to aborting it
 */
public record Configuration(IsolationLevel level, Path reportDirectory, Duration timeout, Undecided undecided,
        GpuMode gpuMode, LeftOut leftOut) {

    /** The configuration parameter naming the default level. */
    public static final String LEVEL = "isocheck.level";

    /** The configuration parameter naming the directory of reports. */
    public static final String REPORT_DIR = "isocheck.report.dir";

    /** The configuration parameter bounding one check's time. */
    public static final String TIMEOUT = "isocheck.timeout";

    /** The configuration parameter saying what an undecided check does. */
    public static final String UNDECIDED = "isocheck.undecided";

    /** The configuration parameter choosing the GPU mode, as the {@code check} command's system property. */
    public static final String GPU = "isocheck.gpu";

    /** The configuration parameter saying what a passing test with a table left out does. */
    public static final String LEFT_OUT = "isocheck.left-out";

    /** Every key isocheck reads; any other {@code isocheck.*} key is a mistake. */
    public static final List<String> KEYS = List.of(LEVEL, REPORT_DIR, TIMEOUT, UNDECIDED, GPU, LEFT_OUT);

    /** The default of {@value #REPORT_DIR}, relative to the working directory (the module's, under Maven and Gradle). */
    public static final Path DEFAULT_REPORT_DIRECTORY = Path.of("target", "isocheck");

    /** The default of {@value #TIMEOUT}. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    /** JUnit's own duration syntax ({@code junit.jupiter.execution.timeout.default}): a number and an optional unit. */
    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ns|μs|us|ms|s|m|h|d)?", Pattern.CASE_INSENSITIVE);

    private static final String DURATION_FORMS = "a positive number with an optional unit ns, μs, ms, s (the default), m, h or d,"
            + " such as 30 s or 500 ms";

    /** Validates. */
    public Configuration {
        Objects.requireNonNull(level, "level is null");
        Objects.requireNonNull(reportDirectory, "reportDirectory is null");
        Objects.requireNonNull(timeout, "timeout is null");
        Objects.requireNonNull(undecided, "undecided is null");
        Objects.requireNonNull(gpuMode, "gpuMode is null");
        Objects.requireNonNull(leftOut, "leftOut is null");
    }

    /** The configuration before {@value #LEFT_OUT}: such tests abort. */
    public Configuration(IsolationLevel level, Path reportDirectory, Duration timeout, Undecided undecided, GpuMode gpuMode) {
        this(level, reportDirectory, timeout, undecided, gpuMode, LeftOut.ABORT);
    }

    /**
     * Reads the configuration parameters through {@code context}, and checks that no other
     * {@code isocheck.*} key is set in the system properties or in {@code junit-platform.properties}
     * (the sources whose keys can be listed; JUnit offers no way to list a launcher's).
     *
     * @throws ExtensionConfigurationException naming the key, the value and the allowed values, for
     *                                         an unknown key or a bad value
     */
    public static Configuration read(ExtensionContext context) {
        rejectUnknownKeys(System.getProperties());
        rejectUnknownKeys(propertiesFiles());
        return new Configuration(
                parameter(context, LEVEL, Configuration::level, LEVELS).orElse(IsolationLevel.SERIALIZABLE),
                parameter(context, REPORT_DIR, Configuration::directory, "a directory path").orElse(DEFAULT_REPORT_DIRECTORY),
                parameter(context, TIMEOUT, Configuration::duration, DURATION_FORMS).orElse(DEFAULT_TIMEOUT),
                parameter(context, UNDECIDED, Undecided::fromConfigName, "one of " + Undecided.allowed()).orElse(Undecided.FAIL),
                parameter(context, GPU, Configuration::gpu, "one of auto, on, off").orElse(GpuMode.AUTO),
                parameter(context, LEFT_OUT, LeftOut::fromConfigName, "one of " + LeftOut.allowed()).orElse(LeftOut.ABORT));
    }

    /**
     * The options of a check: the GPU mode, and an explanation that stops searching within the
     * timeout.
     */
    public CheckOptions checkOptions() {
        CheckOptions defaults = CheckOptions.defaults();
        Duration explain = timeout.compareTo(defaults.explainTimeLimit()) < 0 ? timeout : defaults.explainTimeLimit();
        return defaults.withGpuMode(gpuMode).withExplainTimeLimit(explain);
    }

    /** The value a key sets, parsed; empty when unset. */
    private static <T> Optional<T> parameter(ExtensionContext context, String key, Function<String, Optional<T>> parser,
            String expected) {
        return context.getConfigurationParameter(key)
                .map(value -> parser.apply(value).orElseThrow(() -> invalid(key, value, expected)));
    }

    private static ExtensionConfigurationException invalid(String key, String value, String expected) {
        return new ExtensionConfigurationException("Invalid value of configuration parameter " + key + ": \"" + value
                + "\"; expected " + expected);
    }

    private static void rejectUnknownKeys(Properties properties) {
        // Sorted, so that of several mistakes the same one is named every run.
        for (String key : new TreeSet<>(properties.stringPropertyNames())) {
            if (key.startsWith("isocheck.") && !KEYS.contains(key)) {
                throw new ExtensionConfigurationException("Unknown configuration parameter " + key + " (set to \""
                        + properties.getProperty(key) + "\"); isocheck reads " + String.join(", ", KEYS));
            }
        }
    }

    /**
     * Every {@code junit-platform.properties} on the class path in one (JUnit reads the first; a
     * typo in any is worth a failure).
     */
    private static Properties propertiesFiles() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader == null) {
            loader = Configuration.class.getClassLoader();
        }
        Properties all = new Properties();
        try {
            for (URL url : Collections.list(loader.getResources("junit-platform.properties"))) {
                Properties properties = new Properties();
                try (InputStream in = url.openStream()) {
                    properties.load(in);
                }
                properties.forEach(all::putIfAbsent);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read junit-platform.properties", e);
        }
        return all;
    }

    private static final String LEVELS = "one of "
            + Arrays.stream(IsolationLevel.values()).map(IsolationLevel::cliName).collect(Collectors.joining(", "));

    private static Optional<IsolationLevel> level(String value) {
        try {
            return Optional.of(IsolationLevel.fromName(value));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static Optional<Path> directory(String value) {
        try {
            return value.isBlank() ? Optional.empty() : Optional.of(Path.of(value.strip()));
        } catch (java.nio.file.InvalidPathException e) {
            return Optional.empty();
        }
    }

    private static Optional<GpuMode> gpu(String value) {
        try {
            return Optional.of(GpuMode.fromName(value));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** A positive duration in JUnit's syntax. */
    static Optional<Duration> duration(String value) {
        Matcher m = DURATION.matcher(value.strip());
        if (!m.matches()) {
            return Optional.empty();
        }
        long amount;
        try {
            amount = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        if (amount <= 0) {
            return Optional.empty();
        }
        String unit = m.group(2) == null ? "s" : m.group(2).toLowerCase(Locale.ROOT);
        return Optional.of(switch (unit) {
            case "ns" -> Duration.ofNanos(amount);
            case "μs", "us" -> Duration.ofNanos(amount).multipliedBy(1000);
            case "ms" -> Duration.ofMillis(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            case "d" -> Duration.ofDays(amount);
            default -> Duration.ofSeconds(amount);
        });
    }
}
