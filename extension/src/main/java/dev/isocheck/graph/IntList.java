package dev.isocheck.graph;

import java.util.Arrays;

/** A growable list of {@code int}s, so that building per-operation tables boxes nothing. */
final class IntList {

    private int[] data;
    private int size;

    IntList(int capacity) {
        data = new int[Math.max(4, capacity)];
    }

    void add(int value) {
        if (size == data.length) {
            data = Arrays.copyOf(data, size * 2);
        }
        data[size++] = value;
    }

    int get(int i) {
        return data[i];
    }

    void set(int i, int value) {
        data[i] = value;
    }

    /** Drops every element from {@code size} on. */
    void truncate(int size) {
        this.size = size;
    }

    int size() {
        return size;
    }

    void sort(int from, int to) {
        Arrays.sort(data, from, to);
    }

    int[] copy(int from, int to) {
        return Arrays.copyOfRange(data, from, to);
    }

    int[] toArray() {
        return Arrays.copyOf(data, size);
    }
}
