package dev.isocheck.internal.prune;

import java.util.Locale;

/** The values of the system property {@value ReachabilityEngines#GPU_PROPERTY}: see {@link ReachabilityEngines}. */
enum GpuMode {

    /** A discovered engine when it says it is available, else the CPU. */
    AUTO,
    /** A discovered engine, and a logged reason whenever the CPU has to stand in. */
    ON,
    /** The CPU only; discovered engines are not even loaded. */
    OFF;

    /**
     * The mode a property value names; {@code null} (unset) is {@link #AUTO}. Case and surrounding
     * blanks are ignored, since the value is typed on command lines.
     *
     * @throws IllegalArgumentException for any other value, naming the property and the allowed values
     */
    static GpuMode of(String value) {
        if (value == null) {
            return AUTO;
        }
        switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "auto":
                return AUTO;
            case "on":
                return ON;
            case "off":
                return OFF;
            default:
                throw new IllegalArgumentException("system property " + ReachabilityEngines.GPU_PROPERTY
                        + " must be one of auto, on, off; got \"" + value + "\"");
        }
    }
}
