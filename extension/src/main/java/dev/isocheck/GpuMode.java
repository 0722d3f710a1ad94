package dev.isocheck;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Locale;
import org.apiguardian.api.API;

/**
 * Whether closures are computed by a reachability engine discovered on the class path (the CUDA
 * one of module {@code gpu-kernels}, when its jar is there) or by the built-in CPU engine, which is
 * always there and stands in whenever a discovered engine cannot. Set it with
 * {@link CheckOptions#withGpuMode}; the verdict never depends on it, only the time it takes.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public enum GpuMode {

    /**
     * The CPU for a graph whose chain clocks are smaller than its bit rows (nearly every history:
     * its sessions are chains, and the clocks were faster than the GPU's rows when measured);
     * otherwise a discovered engine when it says it is available, else the CPU.
     */
    AUTO,
    /** A discovered engine whatever the graph, and a logged reason whenever the CPU has to stand in. */
    ON,
    /** The CPU only; discovered engines are not even loaded. */
    OFF;

    /**
     * The mode named {@code name}: {@code auto}, {@code on} or {@code off}. Case and surrounding
     * blanks are ignored, since the value is typed on command lines and in configuration files.
     *
     * @param name the name, such as {@code "off"}
     * @return the mode; never {@code null}
     * @throws NullPointerException     if {@code name} is {@code null}
     * @throws IllegalArgumentException for any other name, naming the allowed ones
     */
    public static GpuMode fromName(String name) {
        if (name == null) {
            throw new NullPointerException("name is null");
        }
        switch (name.strip().toLowerCase(Locale.ROOT)) {
            case "auto":
                return AUTO;
            case "on":
                return ON;
            case "off":
                return OFF;
            default:
                throw new IllegalArgumentException("unknown GPU mode '" + name + "'; the modes are auto, on, off");
        }
    }
}
