package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.recording.sql.AnalysedStatement.Write;
import dev.isocheck.internal.recording.sql.SqlAnalyzer;
import dev.isocheck.internal.recording.sql.SqlTextCache;
import dev.isocheck.internal.recording.sql.TableColumns;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What an UPDATE's or DELETE's text says about the rows it changes, given its table's columns:
 * derived once per text and table rather than at every execution, where walking the WHERE and
 * building sets showed in profiles.
 *
 * @param write    the analysed statement these facts are of
 * @param table    the table's columns they were derived with
 * @param fixesKey whether the WHERE is nothing but equalities on exactly the key ({@code WHERE id = ?})
 * @param used     the key columns and the columns its SET expressions and WHERE mention: the
 *                 part of an old row the statement used
 */
record WriteFacts(Write write, TableColumns table, boolean fixesKey, Set<String> used) {

    private static final SqlTextCache<WriteFacts> CACHE = new SqlTextCache<>();

    /** The facts of {@code write}, the analysis of {@code sql}, over {@code table}. */
    static WriteFacts of(String sql, Write write, TableColumns table) {
        WriteFacts cached = CACHE.get(sql);
        // The same analysis and the same look-up of the table: a text's analysis is kept as long
        // as these facts, and a table looked up again (another database) is another object.
        if (cached != null && cached.write == write && cached.table == table) {
            return cached;
        }
        Set<String> used = new HashSet<>(write.used());
        used.addAll(table.key());
        WriteFacts facts = new WriteFacts(write, table, SqlAnalyzer.fixesOnly(write.where(), table.key()), Set.copyOf(used));
        CACHE.put(sql, facts);
        return facts;
    }

    /**
     * An old row as far as the statement used it: the row itself when it has no other column
     * (then nothing is copied), else a copy of its used columns in its order.
     */
    Map<String, Object> usedPart(Map<String, Object> row) {
        if (used.containsAll(row.keySet())) {
            return row;
        }
        Map<String, Object> part = new java.util.LinkedHashMap<>();
        row.forEach((column, value) -> {
            if (used.contains(column)) {
                part.put(column, value);
            }
        });
        return part;
    }
}
