package dev.isocheck.internal.recording;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The tables and columns left out of a recorded history, each with the first statement and reason
 * that left it out: gathered from the transactions built ({@link #from}), the database's log and
 * the recorder's failures, read when the history is made. Not thread-safe.
 */
final class LeftOutTables {

    private final Map<String, NotModelled> tables = new LinkedHashMap<>();
    private final Map<String, Set<String>> columns = new LinkedHashMap<>();
    private final Map<String, List<NotModelled>> columnNotes = new LinkedHashMap<>();

    /** Leaves {@code table} ({@link RecordedTransaction#EVERY_TABLE}: every table) out, unless it is already. */
    void leaveOut(String table, NotModelled why) {
        tables.putIfAbsent(table, why);
    }

    /** Leaves out what {@code t} could not record whole: tables it wrote unseen, columns it could not read. */
    void from(RecordedTransaction t) {
        for (Observation.LeftOut l : t.leftOut()) {
            String table = l.table().orElse(RecordedTransaction.EVERY_TABLE);
            tables.computeIfAbsent(table, k -> new NotModelled(
                    (l.table().isPresent() ? "table " + table : "every table") + " (statement: " + l.statement() + ")",
                    l.reason()));
        }
        for (Observation.ColumnsLeftOut c : t.columnsLeftOut()) {
            Set<String> known = columns.computeIfAbsent(c.table(), k -> new TreeSet<>());
            List<String> added = c.columns().stream().filter(known::add).sorted().toList();
            if (!added.isEmpty()) {
                columnNotes.computeIfAbsent(c.table(), k -> new ArrayList<>()).add(new NotModelled(
                        (added.size() == 1 ? "column " : "columns ") + String.join(", ", added) + " of table " + c.table()
                                + " (statement: " + c.statement() + ")", c.reason()));
            }
        }
    }

    /** The tables left out whole, {@link RecordedTransaction#EVERY_TABLE} standing for all. */
    Set<String> tables() {
        return tables.keySet();
    }

    /** Whether {@code table} is left out whole, by name or with every table. */
    boolean leavesOut(String table) {
        return tables.containsKey(table) || tables.containsKey(RecordedTransaction.EVERY_TABLE);
    }

    /** The columns left out, by table. */
    Map<String, Set<String>> columns() {
        return columns;
    }

    /** What was left out, for reports: the tables, then the columns of tables not left out whole. */
    List<NotModelled> notes() {
        List<NotModelled> all = new ArrayList<>(tables.values());
        // A table left out whole needs no word on its columns.
        columnNotes.forEach((table, said) -> {
            if (!leavesOut(table)) {
                all.addAll(said);
            }
        });
        return all;
    }
}
