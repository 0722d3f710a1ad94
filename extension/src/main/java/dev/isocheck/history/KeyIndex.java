package dev.isocheck.history;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * For each key, where it is written and where it is read: operation references packed as
 * {@code (long) transaction << 32 | operation}, in transaction order.
 *
 * <p>Built once per history, on first use, in two passes (count, then fill) over plain arrays so
 * that 2M operations cost about 16 MB. Predicate reads are not item reads and are not listed.
 */
@API(status = INTERNAL, since = "0.1")
public final class KeyIndex {

    private final int[] writeStart;
    private final long[] writeRefs;
    private final int[] readStart;
    private final long[] readRefs;

    KeyIndex(History history) {
        int keys = history.keys().size();
        writeStart = new int[keys + 1];
        readStart = new int[keys + 1];
        for (Transaction t : history.transactions()) {
            for (int i = 0; i < t.size(); i++) {
                switch (t.kind(i)) {
                    case WRITE -> writeStart[t.key(i) + 1]++;
                    case READ -> readStart[t.key(i) + 1]++;
                    default -> { }
                }
            }
        }
        for (int k = 0; k < keys; k++) {
            writeStart[k + 1] += writeStart[k];
            readStart[k + 1] += readStart[k];
        }
        writeRefs = new long[writeStart[keys]];
        readRefs = new long[readStart[keys]];
        int[] writeFill = writeStart.clone();
        int[] readFill = readStart.clone();
        for (Transaction t : history.transactions()) {
            for (int i = 0; i < t.size(); i++) {
                switch (t.kind(i)) {
                    case WRITE -> writeRefs[writeFill[t.key(i)]++] = ref(t.index(), i);
                    case READ -> readRefs[readFill[t.key(i)]++] = ref(t.index(), i);
                    default -> { }
                }
            }
        }
    }

    /** Packs a transaction index and an operation index into one reference. */
    public static long ref(int transaction, int operation) {
        return (long) transaction << 32 | (operation & 0xffffffffL);
    }

    /** The transaction index of a packed reference. */
    public static int transactionOf(long ref) {
        return (int) (ref >>> 32);
    }

    /** The operation index of a packed reference. */
    public static int operationOf(long ref) {
        return (int) ref;
    }

    /** How many writes of {@code key} the history holds, in all transactions. */
    public int writeCount(int key) {
        return writeStart[key + 1] - writeStart[key];
    }

    /** The {@code i}-th write of {@code key}, as a packed reference. */
    public long write(int key, int i) {
        return writeRefs[writeStart[key] + i];
    }

    /** How many item reads of {@code key} the history holds. */
    public int readCount(int key) {
        return readStart[key + 1] - readStart[key];
    }

    /** The {@code i}-th item read of {@code key}, as a packed reference. */
    public long read(int key, int i) {
        return readRefs[readStart[key] + i];
    }
}
