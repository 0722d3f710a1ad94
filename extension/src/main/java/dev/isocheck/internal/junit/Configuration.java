package dev.isocheck.internal.junit;

import dev.isocheck.CheckOptions;
import dev.isocheck.GpuMode;
import dev.isocheck.IsolationLevel;
import dev.isocheck.internal.limit.DurationText;
import dev.isocheck.internal.text.NearestName;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.logging.Logger;
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

    /** The configuration parameter naming the user MariaDB's binary log is read as (the application's by default). */
    public static final String BINLOG_USER = "isocheck.binlog.user";

    /** The configuration parameter giving the password of {@value #BINLOG_USER}, or of the application's user. */
    public static final String BINLOG_PASSWORD = "isocheck.binlog.password";

    /** The configuration parameter turning the first check's warm-up ({@link CheckWarmup}) on or off. */
    public static final String WARMUP = "isocheck.warmup";

    /**
     * The configuration parameter checking each test in rounds while it runs ({@code off}, the
     * default; {@code on}; or the transactions a round takes at most, a positive number).
     */
    public static final String ROUNDS = "isocheck.rounds";

    /** The configuration parameter stopping a test checked in rounds at the first violation found ({@code true}, {@code false}). */
    public static final String ROUNDS_FAIL_EARLY = "isocheck.rounds.fail-early";

    /** The transactions a round takes at most where {@value #ROUNDS} is {@code on}. */
    public static final int DEFAULT_ROUND_SIZE = 10_000;

    /** Every key isocheck reads; any other {@code isocheck.*} key is a mistake. */
    public static final List<String> KEYS = List.of(LEVEL, REPORT_DIR, TIMEOUT, UNDECIDED, GPU, LEFT_OUT,
            ScheduleSettings.SCHEDULES, ScheduleSettings.STALL, BINLOG_USER, BINLOG_PASSWORD, WARMUP, ROUNDS, ROUNDS_FAIL_EARLY);

    /**
     * The most transactions a round of a test checked in rounds takes ({@value #ROUNDS}); empty
     * when tests are checked whole (the default).
     *
     * @throws ExtensionConfigurationException for a value other than off, on or a positive number
     */
    public static java.util.OptionalInt rounds(ExtensionContext context) {
        Optional<Integer> size = parameter(context, ROUNDS, Configuration::roundSize, "off, on, or the transactions a round"
                + " takes at most (a positive number)");
        return size.isEmpty() || size.get() == 0 ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(size.get());
    }

    /**
     * Whether a test checked in rounds stops at the first violation found ({@value #ROUNDS_FAIL_EARLY});
     * defaults to {@code false}: it runs to its end and fails then.
     *
     * @throws ExtensionConfigurationException for a value other than true or false
     */
    public static boolean failEarly(ExtensionContext context) {
        return parameter(context, ROUNDS_FAIL_EARLY, Configuration::bool, "true or false").orElse(false);
    }

    /** 0 for off, the default size for on, else the positive number given. */
    private static Optional<Integer> roundSize(String value) {
        String v = value.strip();
        if (v.equalsIgnoreCase("off")) {
            return Optional.of(0);
        }
        if (v.equalsIgnoreCase("on")) {
            return Optional.of(DEFAULT_ROUND_SIZE);
        }
        try {
            int size = Integer.parseInt(v.replace("_", ""));
            return size > 0 ? Optional.of(size) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * Whether the first check of the JVM is warmed up while the first test runs ({@value #WARMUP},
     * {@code true} or {@code false}; defaults to {@code true}).
     *
     * @throws ExtensionConfigurationException for another value
     */
    public static boolean warmup(ExtensionContext context) {
        return parameter(context, WARMUP, Configuration::bool, "true or false").orElse(true);
    }

    /** The account MariaDB's binary log is read as, where {@value #BINLOG_USER} or {@value #BINLOG_PASSWORD} is set. */
    public static java.util.Optional<dev.isocheck.internal.recording.Recording.LogAccount> logAccount(ExtensionContext context) {
        String user = context.getConfigurationParameter(BINLOG_USER).orElse(null);
        String password = context.getConfigurationParameter(BINLOG_PASSWORD).orElse(null);
        return user == null && password == null ? java.util.Optional.empty()
                : java.util.Optional.of(new dev.isocheck.internal.recording.Recording.LogAccount(user, password));
    }

    /** The default of {@value #REPORT_DIR}, relative to the working directory (the module's, under Maven and Gradle). */
    public static final Path DEFAULT_REPORT_DIRECTORY = Path.of("target", "isocheck");

    /** The default of {@value #TIMEOUT}. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    /** Unknown keys of the system properties already warned about: each once per JVM. */
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();
    private static final Logger LOGGER = Logger.getLogger("dev.isocheck");

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
     * Reads the configuration parameters through {@code context}. An unknown {@code isocheck.*}
     * key in {@code junit-platform.properties} is a mistake worth a failure (a misspelt key would
     * otherwise be ignored); one among the system properties is warned about once and ignored, as
     * JUnit ignores keys it does not know: build tools pass their own properties as system
     * properties ({@code mvn test -Disocheck.version=0.1.0}), and those must not fail a run.
     *
     * @throws ExtensionConfigurationException naming the key, the value and the allowed values, for
     *                                         an unknown key in {@code junit-platform.properties} or
     *                                         a bad value of a known key
     */
    public static Configuration read(ExtensionContext context) {
        warnOfUnknownKeys(System.getProperties());
        rejectUnknownKeys(propertiesFiles());
        return new Configuration(
                parameter(context, LEVEL, Configuration::level, LEVELS).orElse(IsolationLevel.SERIALIZABLE),
                parameter(context, REPORT_DIR, Configuration::directory, "a directory path").orElse(DEFAULT_REPORT_DIRECTORY),
                parameter(context, TIMEOUT, Configuration::duration, DurationText.FORMS).orElse(DEFAULT_TIMEOUT),
                parameter(context, UNDECIDED, Undecided::fromConfigName, "one of " + Undecided.allowed()).orElse(Undecided.FAIL),
                parameter(context, GPU, Configuration::gpu, "one of auto, on, off").orElse(GpuMode.AUTO),
                parameter(context, LEFT_OUT, LeftOut::fromConfigName, "one of " + LeftOut.allowed()).orElse(LeftOut.ABORT));
    }

    /**
     * The options of a check: the GPU mode, and a check and an explanation that stop within the
     * timeout (a check abandoned at the timeout stops too, rather than keep a core busy for the
     * check's own default while later tests run).
     */
    public CheckOptions checkOptions() {
        CheckOptions defaults = CheckOptions.defaults();
        Duration explain = timeout.compareTo(defaults.explainTimeLimit()) < 0 ? timeout : defaults.explainTimeLimit();
        return defaults.withGpuMode(gpuMode).withTimeLimit(timeout).withExplainTimeLimit(explain);
    }

    /** The value a key sets, parsed; empty when unset. */
    static <T> Optional<T> parameter(ExtensionContext context, String key, Function<String, Optional<T>> parser,
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
                        + properties.getProperty(key) + "\" in junit-platform.properties)" + nearest(key)
                        + "; isocheck reads " + String.join(", ", KEYS));
            }
        }
    }

    private static void warnOfUnknownKeys(Properties properties) {
        for (String key : new TreeSet<>(properties.stringPropertyNames())) {
            if (key.startsWith("isocheck.") && !KEYS.contains(key) && WARNED.add(key)) {
                LOGGER.warning(() -> "isocheck ignores the system property " + key + " (set to \""
                        + properties.getProperty(key) + "\"): not one of its configuration parameters" + nearest(key)
                        + "; it reads " + String.join(", ", KEYS));
            }
        }
    }

    /**
     * ", did you mean K?" for a known key {@code key} looks like a slip of ({@link NearestName}):
     * two edits away at most ({@code isocheck.levle}), or one of the two a longer spelling of the
     * other ({@code isocheck.report.directory}); empty otherwise ({@code isocheck.version} is no
     * level). The common {@code isocheck.} is left out of the comparison, so that it does not make
     * every short key look like a longer spelling of another.
     */
    static String nearest(String key) {
        String prefix = "isocheck.";
        return NearestName.of(key.substring(prefix.length()), KEYS.stream().map(k -> k.substring(prefix.length())).toList())
                .map(k -> ", did you mean " + prefix + k + "?")
                .orElse("");
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

    private static Optional<Boolean> bool(String value) {
        String v = value.strip();
        return v.equalsIgnoreCase("true") ? Optional.of(true) : v.equalsIgnoreCase("false") ? Optional.of(false) : Optional.empty();
    }

    /** A positive duration: {@link DurationText}, the same forms as the {@code check} command's. */
    static Optional<Duration> duration(String value) {
        return DurationText.parse(value);
    }
}
