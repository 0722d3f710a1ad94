package dev.isocheck.internal.recording;

import java.util.Locale;
import java.util.Objects;

/**
 * Which database a recorded connection reached, so that rows of two databases whose tables share a
 * name are not taken for one row: a test that uses two databases, or parallel tests whose
 * executors' transactions go to each other's histories, would otherwise show a transaction of one
 * database overwriting another's row, a violation made up.
 *
 * @param key     what tells two databases apart: the server's own account where it was asked
 *                (PostgreSQL: its start, port and database; MariaDB: host, port, server id and
 *                database), else the connection's URL without its parameters
 * @param label   a short name for keys and messages (the database's name)
 * @param certain whether two different keys are surely two databases: true for the server's own
 *                account; a URL may name one database in several ways
 */
public record DatabaseIdentity(String key, String label, boolean certain) {

    /** The one database of a recording that knows no other (tests of parts that ask no connection). */
    public static final DatabaseIdentity NONE = new DatabaseIdentity("", "", true);

    public DatabaseIdentity {
        Objects.requireNonNull(key, "key is null");
        Objects.requireNonNull(label, "label is null");
    }

    /**
     * The identity the server gave ({@code account}, whose last word is the database's name), or,
     * where it gave none ({@code null}), the one {@code url} names.
     */
    public static DatabaseIdentity of(String account, String url) {
        if (account != null && !account.isBlank()) {
            String trimmed = account.strip();
            String name = trimmed.substring(trimmed.lastIndexOf(' ') + 1);
            return new DatabaseIdentity(trimmed, label(name.isEmpty() ? trimmed.split(" ")[0] : name), true);
        }
        String plain = url == null ? "an unknown database" : withoutParameters(url);
        return new DatabaseIdentity(plain, label(lastName(plain)), false);
    }

    /** {@code url} without what does not choose the database: parameters, and a user and password in it. */
    static String withoutParameters(String url) {
        String plain = url;
        for (char end : new char[] {'?', ';'}) {
            int at = plain.indexOf(end);
            if (at >= 0) {
                plain = plain.substring(0, at);
            }
        }
        // jdbc:mariadb://user:secret@host/db: the credentials are not the database.
        int authority = plain.indexOf("//");
        int at = plain.indexOf('@', Math.max(authority, 0));
        int path = authority < 0 ? -1 : plain.indexOf('/', authority + 2);
        if (authority >= 0 && at > authority && (path < 0 || at < path)) {
            plain = plain.substring(0, authority + 2) + plain.substring(at + 1);
        }
        return plain.toLowerCase(Locale.ROOT).startsWith("jdbc:") ? plain : "jdbc:" + plain;
    }

    private static String lastName(String url) {
        String name = url;
        for (char separator : new char[] {'/', ':', '\\'}) {
            int at = name.lastIndexOf(separator);
            if (at >= 0 && at < name.length() - 1) {
                name = name.substring(at + 1);
            }
        }
        return name;
    }

    /** A name fit for a key's prefix: no {@code :} or {@code /}, which keys use. */
    private static String label(String name) {
        String cleaned = name.replaceAll("[:/\\s]", "_");
        return cleaned.isEmpty() ? "db" : cleaned;
    }
}
