package dev.isocheck.internal.recording;

import java.util.Locale;
import java.util.Objects;

/**
 * Which database a recorded connection reached, so that rows of two databases whose tables share a
 * name are not taken for one row: a test that uses two databases, or parallel tests whose
 * executors' transactions go to each other's histories, would otherwise show a transaction of one
 * database overwriting another's row, a violation made up.
 *
 * <p>A database is told by its name, as its connection's URL gives it, and nothing else: one
 * database has one name however it is reached ({@code localhost} or {@code 127.0.0.1}, a pool or
 * a URL, with any parameters), so it is never taken for two, which could make up a violation as
 * surely as two taken for one. Two databases of one name on two servers stay one, as before. A
 * MariaDB or MySQL connection reaches every database of its server (by a qualified name, or
 * {@code USE}) and rows are keyed without it: all of them are one. A URL that names no database
 * ({@link #UNNAMED}: the server's default, or one private to the connection) may be any of them:
 * {@link DatabaseNamespaces#touched} leaves out what it shares with a named one.
 *
 * @param key   what tells two databases apart
 * @param label a short name for keys and messages
 */
public record DatabaseIdentity(String key, String label) {

    /** A database whose name is not known: the one of a recording that knows no other, or any of them. */
    public static final DatabaseIdentity UNNAMED = new DatabaseIdentity("", "unnamed");

    public DatabaseIdentity {
        Objects.requireNonNull(key, "key is null");
        Objects.requireNonNull(label, "label is null");
    }

    /**
     * The database a connection whose URL is {@code url} reached ({@code null}: unknown, taken for
     * the one database); {@code serverWide} where a connection reaches every database of its server.
     */
    public static DatabaseIdentity of(String url, boolean serverWide) {
        if (serverWide) {
            // Told from the other dialects' databases (a MariaDB row is no PostgreSQL row), not from one another.
            return new DatabaseIdentity("every database of a MariaDB or MySQL server", "mariadb");
        }
        String name = url == null ? "" : nameIn(url);
        if (name.isEmpty()) {
            return UNNAMED;
        }
        // A PostgreSQL server is also told by its port (two containers' databases are both "test"
        // by default); not by its host, which one server answers to under several names.
        int port = url.contains("postgresql:") ? postgresPort(url) : -1;
        return new DatabaseIdentity(port < 0 ? name : port + "/" + name, label(name));
    }

    /**
     * The port of a PostgreSQL URL of one host ({@code jdbc:postgresql://host:port/db}; 5432 where
     * it gives none, as in {@code jdbc:postgresql:db}); -1 for several hosts, where the name alone tells.
     */
    static int postgresPort(String url) {
        int authority = url.indexOf("//");
        if (authority < 0) {
            // jdbc:postgresql:shop: localhost at the default port.
            return 5432;
        }
        int path = url.indexOf('/', authority + 2);
        String hosts = url.substring(authority + 2, path < 0 ? url.length() : path);
        hosts = hosts.substring(hosts.lastIndexOf('@') + 1);
        if (hosts.isEmpty() || hosts.contains(",")) {
            return -1;
        }
        int colon = hosts.lastIndexOf(':');
        if (colon < 0 || hosts.endsWith("]")) {
            return 5432;
        }
        try {
            return Integer.parseInt(hosts.substring(colon + 1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Whether the database's name is not known. */
    public boolean unnamed() {
        return key.isEmpty();
    }

    /**
     * The database's name in {@code url}: the last segment of its path, parameters
     * ({@code ?...}, {@code ;...}) and credentials aside; empty where it names none.
     */
    static String nameIn(String url) {
        String plain = url;
        for (char end : new char[] {'?', ';'}) {
            int at = plain.indexOf(end);
            if (at >= 0) {
                plain = plain.substring(0, at);
            }
        }
        // jdbc:postgresql://host:5432/shop -> shop; jdbc:h2:mem:shop -> shop; jdbc:h2:./target/shop -> shop.
        int authority = plain.indexOf("//");
        if (authority >= 0 && plain.indexOf('/', authority + 2) < 0) {
            // Only a host: the server's default database, unnamed here.
            return "";
        }
        String name = plain;
        for (char separator : new char[] {'/', ':', '\\'}) {
            int at = name.lastIndexOf(separator);
            if (at >= 0) {
                name = name.substring(at + 1);
            }
        }
        if (name.toLowerCase(Locale.ROOT).equals("mem")) {
            return "";
        }
        if (url.contains("postgresql:")) {
            // pgjdbc's data sources write the name URL-encoded, and the driver decodes it.
            try {
                name = java.net.URLDecoder.decode(name, java.nio.charset.StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                // Not encoded after all: as written.
            }
        }
        String lower = plain.toLowerCase(Locale.ROOT);
        if (lower.contains("hsqldb:mem:") || lower.contains("hsqldb:hsql") || lower.contains("hsqldb:http")) {
            // HSQLDB lower-cases the names of its in-memory databases and of a server's aliases.
            name = name.toLowerCase(Locale.ROOT);
        }
        return name;
    }

    /** A name fit for a key's prefix: no {@code :} or {@code /}, which keys use, and no blanks. */
    private static String label(String name) {
        return name.replaceAll("[:/\\s]", "_");
    }
}
