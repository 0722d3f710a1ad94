package dev.isocheck.internal.recording;

import dev.isocheck.internal.recording.decoding.SideConnections;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The connections of the recorder's own that the runs of one interleaving test ask their
 * questions on, one per database, opened on a thread of their own (a pool may make the opener
 * wait while the test's threads hold every connection it has) only when a question first needs
 * one, and returned when the test ends, or for good as soon as one of the test's threads waits for
 * a pool: the application never waits for the recorder's connection.
 */
public final class SideSessions implements AutoCloseable {

    private final Map<SideConnections, Object> open = new IdentityHashMap<>();
    private boolean closed;

    /** Where the connection to one database stands. */
    public sealed interface Session {

        /** Being opened: ask again. */
        record Opening() implements Session {
        }

        /** Open. */
        record Open(Connection connection) implements Session {
        }

        /** It could not be opened, it failed a question, or the sessions are closed: not asked again. */
        record Unavailable() implements Session {
        }
    }

    /** The connection to {@code side}'s database; asking the first time starts opening it. */
    public synchronized Session connectionTo(SideConnections side) {
        if (closed) {
            return new Session.Unavailable();
        }
        Object state = open.get(side);
        if (state == null) {
            open.put(side, "opening");
            Thread opener = new Thread(() -> opened(side), "isocheck-side-session");
            opener.setDaemon(true);
            opener.start();
            return new Session.Opening();
        }
        if (state instanceof Connection c) {
            return new Session.Open(c);
        }
        return "opening".equals(state) ? new Session.Opening() : new Session.Unavailable();
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

    /** Returns every connection (to its pool); none is opened after. */
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
