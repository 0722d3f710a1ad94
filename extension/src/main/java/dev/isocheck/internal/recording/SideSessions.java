package dev.isocheck.internal.recording;

import dev.isocheck.internal.recording.decoding.SideConnections;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The connections of the recorder's own that one run of an interleaving test asks its questions
 * on, one per database, opened on a thread of their own (a pool may make the opener wait while
 * the test's threads hold every connection it has) and returned when the run ends, so that a
 * pool lends one for the run only.
 */
public final class SideSessions implements AutoCloseable {

    private final Map<SideConnections, Object> open = new IdentityHashMap<>();
    private boolean closed;

    /** The connection to {@code side}'s database, once open; asking the first time starts opening it. */
    public synchronized Optional<Connection> connectionTo(SideConnections side) {
        if (closed) {
            return Optional.empty();
        }
        Object state = open.get(side);
        if (state == null) {
            open.put(side, "opening");
            Thread opener = new Thread(() -> opened(side), "isocheck-side-session");
            opener.setDaemon(true);
            opener.start();
            return Optional.empty();
        }
        return state instanceof Connection c ? Optional.of(c) : Optional.empty();
    }

    /** The connection to {@code side}'s database failed a question: it is not asked again in this run. */
    public synchronized void failed(SideConnections side) {
        Object state = open.put(side, "failed");
        closeQuietly(state);
    }

    private void opened(SideConnections side) {
        Connection connection;
        try {
            connection = side.open();
        } catch (SQLException | RuntimeException e) {
            synchronized (this) {
                open.put(side, "failed");
            }
            return;
        }
        synchronized (this) {
            if (closed) {
                closeQuietly(connection);
            } else {
                open.put(side, connection);
            }
        }
    }

    /** Returns every connection (to its pool). */
    @Override
    public synchronized void close() {
        closed = true;
        open.values().forEach(SideSessions::closeQuietly);
        open.clear();
    }

    private static void closeQuietly(Object state) {
        if (state instanceof Connection c) {
            try {
                c.close();
            } catch (SQLException | RuntimeException e) {
                // Closing a question connection that broke: nothing the run depends on.
            }
        }
    }
}
