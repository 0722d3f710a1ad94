package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.recording.decoding.LogicalDecoding;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * A {@link DataSource} whose connections are recorded; everything else goes to the real one. The
 * primary keys looked up, and the write logs of the tests that use it, are shared by all its
 * connections: they are one database's.
 */
public final class RecordingDataSource implements InvocationHandler {

    private final DataSource real;
    private final PrimaryKeys primaryKeys = new PrimaryKeys();
    /** The recorder's own connections come from the same data source: a pool lends one for a moment. */
    private final LogicalDecoding decoding;

    private RecordingDataSource(DataSource real) {
        this.real = real;
        String password = property(real, "getPassword");
        String url = property(real, "getJdbcUrl", "getUrl", "getURL");
        if (url == null || url.matches("(?is).*password=\\*+.*")) {
            // MariaDB's data source answers its URL with the password masked once it has connected.
            String kept = field(real, "url");
            url = kept != null ? kept : url;
        }
        this.decoding = new LogicalDecoding(real::getConnection, property(real, "getUsername", "getUser"),
                password != null ? password : field(real, "password"), url);
    }

    /**
     * The value of the data source's own String field {@code name}, where it has one and has no
     * getter for it (MariaDB's {@code MariaDbDataSource} keeps its password so); {@code null}
     * where it has none or it cannot be read.
     */
    private static String field(DataSource real, String name) {
        for (Class<?> type = real.getClass(); type != null && type != Object.class; type = type.getSuperclass()) {
            try {
                java.lang.reflect.Field field = type.getDeclaredField(name);
                if (field.getType() == String.class && !java.lang.reflect.Modifier.isStatic(field.getModifiers())) {
                    field.setAccessible(true);
                    return (String) field.get(real);
                }
            } catch (NoSuchFieldException e) {
                // Maybe its superclass's.
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }
        return null;
    }

    /**
     * What the first of {@code getters} that the data source has publicly answers (a pool's user,
     * password or URL, which MariaDB's binary log is read as); {@code null} where none does.
     */
    private static String property(DataSource real, String... getters) {
        for (String getter : getters) {
            try {
                Method method = real.getClass().getMethod(getter);
                if (method.getReturnType() == String.class && java.lang.reflect.Modifier.isPublic(method.getDeclaringClass().getModifiers())) {
                    return (String) method.invoke(real);
                }
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                // Not this one.
            }
        }
        return null;
    }

    /** Wraps {@code real}; each connection records into the recording current when a transaction starts. */
    public static DataSource wrap(DataSource real) {
        Objects.requireNonNull(real, "real is null");
        return Proxies.create(DataSource.class, new RecordingDataSource(real));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        Object common = Proxies.common(proxy, real, method, args);
        if (common != Proxies.NOT_COMMON) {
            return common;
        }
        if (!method.getName().equals("getConnection")) {
            return Proxies.call(real, method, args);
        }
        // A pool may make the caller wait for a connection: a point where the test's threads meet.
        Connection result = (Connection) GatePoint.pass("getConnection", () -> null, () -> Proxies.call(real, method, args));
        return RecordedConnection.wrap(result, primaryKeys, decoding);
    }
}
