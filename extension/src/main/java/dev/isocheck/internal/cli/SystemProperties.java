package dev.isocheck.internal.cli;

import dev.isocheck.CheckOptions;
import dev.isocheck.GpuMode;
import java.util.function.UnaryOperator;

/**
 * The system properties that programs started from a command line (the {@code check} command,
 * the benchmarks) map onto {@link CheckOptions}, once, where they start: the library itself reads
 * none, so that a check depends only on what it is given.
 */
public final class SystemProperties {

    /** The GPU mode: {@code auto} (when unset), {@code on} or {@code off}; see {@link GpuMode}. */
    public static final String GPU = "isocheck.gpu";

    private SystemProperties() {
    }

    /**
     * {@link CheckOptions#defaults()} with what the JVM's system properties set.
     *
     * @return never {@code null}
     * @throws IllegalArgumentException naming the property, when a property has an invalid value
     */
    public static CheckOptions checkOptions() {
        return checkOptions(System::getProperty);
    }

    /**
     * {@link CheckOptions#defaults()} with what {@code properties} (a property's value by its name,
     * {@code null} when unset) sets.
     *
     * @return never {@code null}
     * @throws IllegalArgumentException naming the property, when a property has an invalid value
     */
    public static CheckOptions checkOptions(UnaryOperator<String> properties) {
        return CheckOptions.defaults().withGpuMode(gpuMode(properties.apply(GPU)));
    }

    /**
     * The GPU mode the value of {@value #GPU} names, {@link GpuMode#AUTO} when unset
     * ({@code null}); case and surrounding blanks are ignored.
     *
     * @return never {@code null}
     * @throws IllegalArgumentException naming the property and the allowed values, for any other value
     */
    public static GpuMode gpuMode(String value) {
        if (value == null) {
            return GpuMode.AUTO;
        }
        try {
            return GpuMode.fromName(value);
        } catch (IllegalArgumentException e) {
            // Worded for where the value was typed: a -D option, not an argument in code.
            throw new IllegalArgumentException("system property " + GPU + " must be one of auto, on, off; got \""
                    + value + "\"", e);
        }
    }
}
