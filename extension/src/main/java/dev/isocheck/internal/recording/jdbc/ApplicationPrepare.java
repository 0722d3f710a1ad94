package dev.isocheck.internal.recording.jdbc;

import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.PreparedStatement;

/**
 * The application's own {@code prepareStatement} call, kept where the recorder prepared another
 * statement in its place (a write asking for generated keys, or rewritten): made again, it gives
 * the statement the application asked for, for what the one prepared cannot answer as that would.
 *
 * @param connection the driver's connection
 * @param method     the {@code prepareStatement} variant the application called
 * @param args       its arguments, the SQL first
 */
record ApplicationPrepare(Connection connection, Method method, Object[] args) {

    /** A new statement, prepared as the application asked. */
    PreparedStatement again() throws Throwable {
        return (PreparedStatement) Proxies.call(connection, method, args);
    }
}
