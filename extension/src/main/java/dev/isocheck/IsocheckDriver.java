package dev.isocheck;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.isocheck.internal.recording.jdbc.RecordingDriver;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;
import org.apiguardian.api.API;

/**
 * The JDBC driver for {@code jdbc:isocheck:<real url>}: put {@code isocheck:} after {@code jdbc:}
 * in a URL ({@code jdbc:isocheck:postgresql://localhost/app}) and the connections opened from it
 * are the real driver's, recorded into the current {@link SerializableCheck @SerializableCheck}
 * test's history as {@link Isocheck#record} records a {@code DataSource}'s. For applications
 * configured by URL.
 *
 * <p>It registers itself with {@link DriverManager} through {@code META-INF/services/java.sql.Driver},
 * so that {@code DriverManager.getConnection} and pools given only a URL find it. Frameworks that
 * infer the driver class from the URL's prefix do not know {@code isocheck:}; name this class to
 * them, as in Spring Boot's
 * <pre>
 * spring.datasource.url=jdbc:isocheck:postgresql://localhost:5432/app
 * spring.datasource.driver-class-name=dev.isocheck.IsocheckDriver
 * </pre>
 * The real driver must be on the class path and registered with {@code DriverManager} as usual.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class IsocheckDriver implements Driver {

    static {
        try {
            DriverManager.registerDriver(new IsocheckDriver());
        } catch (SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final RecordingDriver driver = new RecordingDriver();

    /** For {@code DriverManager}'s service loader and for frameworks that instantiate the driver by class name. */
    public IsocheckDriver() {
    }

    /**
     * Opens the real URL's connection, recorded.
     *
     * @return {@code null} for a URL that does not start with {@code jdbc:isocheck:}, as
     *         {@link Driver#connect} asks
     */
    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        return driver.connect(url, info);
    }

    /** Whether {@code url} starts with {@code jdbc:isocheck:}. */
    @Override
    public boolean acceptsURL(String url) {
        return driver.acceptsURL(url);
    }

    /** The real driver's properties for the real URL. */
    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) throws SQLException {
        return driver.getPropertyInfo(url, info);
    }

    @Override
    public int getMajorVersion() {
        return driver.getMajorVersion();
    }

    @Override
    public int getMinorVersion() {
        return driver.getMinorVersion();
    }

    /** {@code false}: it is as compliant as the driver it wraps, which it does not know until it connects. */
    @Override
    public boolean jdbcCompliant() {
        return driver.jdbcCompliant();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return driver.getParentLogger();
    }
}
