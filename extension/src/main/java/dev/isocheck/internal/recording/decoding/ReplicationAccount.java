package dev.isocheck.internal.recording.decoding;

import java.net.URI;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Optional;

/**
 * Where and as whom the recorder reads MariaDB's binary log: the replication protocol is a
 * connection of its own, outside JDBC, so it needs the server's address and a user's password,
 * which a {@code DataSource} does not hand out. The address is the one the application's driver
 * reports ({@code DatabaseMetaData.getURL}); the user and password come, first found first, from
 * the configuration ({@code isocheck.binlog.user}, {@code isocheck.binlog.password}), the
 * properties the application gave the driver, the URL's own {@code user} and {@code password}
 * parameters, or a pool's public {@code getPassword()}; else the application's user with no
 * password.
 *
 * @param host     the server's host
 * @param port     its port
 * @param user     the user the log is read as
 * @param password its password, empty for none
 */
record ReplicationAccount(String host, int port, String user, String password) {

    /** MariaDB's and MySQL's port when the URL names none. */
    private static final int DEFAULT_PORT = 3306;

    /** The account as a message may show it: no password. */
    @Override
    public String toString() {
        return user + "@" + host + ":" + port;
    }

    /**
     * The account for the database {@code connection} (one of the recorder's own) reaches.
     *
     * @param given the user and password given to the driver or configured, each {@code null} when none
     * @throws SQLException naming what is missing when the driver's URL names no single TCP server
     */
    static ReplicationAccount of(Connection connection, Credentials given) throws SQLException {
        String url = connection.getMetaData().getURL();
        if (url == null || !url.startsWith("jdbc:")) {
            throw new SQLException("the driver reports no URL of the server (" + url + ")");
        }
        URI uri = uri(url);
        String host = uri == null ? null : uri.getHost();
        if (host == null || url.contains(",")) {
            throw new SQLException("the server's URL " + redacted(url) + " does not name one host and port");
        }
        URI givenUri = given.url() == null ? null : uri(given.url());
        String user = given.user() != null ? given.user()
                : givenUri != null && parameter(givenUri, "user").isPresent() ? parameter(givenUri, "user").get()
                : parameter(uri, "user").orElse(null);
        if (user == null) {
            user = connection.getMetaData().getUserName();
        }
        if (user != null && user.contains("@")) {
            // MySQL's driver reports user@host.
            user = user.substring(0, user.indexOf('@'));
        }
        if (user == null || user.isEmpty()) {
            throw new SQLException("the driver reports no user name");
        }
        String password = given.password() != null ? given.password()
                : givenUri != null && parameter(givenUri, "password").isPresent() ? parameter(givenUri, "password").get()
                : parameter(uri, "password").orElse("");
        return new ReplicationAccount(host, uri.getPort() > 0 ? uri.getPort() : DEFAULT_PORT, user, password);
    }

    /** {@code url}, a JDBC URL of MySQL's or MariaDB's, as a URI; {@code null} when it is not one. */
    private static URI uri(String url) {
        if (!url.startsWith("jdbc:")) {
            return null;
        }
        try {
            return URI.create(url.substring("jdbc:".length()).replaceFirst("^(mariadb|mysql):(replication:|loadbalance:|sequential:)?//",
                    "mysql://"));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** A parameter of the URL; empty when absent or masked ({@code ***}, as MariaDB's driver reports it). */
    private static Optional<String> parameter(URI uri, String name) {
        String query = uri.getRawQuery();
        if (query == null) {
            return Optional.empty();
        }
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.substring(0, eq).toLowerCase(Locale.ROOT).equals(name)) {
                String value = java.net.URLDecoder.decode(pair.substring(eq + 1), java.nio.charset.StandardCharsets.UTF_8);
                return value.matches("\\*+") ? Optional.empty() : Optional.of(value);
            }
        }
        return Optional.empty();
    }

    /** The URL with its password, if any, hidden. */
    private static String redacted(String url) {
        return url.replaceAll("(?i)(password=)[^&;]*", "$1***");
    }

    /**
     * The user and password given for the log, each {@code null} when not given.
     *
     * @param user     the user
     * @param password the password
     * @param url      the URL the application gave (its {@code user} and {@code password}
     *                 parameters count as given), {@code null} when not known
     */
    record Credentials(String user, String password, String url) {

        /** None given. */
        static final Credentials NONE = new Credentials(null, null, null);

        /** These, each replaced by {@code fallback}'s where not given. */
        Credentials or(Credentials fallback) {
            return new Credentials(user != null ? user : fallback.user(), password != null ? password : fallback.password(),
                    url != null ? url : fallback.url());
        }

        @Override
        public String toString() {
            return "Credentials[" + user + "]";
        }
    }
}
