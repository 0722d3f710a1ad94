package dev.isocheck.internal.recording.jdbc;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * A row as read from a result: its column names, shared by every row of the result, and its
 * values, in result order. Immutable. Every row the application reads is kept until the test
 * ends, and a hash map per row was most of what the recorder allocated and kept.
 */
final class ResultRow extends AbstractMap<String, Object> {

    private final String[] names;
    private final Object[] values;

    /** {@code names} distinct and not {@code null}; neither array changed afterwards. */
    ResultRow(String[] names, Object[] values) {
        this.names = names;
        this.values = values;
    }

    @Override
    public int size() {
        return names.length;
    }

    @Override
    public boolean containsKey(Object key) {
        return indexOf(key) >= 0;
    }

    @Override
    public Object get(Object key) {
        int i = indexOf(key);
        return i < 0 ? null : values[i];
    }

    private int indexOf(Object key) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(key)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, Object>> iterator() {
                return new Iterator<>() {
                    private int next;

                    @Override
                    public boolean hasNext() {
                        return next < names.length;
                    }

                    @Override
                    public Entry<String, Object> next() {
                        if (next >= names.length) {
                            throw new NoSuchElementException();
                        }
                        Entry<String, Object> entry = new SimpleImmutableEntry<>(names[next], values[next]);
                        next++;
                        return entry;
                    }
                };
            }

            @Override
            public int size() {
                return names.length;
            }
        };
    }
}
