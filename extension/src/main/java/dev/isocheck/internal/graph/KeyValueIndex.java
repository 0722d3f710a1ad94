package dev.isocheck.internal.graph;

import java.util.Arrays;

/**
 * Interns (key id, value id) pairs to dense ids with open addressing over primitive arrays, so
 * that looking up "who wrote this value to this key" allocates nothing.
 */
final class KeyValueIndex {

    private static final long EMPTY = -1L;

    private final long[] slots;
    private final int[] ids;
    private final int mask;
    private int size;

    KeyValueIndex(int expected) {
        int capacity = Integer.highestOneBit(Math.max(8, expected * 2 + 1)) << 1;
        slots = new long[capacity];
        ids = new int[capacity];
        Arrays.fill(slots, EMPTY);
        mask = capacity - 1;
    }

    /** The id of the pair, or {@code -1} when it was never interned. */
    int get(int key, int value) {
        long pair = pair(key, value);
        for (int slot = slotOf(pair); ; slot = (slot + 1) & mask) {
            long there = slots[slot];
            if (there == pair) {
                return ids[slot];
            }
            if (there == EMPTY) {
                return -1;
            }
        }
    }

    /** The id of the pair, interning it first if it is new; new ids are dense from 0. */
    int intern(int key, int value) {
        long pair = pair(key, value);
        for (int slot = slotOf(pair); ; slot = (slot + 1) & mask) {
            long there = slots[slot];
            if (there == pair) {
                return ids[slot];
            }
            if (there == EMPTY) {
                slots[slot] = pair;
                ids[slot] = size;
                return size++;
            }
        }
    }

    /** How many distinct pairs were interned. */
    int size() {
        return size;
    }

    private static long pair(int key, int value) {
        // Both ids are non-negative, so no pair equals EMPTY.
        return (long) key << 32 | (value & 0xffffffffL);
    }

    private int slotOf(long pair) {
        long h = pair * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }
}
