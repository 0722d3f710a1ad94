package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.recording.LockProbe;
import dev.isocheck.internal.recording.SideSessions;
import dev.isocheck.internal.recording.decoding.SideConnections;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Whether a PostgreSQL connection's statement waits for a lock: {@code pg_blocking_pids} of its
 * server process, asked on a connection of the recorder's own. The process id comes from the
 * driver ({@code PGConnection.getBackendPID}), which asks the server nothing.
 */
final class PostgresLockProbe implements LockProbe {

    private final int pid;
    private final SideConnections side;
    private volatile java.util.List<Integer> blockers = java.util.List.of();

    private PostgresLockProbe(int pid, SideConnections side) {
        this.pid = pid;
        this.side = side;
    }

    /** The probe of {@code real}, when its driver is PostgreSQL's and tells its process id. */
    static Optional<LockProbe> of(Connection real, SideConnections side) {
        try {
            Class<?> pg = Class.forName("org.postgresql.PGConnection", false, real.getClass().getClassLoader());
            if (!real.isWrapperFor(pg)) {
                return Optional.empty();
            }
            Object unwrapped = real.unwrap(pg);
            int pid = (Integer) pg.getMethod("getBackendPID").invoke(unwrapped);
            return Optional.of(new PostgresLockProbe(pid, side));
        } catch (ReflectiveOperationException | SQLException | RuntimeException | LinkageError e) {
            return Optional.empty();
        }
    }

    @Override
    public void prepare(SideSessions sessions) {
        sessions.connectionTo(side);
    }

    @Override
    public java.util.OptionalInt session() {
        return java.util.OptionalInt.of(pid);
    }

    @Override
    public java.util.List<Integer> blockers() {
        return blockers;
    }

    @Override
    public Answer waitsForLock(SideSessions sessions) {
        SideSessions.Session session = sessions.connectionTo(side);
        if (session instanceof SideSessions.Session.Opening) {
            return Answer.NOT_YET;
        }
        if (!(session instanceof SideSessions.Session.Open open)) {
            return Answer.UNKNOWN;
        }
        try (PreparedStatement ask = open.connection().prepareStatement("SELECT pg_catalog.pg_blocking_pids(?)")) {
            ask.setInt(1, pid);
            try (ResultSet rows = ask.executeQuery()) {
                java.util.List<Integer> found = new java.util.ArrayList<>();
                if (rows.next()) {
                    java.sql.Array pids = rows.getArray(1);
                    for (Object each : (Object[]) pids.getArray()) {
                        found.add(((Number) each).intValue());
                    }
                }
                blockers = java.util.List.copyOf(found);
                return found.isEmpty() ? Answer.WORKS : Answer.WAITS;
            }
        } catch (SQLException | RuntimeException e) {
            sessions.failed(side);
            return Answer.UNKNOWN;
        }
    }
}
