package dev.isocheck.internal.rounds;

import dev.isocheck.history.Value;
import java.util.Map;

/**
 * What the folds forgot, in fixed memory: each write no stub holds any longer, as bits of a Bloom
 * filter, so that a later question "may a forgotten write have given this read its value?" gets
 * "no" only when that is certain.
 *
 * <p>Why: a violation of strict serializability found in a round is one of a weaker level only if
 * the reads it rests on could not have seen anything else; below strict serializability a read may
 * see any version, however old (see {@link WeakerViolation}). A false "yes" only leaves a read out
 * of that check; a false "no" is impossible, as a Bloom filter never forgets what it holds.
 *
 * <p>A read of a row is consistent with a written row that has each column it observed, equal
 * ({@link Value#isConsistentWith}); so a row is also held column by column: one observed column
 * (not {@code null}) whose value no forgotten write of the key had rules every forgotten write out.
 */
final class ForgottenWrites {

    /** 2^26 bits, 8 MiB: about 4% false "may" after ten million forgotten values, with four probes. */
    private static final int BITS_LOG2 = 26;
    private static final int PROBES = 4;
    private static final long MASK = (1L << BITS_LOG2) - 1;
    /** Stands for "some row", so that a read observing no column with a value is answered too. */
    private static final int ANY_ROW = 0x5f3759df;

    private long[] bits;
    private long added;

    /** Notes that a write of {@code value} to {@code key} is forgotten. */
    void add(String key, Value value) {
        if (bits == null) {
            bits = new long[(int) ((1L << BITS_LOG2) / 64)];
        }
        added++;
        if (value.isObject()) {
            set(hash(key, ANY_ROW, 0));
            for (Map.Entry<String, Value> column : value.fields().entrySet()) {
                if (!column.getValue().isAbsent()) {
                    set(hash(key, column.getKey().hashCode(), column.getValue().hashCode()));
                }
            }
        } else {
            set(hash(key, 0, value.hashCode()));
        }
    }

    /** Whether a forgotten write of {@code key} may be one a read of {@code read} saw; never {@code false} wrongly. */
    boolean mayHaveGiven(String key, Value read) {
        if (bits == null) {
            return false;
        }
        if (!read.isObject()) {
            return isSet(hash(key, 0, read.hashCode()));
        }
        for (Map.Entry<String, Value> column : read.fields().entrySet()) {
            // A null column also matches a row without it: it proves nothing.
            if (!column.getValue().isAbsent() && !isSet(hash(key, column.getKey().hashCode(), column.getValue().hashCode()))) {
                return false;
            }
        }
        return isSet(hash(key, ANY_ROW, 0));
    }

    /** How many writes were forgotten. */
    long size() {
        return added;
    }

    private static long hash(String key, int column, int value) {
        long h = key.hashCode() * 0x9E3779B97F4A7C15L;
        h = (h ^ column) * 0xBF58476D1CE4E5B9L;
        h = (h ^ value) * 0x94D049BB133111EBL;
        return h ^ (h >>> 31);
    }

    private void set(long hash) {
        long h2 = (hash >>> 32) | 1;
        for (int i = 0; i < PROBES; i++) {
            long bit = (hash + i * h2) & MASK;
            bits[(int) (bit >>> 6)] |= 1L << bit;
        }
    }

    private boolean isSet(long hash) {
        long h2 = (hash >>> 32) | 1;
        for (int i = 0; i < PROBES; i++) {
            long bit = (hash + i * h2) & MASK;
            if ((bits[(int) (bit >>> 6)] & (1L << bit)) == 0) {
                return false;
            }
        }
        return true;
    }
}
