package dev.isocheck.internal.recording.decoding;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.util.TablesNamesFinder;

/**
 * The tables of one database that a statement held as text in MariaDB's binary log names: DDL
 * (TRUNCATE, ALTER, DROP, RENAME, CREATE OR REPLACE) and the rare write logged as a statement.
 * Their rows changed without the log listing them, or their columns did since rows were logged.
 */
final class DdlTables {

    private DdlTables() {
    }

    /**
     * The tables of {@code database} that {@code sql} names, lower case; {@code null} when the
     * statement cannot be read, which leaves every table out.
     *
     * @param current the database the statement ran in (unqualified names are its), {@code null} when none
     */
    static List<String> named(String sql, String current, String database) {
        List<String> out = new ArrayList<>();
        java.util.Set<String> found;
        try {
            found = TablesNamesFinder.findTablesOrOtherSources(sql);
        } catch (JSQLParserException | RuntimeException e) {
            found = null;
        }
        if (found == null) {
            // TRUNCATE and RENAME that the parser does not know: their table names follow the keyword.
            java.util.regex.Matcher m = java.util.regex.Pattern
                    .compile("(?is)^\\s*(?:TRUNCATE(?:\\s+TABLE)?|DROP\\s+TABLE(?:\\s+IF\\s+EXISTS)?|ALTER\\s+TABLE)\\s+([`\\w.$]+)\\s*;?\\s*$")
                    .matcher(sql);
            if (!m.matches()) {
                return null;
            }
            found = java.util.Set.of(m.group(1));
        }
        for (String name : found) {
            String[] parts = name.split("\\.");
            String schema = parts.length > 1 ? unquote(parts[parts.length - 2]) : current;
            String bare = unquote(parts[parts.length - 1]);
            if (schema == null || schema.equals(database)) {
                out.add(bare.toLowerCase(Locale.ROOT));
            }
        }
        return out;
    }

    private static String unquote(String part) {
        return part.length() > 1 && part.startsWith("`") && part.endsWith("`") ? part.substring(1, part.length() - 1) : part;
    }
}
