package dev.isocheck.internal.recording;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The databases a recording's transactions reached, each with the prefix its rows' keys take in
 * the history: none for the first, {@code name:} for each other, so that {@code accounts/1} of two
 * databases are two keys. Where two databases may be one (told apart by their URLs only), a table
 * reached through both is left out instead: as one key it could show a made-up violation if they
 * were two, as two keys one if they were one. Thread-safe.
 */
public final class DatabaseNamespaces {

    private final Map<String, String> prefixes = new LinkedHashMap<>();
    private final Set<String> labels = new HashSet<>();
    /** Per table, the databases whose transactions touched it. */
    private final Map<String, Map<String, DatabaseIdentity>> reached = new HashMap<>();

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

    /** {@code key} without the prefix of its database. */
    public synchronized String unprefixed(String key) {
        int colon = key.indexOf(':');
        int slash = key.indexOf('/');
        if (colon > 0 && (slash < 0 || colon < slash) && labels.contains(key.substring(0, colon))) {
            return key.substring(colon + 1);
        }
        return key;
    }

    /**
     * Notes that a transaction of {@code database} touched {@code tables}; leaves out, in
     * {@code leftOut}, each table that databases which may be one have both touched.
     */
    public synchronized void touched(DatabaseIdentity database, Set<String> tables, LeftOutTables leftOut) {
        prefix(database);
        for (String table : tables) {
            Map<String, DatabaseIdentity> databases = reached.computeIfAbsent(table, t -> new LinkedHashMap<>(2));
            databases.putIfAbsent(database.key(), database);
            // Said each time: a history built again (a test's history so far) has a new account of what is left out.
            if (databases.size() > 1 && databases.values().stream().anyMatch(d -> !d.certain())) {
                leftOut.leaveOut(table, new dev.isocheck.internal.recording.NotModelled("table " + table,
                        "reached through connections to " + String.join(" and ", databases.keySet()) + ", which may be"
                                + " one database or two: its rows could be taken for one another's"));
            }
        }
    }
}
