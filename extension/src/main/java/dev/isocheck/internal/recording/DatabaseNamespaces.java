package dev.isocheck.internal.recording;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The databases a recording's transactions reached ({@link DatabaseIdentity}), each with the
 * prefix its rows' keys take in the history: none for the first, {@code name:} for each other, so
 * that {@code accounts/1} of two databases are two keys. Thread-safe.
 */
public final class DatabaseNamespaces {

    private final Map<String, String> prefixes = new LinkedHashMap<>();
    private final Set<String> labels = new HashSet<>();

    /** The prefix of the keys of {@code database}'s rows: empty for the first database seen. */
    public synchronized String prefix(DatabaseIdentity database) {
        String known = prefixes.get(database.key());
        if (known != null) {
            return known;
        }
        String prefix;
        if (prefixes.isEmpty()) {
            prefix = "";
        } else {
            String label = database.label();
            for (int n = 2; !labels.add(label); n++) {
                label = database.label() + "-" + n;
            }
            prefix = label + ":";
        }
        prefixes.put(database.key(), prefix);
        return prefix;
    }

    /**
     * Notes that a transaction of {@code database} touched {@code tables}; leaves out, in
     * {@code leftOut}, each table that both a database of no known name and a named one touched:
     * they may be one database or two, and either reading could make up a violation.
     */
    public synchronized void touched(DatabaseIdentity database, Set<String> tables, LeftOutTables leftOut) {
        prefix(database);
        for (String table : tables) {
            Map<String, DatabaseIdentity> databases = reached.computeIfAbsent(table, t -> new LinkedHashMap<>(2));
            databases.putIfAbsent(database.key(), database);
            // Said each time: a history built again (the test's history so far) says again what it leaves out.
            if (databases.size() > 1 && databases.containsKey(DatabaseIdentity.UNNAMED.key())) {
                databases.values().stream().filter(d -> !d.unnamed()).findFirst().ifPresent(named -> leftOut.leaveOut(table,
                        new NotModelled("table " + table, "reached through a connection whose URL names no database and"
                                + " one to database " + named.label() + ", which may be one database or two")));
            }
        }
    }

    /** Per table, the databases whose transactions touched it. */
    private final Map<String, Map<String, DatabaseIdentity>> reached = new java.util.HashMap<>();

    /** {@code key} without the prefix of its database. */
    public synchronized String unprefixed(String key) {
        int colon = key.indexOf(':');
        int slash = key.indexOf('/');
        if (colon > 0 && (slash < 0 || colon < slash) && labels.contains(key.substring(0, colon))) {
            return key.substring(colon + 1);
        }
        return key;
    }
}
