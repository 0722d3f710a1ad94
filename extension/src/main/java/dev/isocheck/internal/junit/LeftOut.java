package dev.isocheck.internal.junit;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What a test whose check passed does when a table it touched was left out of the check
 * (configuration parameter {@code isocheck.left-out}): never a plain pass, which would claim a
 * check that did not happen.
 */
public enum LeftOut {

    /** Abort the test (shown as skipped or aborted in the IDE and the build), with what was left out. The default. */
    ABORT,

    /** Fail the test, with what was left out. */
    FAIL,

    /** Pass, with what was left out in the report entry {@code isocheck.notModelled}: a team's explicit choice. */
    REPORT;

    /** The value as written in configuration: {@code abort}, {@code fail} or {@code report}. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The value named so (case-insensitive), or empty. */
    static Optional<LeftOut> fromConfigName(String name) {
        return Arrays.stream(values()).filter(v -> v.configName().equalsIgnoreCase(name.strip())).findFirst();
    }

    /** The values a user may write, for messages. */
    static String allowed() {
        return Arrays.stream(values()).map(LeftOut::configName).collect(Collectors.joining(", "));
    }
}
