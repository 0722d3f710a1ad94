package dev.isocheck.spi;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * The largest array a JVM reliably allocates, so that every closure layout can say up front that a
 * graph is too large for it instead of failing inside {@code new}.
 */
@API(status = INTERNAL, since = "0.1")
public final class JavaArrays {

    /** HotSpot reserves a few header words: lengths just below {@code Integer.MAX_VALUE} can fail. */
    public static final long MAX_LENGTH = Integer.MAX_VALUE - 8;

    private JavaArrays() {
    }

    /** Whether an array of {@code length} elements can be allocated at all (heap permitting). */
    public static boolean fits(long length) {
        return length <= MAX_LENGTH;
    }
}
