package dev.isocheck.internal.junit;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What a test does when the check cannot decide (configuration parameter {@code isocheck.undecided}):
 * never pass, since an undecided check has shown nothing.
 */
public enum Undecided {

    /** Fail the test, with the reason. The default. */
    FAIL,

    /** Abort the test (reported as skipped), with the reason. */
    ABORT;

    /** The value as written in configuration: {@code fail} or {@code abort}. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The value named so (case-insensitive), or empty. */
    static Optional<Undecided> fromConfigName(String name) {
        return Arrays.stream(values()).filter(v -> v.configName().equalsIgnoreCase(name.strip())).findFirst();
    }

    /** The values a user may write, for messages: {@code fail, abort}. */
    static String allowed() {
        return Arrays.stream(values()).map(Undecided::configName).collect(Collectors.joining(", "));
    }
}
