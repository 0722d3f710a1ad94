package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.recording.decoding.LogicalDecoding;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * What the public {@code dev.isocheck.IsocheckDriver} does: it claims only URLs starting
 * {@code jdbc:isocheck:}, opens the real URL through {@link DriverManager}, and records the
 * connection as {@code Isocheck.record}'s DataSource does. Not registered itself: the public class
 * is, so that one driver answers for the prefix.
 */
public final class RecordingDriver implements Driver {

    /** The prefix this driver claims. */
    public static final String PREFIX = "jdbc:isocheck:";

    /** One cache of primary keys per real URL: the connections to one database share it. */
    private static final Map<String, PrimaryKeys> PRIMARY_KEYS = new ConcurrentHashMap<>();
    /**
     * One set of write logs per real URL and user: the recorder's own connections open the same
     * URL with the properties the application's first connection gave.
     */
    private static final Map<String, LogicalDecoding> DECODING = new ConcurrentHashMap<>();

    /** A driver; every instance shares the primary keys it has looked up per database. */
    public RecordingDriver() {
    }

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            // The DriverManager asks every driver; null says "not mine".
            return null;
        }
        String realUrl = "jdbc:" + url.substring(PREFIX.length());
        Properties properties = new Properties();
        if (info != null) {
            properties.putAll(info);
        }
        Connection real = DriverManager.getConnection(realUrl, properties);
        LogicalDecoding decoding = DECODING.computeIfAbsent(realUrl + "\u0000" + properties.getProperty("user"),
                k -> new LogicalDecoding(() -> DriverManager.getConnection(realUrl, properties), properties.getProperty("user"),
                        properties.getProperty("password"), realUrl));
        return RecordedConnection.wrap(real, PRIMARY_KEYS.computeIfAbsent(realUrl, u -> new PrimaryKeys()), decoding);
    }

    @Override
    public boolean acceptsURL(String url) {
        return url != null && url.startsWith(PREFIX);
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return new DriverPropertyInfo[0];
        }
        String realUrl = "jdbc:" + url.substring(PREFIX.length());
        return DriverManager.getDriver(realUrl).getPropertyInfo(realUrl, info);
    }

    @Override
    public int getMajorVersion() {
        return 0;
    }

    @Override
    public int getMinorVersion() {
        return 1;
    }

    @Override
    public boolean jdbcCompliant() {
        // It is as compliant as the driver it wraps, which it does not know until it connects.
        return false;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("no java.util.logging in the isocheck driver");
    }
}
