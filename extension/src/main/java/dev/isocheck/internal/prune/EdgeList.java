package dev.isocheck.internal.prune;

import dev.isocheck.internal.graph.EdgeKind;
import java.util.Arrays;

/**
 * A growable list of dependency edges between nodes, each with its kind and the key it concerns
 * ({@code -1} for session and real-time order), in parallel primitive arrays.
 */
public final class EdgeList {

    private int size;
    private int[] from = new int[1024];
    private int[] to = new int[1024];
    private byte[] kinds = new byte[1024];
    private int[] keys = new int[1024];

    /** Appends the edge {@code source -> target}; edges out of T⊥ are implied and dropped. */
    public void add(int source, int target, EdgeKind kind, int key) {
        if (source == 0) {
            return;
        }
        if (size == from.length) {
            int grown = size * 2;
            from = Arrays.copyOf(from, grown);
            to = Arrays.copyOf(to, grown);
            kinds = Arrays.copyOf(kinds, grown);
            keys = Arrays.copyOf(keys, grown);
        }
        from[size] = source;
        to[size] = target;
        kinds[size] = (byte) kind.ordinal();
        keys[size] = key;
        size++;
    }

    /** How many edges. */
    public int size() {
        return size;
    }

    /** The source of edge {@code e}. */
    public int from(int e) {
        return from[e];
    }

    /** The target of edge {@code e}. */
    public int to(int e) {
        return to[e];
    }

    /** The kind of edge {@code e}. */
    public EdgeKind kind(int e) {
        return EdgeKind.values()[kinds[e]];
    }

    /** Whether edge {@code e} is a read-write (anti-dependency) edge. */
    public boolean isReadWrite(int e) {
        return kinds[e] == EdgeKind.READ_WRITE.ordinal();
    }

    /** The key edge {@code e} concerns, or {@code -1}. */
    public int key(int e) {
        return keys[e];
    }

    int[] fromArray() {
        return from;
    }

    int[] toArray() {
        return to;
    }
}
