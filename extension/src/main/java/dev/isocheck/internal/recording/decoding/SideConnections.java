package dev.isocheck.internal.recording.decoding;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Where the recorder gets connections of its own to the application's database: from the
 * application's {@code DataSource} (a pool lends one for a moment) or its driver and URL. Never
 * the application's own connections: the recorder does not act on them.
 */
@FunctionalInterface
public interface SideConnections {

    /** A connection the caller closes (returns to its pool). */
    Connection open() throws SQLException;
}
