package dev.isocheck.internal.graph;

import java.util.Arrays;

/** A growable list of {@code int}s, so that building per-operation tables boxes nothing. */
public final class IntList {

    private int[] data;
    private int size;

    /** An empty list with room for {@code capacity} elements. */
    public IntList(int capacity) {
        data = new int[Math.max(4, capacity)];
    }

    /** Appends {@code value}. */
    public void add(int value) {
        if (size == data.length) {
            data = Arrays.copyOf(data, size * 2);
        }
        data[size++] = value;
    }

    /** The {@code i}-th element. */
    public int get(int i) {
        return data[i];
    }

    /** Replaces the {@code i}-th element. */
    public void set(int i, int value) {
        data[i] = value;
    }

    /** Drops every element from {@code size} on. */
    public void truncate(int size) {
        this.size = size;
    }

    /** How many elements. */
    public int size() {
        return size;
    }

    /** Sorts the elements in {@code [from, to)}. */
    public void sort(int from, int to) {
        Arrays.sort(data, from, to);
    }

    /**
     * Where {@code key} is among the elements in {@code [from, to)}, which must be sorted: its
     * index, or a negative number if it is not there ({@link Arrays#binarySearch(int[], int, int, int)}).
     */
    public int binarySearch(int from, int to, int key) {
        return Arrays.binarySearch(data, from, to, key);
    }

    /** The elements in {@code [from, to)}. */
    public int[] copy(int from, int to) {
        return Arrays.copyOfRange(data, from, to);
    }

    /** The elements, in order. */
    public int[] toArray() {
        return Arrays.copyOf(data, size);
    }
}
