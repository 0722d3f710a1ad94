package dev.isocheck.internal.recording.sql;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the recorder derived from a SQL text, kept for the next statement of the same text:
 * applications send a few texts thousands of times. Bounded by clearing when full, so that
 * texts with literals in them (a new text for every value) cannot grow it without end; clearing
 * only costs deriving again.
 *
 * @param <V> what is kept per text
 */
public final class SqlTextCache<V> {

    private static final int LIMIT = 10_000;
    private final Map<String, V> entries = new ConcurrentHashMap<>();

    /** What was kept for {@code sql}, {@code null} when nothing. */
    public V get(String sql) {
        return entries.get(sql);
    }

    /** What was kept for {@code sql}, derived and kept now when nothing was. */
    public V computeIfAbsent(String sql, java.util.function.Function<String, V> derive) {
        V kept = entries.get(sql);
        if (kept == null) {
            kept = derive.apply(sql);
            put(sql, kept);
        }
        return kept;
    }

    /** Keeps {@code value} for {@code sql}. */
    public void put(String sql, V value) {
        if (entries.size() >= LIMIT) {
            entries.clear();
        }
        entries.put(sql, value);
    }
}
